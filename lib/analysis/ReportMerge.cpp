//===- ReportMerge.cpp - One report for a project -------------------------===//

#include "detc/analysis/Findings.h"

#include "llvm/ADT/STLExtras.h"

#include <set>
#include <tuple>

using namespace llvm;

namespace detc::analysis {

namespace {
void nameFile(SourcePoint &p, const std::string &file) {
  if (p.file.empty())
    p.file = file;
}

void nameFiles(Finding &f, const std::string &file) {
  nameFile(f.at, file);
  for (ReportNote &n : f.notes)
    nameFile(n.at, file);
  if (f.suppression)
    nameFile(f.suppression->at, file);
}

auto place(const Finding &f) {
  return std::tie(f.at.file, f.at.line, f.at.column, f.rule, f.message);
}

/// Sorts by place and keeps the first of equal findings.
void sortUnique(std::vector<Finding> &findings) {
  llvm::stable_sort(findings, [](const Finding &a, const Finding &b) {
    return place(a) < place(b);
  });
  findings.erase(std::unique(findings.begin(), findings.end(),
                             [](const Finding &a, const Finding &b) {
                               return place(a) == place(b);
                             }),
                 findings.end());
}
} // namespace

Report mergeReports(std::vector<Report> reports,
                    std::vector<AnalysedFile> files) {
  Report merged;
  merged.project = true;
  merged.files = std::move(files);
  std::set<std::string> err;
  for (Report &r : reports) {
    for (Finding &f : r.findings) {
      nameFiles(f, r.file);
      merged.findings.push_back(std::move(f));
    }
    for (Finding &f : r.suppressed) {
      nameFiles(f, r.file);
      merged.suppressed.push_back(std::move(f));
    }
    for (ReplaySummary &c : r.checkpoints) {
      nameFile(c.at, r.file);
      merged.checkpoints.push_back(std::move(c));
    }
    for (HintLiveness &h : r.hints) {
      nameFile(h.at, r.file);
      merged.hints.push_back(std::move(h));
    }
    for (const std::string &g : r.err)
      err.insert(r.file + ": " + g);
  }
  sortUnique(merged.findings);
  sortUnique(merged.suppressed);
  merged.err.assign(err.begin(), err.end());
  return merged;
}

} // namespace detc::analysis

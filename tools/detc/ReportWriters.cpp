//===- ReportWriters.cpp - Text, JSON and SARIF renderings ----------------===//

#include "ReportWriters.h"

#include "detc/analysis/Suppressions.h"
#include "detc/frontend/Diagnostics.h"
#include "detc/base/FileIO.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace detc;
using namespace detc::analysis;

namespace {
/// Source lines for the caret display, read once per file.
class LineCache {
public:
  std::string line(const std::string &file, unsigned n) {
    auto [it, inserted] = files.try_emplace(file);
    if (inserted) {
      if (Expected<std::string> buf = base::readInputFile(file)) {
        SmallVector<StringRef, 0> lines;
        StringRef(*buf).split(lines, '\n');
        for (StringRef l : lines)
          it->second.push_back(l.rtrim('\r').str());
      } else {
        consumeError(buf.takeError());
      }
    }
    return n >= 1 && n <= it->second.size() ? it->second[n - 1] : "";
  }

private:
  StringMap<std::vector<std::string>> files;
};
} // namespace

static void diag(raw_ostream &os, LineCache &lines, frontend::Severity sev,
                 const SourcePoint &at, const std::string &file,
                 const std::string &message) {
  frontend::Diagnostic d;
  d.severity = sev;
  d.file = at.valid() ? at.file : file;
  d.message = message;
  if (at.valid()) {
    d.pos.line = at.line;
    d.pos.column = at.column ? at.column - 1 : 0;
    d.lineText = lines.line(at.file, at.line);
  }
  frontend::DiagnosticEngine::print(os, d);
}

static std::string joined(ArrayRef<NamedAt> items, bool withPlace) {
  std::string s;
  for (const NamedAt &n : items) {
    if (!s.empty())
      s += ", ";
    s += n.name;
    if (withPlace && n.at.valid())
      s += " (line " + std::to_string(n.at.line) + ")";
    if (!n.why.empty())
      s += " [" + n.why + "]";
  }
  return s.empty() ? "(none)" : s;
}

void detc::tool::writeText(raw_ostream &os, const Report &r) {
  LineCache lines;
  if (!r.entries.empty()) {
    std::string names;
    for (const std::string &e : r.entries)
      names += (names.empty() ? "" : ", ") + e;
    os << r.file << ": note: "
       << (r.libraryEntries
               ? "the module body runs none of the script's functions; "
                 "analysed every public function and method as an entry "
                 "called with unknown arguments (pick with --entry=NAME): "
               : "analysed as entries called with unknown arguments: ")
       << names << "\n";
  }
  for (const Finding &f : r.findings) {
    diag(os, lines,
         f.isError ? frontend::Severity::Error : frontend::Severity::Warning,
         f.at, r.file, f.message + " [" + f.rule + "]");
    for (const ReportNote &n : f.notes)
      diag(os, lines, frontend::Severity::Note, n.at, r.file, n.message);
  }
  // A project's text report is its findings: the replay summaries and
  // hint liveness of every script are in its JSON, and in each script's
  // own report.
  for (const ReplaySummary &c : r.project ? ArrayRef<ReplaySummary>()
                                        : ArrayRef<ReplaySummary>(r.checkpoints)) {
    diag(os, lines, frontend::Severity::Note, c.at, r.file,
         "replay from this checkpoint [detc-replay]");
    std::string user;
    for (const std::string &s : c.userSaved)
      user += (user.empty() ? "" : ", ") + s;
    os << "  saved by the checkpoint: " << (user.empty() ? "(none)" : user)
       << "\n";
    os << "  saved by detc: generator states: " << joined(c.generators, true)
       << "\n";
    os << "  saved by detc: loop positions: " << joined(c.loops, true) << "\n";
    os << "  saved by detc (needed, not re-derivable): "
       << joined(c.detcSaved, false) << "\n";
    os << "  fast-forwarded: " << joined(c.fastForwarded, false) << "\n";
    os << "  re-executed in fast-forward: lines";
    if (c.reexecuted.empty())
      os << " (none)";
    unsigned last = 0;
    for (const SourcePoint &p : c.reexecuted)
      if (p.line != last)
        os << " " << (last = p.line);
    os << "\n  skipped in fast-forward: " << joined(c.skipped, true) << "\n";
  }
  for (const HintLiveness &h :
       r.project ? ArrayRef<HintLiveness>() : ArrayRef<HintLiveness>(r.hints)) {
    auto list = [](const std::vector<std::string> &items) {
      std::string out;
      for (const std::string &s : items)
        out += (out.empty() ? "" : ", ") + s;
      return out.empty() ? std::string("(none)") : out;
    };
    diag(os, lines, frontend::Severity::Note, h.at, r.file,
         "live at this checkpoint hint: " + list(h.live) +
             "; generator states: " + list(h.generators) + " [detc-hint-live]");
  }
  if (!r.suppressed.empty()) {
    size_t inSource = llvm::count_if(r.suppressed, [](const Finding &f) {
      return f.suppression->kind == Suppression::InSource;
    });
    os << r.file << ": note: " << r.suppressed.size()
       << " finding(s) suppressed (" << inSource << " by '# detc: ignore', "
       << r.suppressed.size() - inSource << " by the baseline)\n";
  }
  size_t errors = llvm::count_if(r.findings,
                                 [](const Finding &f) { return f.isError; });
  if (errors)
    os << errors << " error(s), ";
  os << r.findings.size() - errors << " warning(s)";
  if (r.project) {
    size_t failed = llvm::count_if(
        r.files, [](const AnalysedFile &f) { return f.status != 0; });
    os << " in " << r.files.size() << " file(s)";
    if (failed)
      os << " (" << failed << " could not be analysed)";
  }
  os << "; unsafe generators (ERR): ";
  if (r.err.empty())
    os << "none";
  for (size_t i = 0; i < r.err.size(); ++i)
    os << (i ? ", " : "") << r.err[i];
  os << "\n";
}

static json::Object point(const SourcePoint &p) {
  json::Object o;
  if (p.valid()) {
    o["file"] = p.file;
    o["line"] = p.line;
    o["column"] = p.column;
  }
  return o;
}

static json::Array named(ArrayRef<NamedAt> items) {
  json::Array a;
  for (const NamedAt &n : items) {
    json::Object o = point(n.at);
    o["name"] = n.name;
    if (!n.why.empty())
      o["why"] = n.why;
    a.push_back(std::move(o));
  }
  return a;
}

static StringRef suppressionKind(const Suppression &s, bool sarif) {
  if (s.kind == Suppression::InSource)
    return "inSource";
  return sarif ? "external" : "baseline";
}

static json::Object findingJson(const Finding &f) {
  json::Object o = point(f.at);
  o["rule"] = f.rule;
  o["severity"] = f.isError ? "error" : "warning";
  o["message"] = f.message;
  o["fingerprint"] = f.fingerprint;
  json::Array notes;
  for (const ReportNote &n : f.notes) {
    json::Object no = point(n.at);
    no["message"] = n.message;
    notes.push_back(std::move(no));
  }
  o["notes"] = std::move(notes);
  if (f.suppression) {
    json::Object s = point(f.suppression->at);
    s["kind"] = suppressionKind(*f.suppression, false);
    s["reason"] = f.suppression->reason;
    o["suppression"] = std::move(s);
  }
  return o;
}

/// The attributes of point() streamed into the current object: `column`,
/// `file` and `line` sort around other keys, so each comes on its own.
static void pointAttribute(json::OStream &j, const SourcePoint &p,
                           StringRef key) {
  if (!p.valid())
    return;
  if (key == "column")
    j.attribute("column", p.column);
  else if (key == "file")
    j.attribute("file", p.file);
  else
    j.attribute("line", p.line);
}

void detc::tool::writeJson(raw_ostream &os, const Report &r) {
  // Streamed element by element: as one json::Value, a 100k-line script's
  // report took 100 MB and a fifth of a second to build and free. Keys come
  // in sorted order, as json::Value prints an object's keys.
  json::OStream j(os, 2);
  auto values = [&](StringRef key, auto &items, auto toValue) {
    j.attributeArray(key, [&] {
      for (const auto &item : items)
        j.value(toValue(item));
    });
  };
  auto strings = [&](StringRef key, const std::vector<std::string> &items) {
    values(key, items, [](const std::string &s) { return json::Value(s); });
  };
  j.object([&] {
    j.attributeArray("checkpoints", [&] {
      for (const ReplaySummary &c : r.checkpoints)
        j.object([&] {
          pointAttribute(j, c.at, "column");
          j.attribute("detcSaved", named(c.detcSaved));
          values("fastForwarded", c.fastForwarded,
                 [](const NamedAt &n) { return json::Value(n.name); });
          pointAttribute(j, c.at, "file");
          j.attribute("generators", named(c.generators));
          pointAttribute(j, c.at, "line");
          j.attribute("loops", named(c.loops));
          values("reexecuted", c.reexecuted,
                 [](const SourcePoint &p) { return point(p); });
          values("skipped", c.skipped, [](const NamedAt &n) {
            return named(ArrayRef<NamedAt>(n)).front();
          });
          strings("userSaved", c.userSaved);
        });
    });
    if (!r.project) {
      strings("entries", r.entries);
      j.attribute("file", r.file);
    } else {
      // A project's report: what was analysed in each file.
      values("files", r.files, [](const AnalysedFile &f) {
        return json::Object{{"entries", json::Array(f.entries)},
                            {"file", f.file},
                            {"libraryEntries", f.libraryEntries},
                            {"status", f.status}};
      });
    }
    values("findings", r.findings, findingJson);
    values("hints", r.hints, [](const HintLiveness &h) {
      json::Object o = point(h.at);
      o["live"] = json::Array(h.live);
      o["generators"] = json::Array(h.generators);
      return o;
    });
    if (!r.project)
      j.attribute("libraryEntries", r.libraryEntries);
    values("suppressed", r.suppressed, findingJson);
    strings("unsafeGenerators", r.err);
    j.attribute("version", 1);
  });
  os << "\n";
}

static json::Object sarifLocation(const SourcePoint &p,
                                  const std::string &file) {
  json::Object region;
  if (p.valid()) {
    region["startLine"] = p.line;
    region["startColumn"] = p.column;
  }
  json::Object physical{
      {"artifactLocation", json::Object{{"uri", p.valid() ? p.file : file}}}};
  if (p.valid())
    physical["region"] = std::move(region);
  return json::Object{{"physicalLocation", std::move(physical)}};
}

void detc::tool::stampSarif(json::Object &log, int exitCode) {
  json::Array *runs = log.getArray("runs");
  if (!runs)
    return;
  for (json::Value &run : *runs) {
    json::Object *r = run.getAsObject();
    json::Object *tool = r ? r->getObject("tool") : nullptr;
    json::Object *driver = tool ? tool->getObject("driver") : nullptr;
    if (!driver)
      continue;
    (*driver)["version"] = DETC_VERSION;
    (*driver)["semanticVersion"] = DETC_VERSION;
    if (StringRef(DETC_HOMEPAGE_URL).size())
      (*driver)["informationUri"] = DETC_HOMEPAGE_URL;
    (*r)["invocations"] = json::Array{json::Object{
        {"executionSuccessful", exitCode == 0 || exitCode == 1},
        {"exitCode", exitCode}}};
  }
}

void detc::tool::writeSarif(raw_ostream &os, const Report &r, int exitCode) {
  json::Array rules;
  for (const RuleInfo &rule : analysis::rules()) {
    json::Object info{
        {"id", rule.id},
        {"shortDescription", json::Object{{"text", rule.description}}},
        {"help",
         json::Object{{"text", (StringRef(rule.description).rtrim('.') +
                                ". Rules, suppressions (# detc: "
                                "ignore[" + rule.id +
                                "] -- reason) and baselines: "
                                "docs/analysis.md in detc's sources.")
                                   .str()}}}};
    if (StringRef(DETC_HOMEPAGE_URL).size())
      info["helpUri"] = (Twine(DETC_HOMEPAGE_URL) +
                         "/blob/v" DETC_VERSION "/docs/analysis.md#lint-findings-linth-spec-9")
                            .str();
    rules.push_back(std::move(info));
  }
  json::Array results;
  auto add = [&](const Finding &f) {
    json::Array related;
    int id = 0;
    for (const ReportNote &n : f.notes) {
      json::Object loc = sarifLocation(n.at, r.file);
      loc["id"] = id++;
      loc["message"] = json::Object{{"text", n.message}};
      related.push_back(std::move(loc));
    }
    json::Object result{
        {"ruleId", f.rule},
        {"level", f.isError ? "error" : "warning"},
        {"message", json::Object{{"text", f.message}}},
        {"locations", json::Array{sarifLocation(f.at, r.file)}},
        {"relatedLocations", std::move(related)},
        // Code-scanning services track a result across commits by it.
        {"partialFingerprints",
         json::Object{{"detcFingerprint/v1", f.fingerprint}}}};
    if (f.suppression) {
      json::Object s{{"kind", suppressionKind(*f.suppression, true)}};
      if (!f.suppression->reason.empty())
        s["justification"] = f.suppression->reason;
      if (f.suppression->at.valid())
        s["location"] = sarifLocation(f.suppression->at, r.file);
      result["suppressions"] = json::Array{std::move(s)};
    }
    results.push_back(std::move(result));
  };
  for (const Finding &f : r.findings)
    add(f);
  for (const Finding &f : r.suppressed)
    add(f);
  json::Object run{
      {"tool",
       json::Object{{"driver", json::Object{{"name", "detc"},
                                            {"rules", std::move(rules)}}}}},
      {"results", std::move(results)}};
  json::Object root{
      {"version", "2.1.0"},
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"runs", json::Array{std::move(run)}}};
  stampSarif(root, exitCode);
  os << formatv("{0:2}", json::Value(std::move(root))) << "\n";
}

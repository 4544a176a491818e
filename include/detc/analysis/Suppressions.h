//===- Suppressions.h - Rules, ignore comments, fingerprints, baselines ---===//
//
// What happens to the findings between the analyses and the report writers:
//  * every finding gets a fingerprint that survives line moves (its rule,
//    its source line's text and its message with positions taken out, and
//    its rank among findings alike in all three);
//  * `# detc: ignore[rule, ...] -- reason` on the line of a finding, or on
//    the line of one of its notes (the data-parallel region's start),
//    suppresses it; an ignore comment that suppresses nothing is itself a
//    finding (`detc-unused-ignore`); a bare `ignore` or an unknown rule is
//    an error;
//  * a baseline (a JSON file of rule, file and fingerprint) suppresses the
//    findings it lists, so a codebase can adopt detc without fixing every
//    finding first.
// Suppressed findings move to Report::suppressed (JSON and SARIF keep them).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_SUPPRESSIONS_H
#define DETC_ANALYSIS_SUPPRESSIONS_H

#include "detc/analysis/Findings.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace detc::analysis {

struct RuleInfo {
  const char *id;
  const char *description;
};
/// Every rule `detc analyze` reports, with a one-line description.
llvm::ArrayRef<RuleInfo> rules();

/// A finding's message without its source positions (`train.py:52:9` ->
/// `<pos>`, `line 52` -> `<line>`), which move when lines are added above:
/// what its fingerprint hashes.
std::string messageWithoutPositions(llvm::StringRef message);

/// Sets Finding::fingerprint on every finding of `r`.
void assignFingerprints(Report &r);

/// A malformed ignore comment.
struct SuppressionError {
  SourcePoint at;
  std::string message;
};

/// Applies the ignore comments of the analysed file and of the files the
/// findings point into (fingerprints must be assigned: an unused-ignore
/// finding gets one too).
std::vector<SuppressionError> applySuppressions(Report &r);

/// Suppresses the findings `baselinePath` lists (each entry once).
llvm::Error applyBaseline(Report &r, llvm::StringRef baselinePath);

/// Writes the reported findings of `r` as a baseline to `os`; file paths
/// are relative to `baselineDir` when they are below it.
void writeBaseline(llvm::raw_ostream &os, const Report &r,
                   llvm::StringRef baselineDir);

} // namespace detc::analysis

#endif // DETC_ANALYSIS_SUPPRESSIONS_H

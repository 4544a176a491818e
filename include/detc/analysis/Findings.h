//===- Findings.h - What `detc analyze` reports -------------------*- C++ -*-===//
//
// The analyses' results turned into a report model that the text, JSON and
// SARIF writers render: findings (warnings with a rule id and notes that
// show the chain), per-checkpoint replay summaries, and the variables live
// at each checkpoint hint.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_FINDINGS_H
#define DETC_ANALYSIS_FINDINGS_H

#include "detc/analysis/Lint.h"
#include "detc/analysis/Replay.h"
#include "detc/analysis/ThreadSafety.h"
#include "detc/base/PhaseStats.h"

#include <optional>

namespace detc::analysis {

struct ReportNote {
  SourcePoint at;
  std::string message;
};

/// Why a finding is not reported: a `# detc: ignore[rule] -- reason`
/// comment (InSource) or a baseline of known findings (Baseline).
struct Suppression {
  enum Kind { InSource, Baseline } kind = InSource;
  SourcePoint at; ///< The comment (InSource).
  std::string reason;
};

struct Finding {
  std::string rule; ///< `detc-unsafe-rng`, `detc-missing-zero-grad`, ...
  SourcePoint at;
  std::string message;
  std::vector<ReportNote> notes;
  /// Stable across line moves (Suppressions.h: assignFingerprints).
  std::string fingerprint;
  std::optional<Suppression> suppression;
  /// The project made the rule an error (`[tool.detc.rules]`).
  bool isError = false;
};

struct NamedAt {
  std::string name;
  SourcePoint at; ///< Where it is defined or decided (may be invalid).
  std::string why; ///< For values detc must save: what they depend on.
};

struct ReplaySummary {
  SourcePoint at;
  std::vector<std::string> userSaved;
  std::vector<NamedAt> generators, loops, detcSaved, fastForwarded;
  std::vector<SourcePoint> reexecuted;
  std::vector<NamedAt> skipped; ///< name = what kind of work.
};

struct HintLiveness {
  SourcePoint at;
  std::vector<std::string> live; ///< Variables, as the user wrote them.
  /// Generator states a checkpoint here must save: the objects live
  /// variables hold (a library's global generator is one of them).
  std::vector<std::string> generators;
};

/// One file of a project's report (`detc analyze PATH...`).
struct AnalysedFile {
  std::string file;
  /// 0, or the exit status of a file that could not be analysed (2: bad
  /// input, 3: an internal error).
  int status = 0;
  std::vector<std::string> entries;
  bool libraryEntries = false;
};

struct Report {
  std::string file;
  std::vector<Finding> findings;
  /// Findings not reported (suppressed in the source or by a baseline).
  std::vector<Finding> suppressed;
  std::vector<std::string> err; ///< Generators in ERR, described.
  std::vector<ReplaySummary> checkpoints;
  std::vector<HintLiveness> hints;
  /// Functions analysed as entries after the module body, as the user
  /// writes them (`train_model`, `Trainer.fit`), and whether detc chose
  /// them because the module body runs nothing (library-style code).
  std::vector<std::string> entries;
  bool libraryEntries = false;
  /// A project's report (mergeReports), with every file named or found, in
  /// order; not one script's.
  bool project = false;
  std::vector<AnalysedFile> files;
};

/// Everything `detc analyze` computes for one module.
struct ProgramAnalysis {
  StatementGraph graph;
  std::unique_ptr<GeneratorAliases> gens;
  ThreadSafetyResult ts;
  Liveness live;
  ReplayResult replay;
  std::vector<LintFinding> lints;
  /// Wall time and peak memory of each phase, in the order run() runs them
  /// (`detc analyze --stats`, bench/analysis_scaling.py).
  std::vector<base::PhaseStat> phases;

  /// Runs every analysis; on two threads where they are independent (the
  /// context's multithreading is on meanwhile). `alongside`, if given, runs
  /// on another thread while the statement graph is built (the tools
  /// verify the IR there).
  static ProgramAnalysis run(mlir::ModuleOp module,
                             const StatementGraphOptions &options = {},
                             llvm::function_ref<void()> alongside = {});
};

Report buildReport(const ProgramAnalysis &a, llvm::StringRef file);

/// detc-unseen-training for the script `file` (buildReport's; the
/// transform says it too): detc sees no training step, and the script
/// calls a name training libraries train by in code detc could not read.
std::optional<Finding> unseenTraining(const ProgramAnalysis &a,
                                      llvm::StringRef file);

/// One report for a project from its files' reports: each finding, note,
/// checkpoint and hint names its file; findings are sorted by place, and
/// one that two files' analyses both report (in a module that a script
/// imports and that is analysed itself) appears once. `files` lists every
/// file, also those with no report.
Report mergeReports(std::vector<Report> reports,
                    std::vector<AnalysedFile> files);

} // namespace detc::analysis

#endif // DETC_ANALYSIS_FINDINGS_H

//===- PhaseStats.h - Time and peak memory of a tool's phases ----*- C++ -*-===//
//
// `--stats` of the tools, and the benchmarks reading it, split a run into
// phases (parse, points-to, each lowering pass, each analysis) with the
// wall time each took and the process's peak resident memory when it ended:
// where the time goes, and which phase raised the peak.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_BASE_PHASESTATS_H
#define DETC_BASE_PHASESTATS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <string>
#include <vector>

namespace detc::base {

struct PhaseStat {
  std::string name;
  double seconds = 0;
  /// Peak resident memory of the process when the phase ended.
  size_t peakBytes = 0;
  /// Resident memory when it ended (what the phase left allocated).
  size_t residentBytes = 0;
  /// Bytes allocated and not freed when it ended (resident memory less the
  /// allocator's free pages and the libraries').
  size_t heapBytes = 0;
};

/// Appends a PhaseStat to `out` at each lap(), timed from the previous lap
/// (or from construction).
class PhaseClock {
public:
  explicit PhaseClock(std::vector<PhaseStat> &out)
      : out(out), last(std::chrono::steady_clock::now()) {}
  void lap(llvm::StringRef name);

private:
  std::vector<PhaseStat> &out;
  std::chrono::steady_clock::time_point last;
};

/// One line per phase:
/// `<indent>seconds NAME: S peak-mb: M rss-mb: R heap-mb: H`.
void printPhaseStats(llvm::raw_ostream &os, llvm::ArrayRef<PhaseStat> phases,
                     llvm::StringRef indent = "");

} // namespace detc::base

#endif // DETC_BASE_PHASESTATS_H

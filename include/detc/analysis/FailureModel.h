//===- FailureModel.h - Wasted work of periodic and JIT checkpointing -----===//
//
// The analytic model of the Just-In-Time Checkpointing paper (EuroSys'24,
// §5; SPEC §8): N data-parallel workers, each failing at rate f (per
// second), a checkpoint costing o seconds, a restart costing r seconds, a
// minibatch taking m seconds, and JIT's steady-state overhead o_jit (a
// fraction of the run). Per worker and per unit of useful time:
//   periodic at c checkpoints/s   w(c)  = c·o + N·f·r + N·f/(2c)       (eq 1)
//   the optimum                   c*    = sqrt(N·f / (2·o))            (eq 3)
//                                 w*    = 2·sqrt(N·f·o/2) + N·f·r      (eq 4, 5)
//   just-in-time                  w_jit = f·o + o_jit + N·f·r + N·f·m/2 (eq 7)
// and the wasted-time fraction of a run, w / (1 + w) (eq 6). No MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_FAILUREMODEL_H
#define DETC_ANALYSIS_FAILUREMODEL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace detc::analysis {

/// The largest worker count and time (s) --failure-model takes: beyond
/// them the model's arithmetic overflows (exit 2 instead of "INF").
constexpr double kMaxWorkers = 1e9;
constexpr double kMaxSeconds = 1e9;

struct FailureModel {
  double workers = 1;          ///< N.
  double failureRate = 0;      ///< f: failures per worker per second.
  double checkpointCost = 0;   ///< o: seconds per checkpoint.
  double restartCost = 0;      ///< r: seconds per restart (restore, setup).
  double minibatchSeconds = 0; ///< m.
  double jitOverhead = 0;      ///< o_jit: steady-state fraction.

  /// c*: periodic checkpoints per second that minimise the wasted work.
  double optimalFrequency() const;
  /// Wasted time per worker per unit of useful time, periodic at `c`.
  double periodicWaste(double c) const;
  /// ... at c*.
  double optimalPeriodicWaste() const;
  /// ... with just-in-time checkpointing.
  double jitWaste() const;
  /// The same model for another number of workers.
  FailureModel withWorkers(double n) const;
};

/// The wasted-time fraction of a run: w / (1 + w).
double wastedFraction(double w);

/// Parses `N=1024,f=2e-3/day,o=5,r=9.9,m=0.418[,ojit=0.0076]`: times in
/// seconds (suffixes s, min, h, day), f per worker per second unless a
/// `/h` or `/day` suffix says otherwise. Errors name the bad item.
llvm::Expected<FailureModel> parseFailureModel(llvm::StringRef text);

/// The report of `detc analyze --failure-model`: the model's inputs, c*,
/// w* and w_jit for its N, and the paper's Table 8 columns (N = 4, 1024,
/// 8192).
void printFailureModel(llvm::raw_ostream &os, const FailureModel &model);

} // namespace detc::analysis

#endif // DETC_ANALYSIS_FAILUREMODEL_H

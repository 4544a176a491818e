//===- PhaseStats.cpp - Time and peak memory of a tool's phases -----------===//

#include "detc/base/PhaseStats.h"
#include "detc/base/Process.h"

#include "llvm/Support/Format.h"

using namespace detc::base;

void PhaseClock::lap(llvm::StringRef name) {
  auto now = std::chrono::steady_clock::now();
  out.push_back({name.str(), std::chrono::duration<double>(now - last).count(),
                 peakResidentBytes(), residentBytes(), heapBytes()});
  last = now;
}

void detc::base::printPhaseStats(llvm::raw_ostream &os,
                                 llvm::ArrayRef<PhaseStat> phases,
                                 llvm::StringRef indent) {
  for (const PhaseStat &p : phases)
    os << indent << "seconds " << p.name << ": "
       << llvm::format("%.6f", p.seconds)
       << " peak-mb: " << llvm::format("%.1f", p.peakBytes / 1048576.0)
       << " rss-mb: " << llvm::format("%.1f", p.residentBytes / 1048576.0)
       << " heap-mb: " << llvm::format("%.1f", p.heapBytes / 1048576.0)
       << "\n";
}

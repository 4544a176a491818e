//===- InferEngineBench.cpp - detc infer's engine, timed warm -------------===//
//
// bench/infer_scaling.py compares `detc infer` with a pandas implementation
// of the same relations (bench/infer_baseline.py) that it times in a warm
// interpreter: the best of several calls in one process. This times the
// engine the same way — invariants::infer() called repeatedly in one
// process, traces read from the page cache each time — so that the ratio
// compares the two implementations, not a process start (detc infer's own
// "in N s" is its first, cold call: code paged in, caches empty).
//
// usage: detc-bench-infer TRACE... [--benchmark_* flags]
//
//===----------------------------------------------------------------------===//

#include "detc/invariants/Invariants.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  std::vector<std::string> traces(argv + 1, argv + argc);
  if (traces.empty()) {
    std::fprintf(stderr, "usage: detc-bench-infer TRACE...\n");
    return 2;
  }
  benchmark::RegisterBenchmark("infer", [&](benchmark::State &state) {
    size_t found = 0;
    for (auto _ : state) {
      detc::invariants::InferStats stats;
      auto invs = detc::invariants::infer(traces, stats);
      if (!invs) {
        state.SkipWithError(llvm::toString(invs.takeError()).c_str());
        return;
      }
      found = invs->size();
      benchmark::DoNotOptimize(found);
    }
    state.counters["invariants"] = double(found);
  })->Unit(benchmark::kMillisecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

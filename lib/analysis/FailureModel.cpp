//===- FailureModel.cpp - Wasted work of periodic and JIT checkpointing ---===//

#include "detc/analysis/FailureModel.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace llvm;

namespace detc::analysis {

double FailureModel::optimalFrequency() const {
  return std::sqrt(workers * failureRate / (2 * checkpointCost));
}

double FailureModel::periodicWaste(double c) const {
  return c * checkpointCost + workers * failureRate * restartCost +
         workers * failureRate / (2 * c);
}

double FailureModel::optimalPeriodicWaste() const {
  return 2 * std::sqrt(workers * failureRate * checkpointCost / 2) +
         workers * failureRate * restartCost;
}

double FailureModel::jitWaste() const {
  return failureRate * checkpointCost + jitOverhead +
         workers * failureRate * restartCost +
         workers * failureRate * minibatchSeconds / 2;
}

FailureModel FailureModel::withWorkers(double n) const {
  FailureModel m = *this;
  m.workers = n;
  return m;
}

double wastedFraction(double w) {
  return std::isinf(w) ? 1.0 : w / (1 + w);
}

/// Seconds per unit: `s`, `min`, `h`/`hr`, `day`.
static std::optional<double> unitSeconds(StringRef unit) {
  if (unit.empty() || unit == "s")
    return 1.0;
  if (unit == "min")
    return 60.0;
  if (unit == "h" || unit == "hr")
    return 3600.0;
  if (unit == "day" || unit == "d")
    return 86400.0;
  return std::nullopt;
}

Expected<FailureModel> parseFailureModel(StringRef text) {
  FailureModel m;
  auto bad = [&](const Twine &why) {
    return createStringError(inconvertibleErrorCode(),
                             "--failure-model: " + why);
  };
  SmallVector<StringRef, 8> items;
  text.split(items, ',', -1, /*KeepEmpty=*/false);
  bool seen[6] = {};
  for (StringRef item : items) {
    auto [key, value] = item.split('=');
    key = key.trim();
    value = value.trim();
    // A rate's unit follows a `/`; a time's follows the number.
    StringRef number = value, unit;
    bool rate = key == "f";
    if (rate) {
      std::tie(number, unit) = value.split('/');
    } else {
      size_t end = value.find_first_not_of("0123456789.eE+-");
      number = value.take_front(end);
      unit = end == StringRef::npos ? "" : value.drop_front(end);
    }
    double v;
    std::optional<double> scale = unitSeconds(unit.trim());
    if (number.getAsDouble(v) || !scale || v < 0 || !std::isfinite(v))
      return bad("bad value '" + value + "' for " + key +
                 (rate ? " (failures per worker per s, /h or /day)"
                       : " (seconds, or with s, min, h, day)"));
    static const char *const keys[] = {"N", "f", "o", "r", "m", "ojit"};
    int index = -1;
    for (int i = 0; i < 6; ++i)
      if (key == keys[i])
        index = i;
    if (index < 0)
      return bad("unknown key '" + key + "' (N, f, o, r, m, ojit)");
    seen[index] = true;
    switch (index) {
    case 0:
      m.workers = v;
      break;
    case 1:
      m.failureRate = v / *scale;
      break;
    case 2:
      m.checkpointCost = v * *scale;
      break;
    case 3:
      m.restartCost = v * *scale;
      break;
    case 4:
      m.minibatchSeconds = v * *scale;
      break;
    case 5:
      if (!unit.empty())
        return bad("ojit is a fraction of the run, without a unit");
      m.jitOverhead = v;
      break;
    }
  }
  for (int i = 0; i < 5; ++i)
    if (!seen[i])
      return bad("needs N, f, o, r and m (ojit is optional), as in "
                 "N=1024,f=2e-3/day,o=5,r=9.9,m=0.418");
  if (m.workers < 1 || m.checkpointCost <= 0 || m.failureRate <= 0)
    return bad("N must be at least 1, f and o positive");
  // Documented bounds (docs/jit.md): past them the model means nothing
  // and its arithmetic overflows into "INF" and "nan%".
  if (m.workers > kMaxWorkers || m.workers != std::floor(m.workers))
    return bad("N must be a whole number of workers up to 10^9");
  if (m.failureRate > 1.0 || m.failureRate < 1e-30)
    return bad("f must be between 1e-30 and 1 failure per worker per s");
  for (double t : {m.checkpointCost, m.restartCost, m.minibatchSeconds})
    if (t > kMaxSeconds || (t > 0 && t < 1e-9))
      return bad("o, r and m must be between 1 ns and 10^9 s (~32 years)");
  if (m.jitOverhead > 1.0)
    return bad("ojit is a fraction of the run, at most 1");
  return m;
}

void printFailureModel(raw_ostream &os, const FailureModel &model) {
  os << format("failure model: N = %g, f = %g failures per worker per s (%g "
                "per worker per day), o = %g s, r = %g s, m = %g s, o_jit = "
                "%g\n",
                model.workers, model.failureRate, model.failureRate * 86400,
                model.checkpointCost, model.restartCost,
                model.minibatchSeconds, model.jitOverhead);
  // Fixed-point where that reads well; %g where a fixed-point field
  // would print a value's float noise as digits (every 6.9e156 min).
  auto num = [](double v, int width, int places) {
    bool fixed = std::fabs(v) < 1e7;
    return fixed ? formatv("{0}", format("%*.*f", width, places, v)).str()
                 : formatv("{0}", format("%*.3g", width, v)).str();
  };
  auto row = [&](const FailureModel &m) {
    double c = m.optimalFrequency();
    double w = m.optimalPeriodicWaste(), j = m.jitWaste();
    os << formatv("  N = {0,-5:f0} periodic: c* = {1}/h (every {2} min), "
                  "w* = {3:e3}, wasted {4}%;  JIT: w = {5:e3}, wasted {6}%\n",
                  m.workers, num(c * 3600, 7, 2), num(1 / c / 60, 7, 1), w,
                  num(100 * wastedFraction(w), 7, 3), j,
                  num(100 * wastedFraction(j), 7, 3));
  };
  row(model);
  os << "as in the paper's Table 8:\n";
  for (double n : {4.0, 1024.0, 8192.0})
    row(model.withWorkers(n));
}

} // namespace detc::analysis

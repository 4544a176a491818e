//===- LoopSchedule.cpp - CheckHint schedules for rolled loops ------------===//

#include "detc/analysis/LoopSchedule.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

using namespace detc::analysis;
using Kind = ProgramItem::Kind;

namespace {

double secondsOf(const std::vector<ProgramItem> &items);

double secondsOf(const ProgramItem &item) {
  switch (item.kind) {
  case Kind::Task:
    return item.seconds;
  case Kind::Hint:
    return 0;
  case Kind::Loop:
    return double(item.iterations) * secondsOf(item.body);
  }
  return 0;
}

bool hasKind(const std::vector<ProgramItem> &items, Kind kind) {
  for (const ProgramItem &item : items)
    if (item.kind == kind ||
        (item.kind == Kind::Loop && item.iterations &&
         hasKind(item.body, kind)))
      return true;
  return false;
}
bool hasHint(const std::vector<ProgramItem> &items) {
  return hasKind(items, Kind::Hint);
}
bool hasTask(const std::vector<ProgramItem> &items) {
  return hasKind(items, Kind::Task);
}

double secondsOf(const std::vector<ProgramItem> &items) {
  double sum = 0;
  for (const ProgramItem &i : items)
    sum += secondsOf(i);
  return sum;
}

/// Where a hint sits: the loops around it and, per level (0: the top), the
/// time of that level's body before and after the item on the path.
struct HintPath {
  std::vector<uint64_t> iterations;  ///< N_1..N_d
  std::vector<double> before, after; ///< d + 1 entries
};

bool findHint(const std::vector<ProgramItem> &body, const std::string &name,
              HintPath &path) {
  for (size_t c = 0; c < body.size(); ++c) {
    const ProgramItem &item = body[c];
    bool found = false;
    if (item.kind == Kind::Hint && item.name == name) {
      found = true;
    } else if (item.kind == Kind::Loop) {
      path.iterations.push_back(item.iterations);
      if (findHint(item.body, name, path))
        found = true;
      else
        path.iterations.pop_back();
    }
    if (!found)
      continue;
    double before = 0, after = 0;
    for (size_t o = 0; o < body.size(); ++o)
      (o < c ? before : after) += o == c ? 0 : secondsOf(body[o]);
    // Levels are found innermost first; put this level in front.
    path.before.insert(path.before.begin(), before);
    path.after.insert(path.after.begin(), after);
    return true;
  }
  return false;
}

/// The checkpoint cost of hint `name` (its first occurrence).
double hintCost(const std::vector<ProgramItem> &body, const std::string &name,
                double fallback) {
  for (const ProgramItem &item : body) {
    if (item.kind == Kind::Hint && item.name == name)
      return std::isnan(item.checkpointSeconds) ? fallback
                                                : item.checkpointSeconds;
    if (item.kind == Kind::Loop) {
      double c = hintCost(item.body, name, NAN);
      if (!std::isnan(c))
        return c;
    }
  }
  return fallback;
}

void collectHints(const std::vector<ProgramItem> &body,
                  std::vector<std::string> &names) {
  for (const ProgramItem &item : body) {
    if (item.kind == Kind::Hint &&
        std::find(names.begin(), names.end(), item.name) == names.end())
      names.push_back(item.name);
    if (item.kind == Kind::Loop)
      collectHints(item.body, names);
  }
}

/// a · b, or nothing past 2^62.
std::optional<uint64_t> product(uint64_t a, uint64_t b) {
  if (a != 0 && b > (uint64_t(1) << 62) / a)
    return std::nullopt;
  return a * b;
}

/// The run as seen from one hint: arrivals, per-level wrap periods M_q and
/// extra times E_q.
struct Arrivals {
  uint64_t count = 1;          ///< A
  std::vector<uint64_t> wraps; ///< M_2..M_d
  std::vector<double> extra;   ///< E_2..E_d
  std::vector<double> extraFrom; ///< extraFrom[l] = E_{l+2} + ... + E_d
  double iteration = 0;        ///< T
  double first = 0, last = 0;  ///< P, F
  double total = 0;            ///< the run's length

  /// Length of the run between arrivals i0 < i1 (1-based).
  double between(uint64_t i0, uint64_t i1) const {
    double t = double(i1 - i0) * iteration;
    for (size_t q = 0; q < wraps.size(); ++q)
      t += double((i1 - 1) / wraps[q] - (i0 - 1) / wraps[q]) * extra[q];
    return t;
  }
};

/// The arrivals at `hint`; nothing when the run never reaches it, or (then
/// `*overflow` is set) when it reaches it more than 2^62 times.
std::optional<Arrivals> arrivalsOf(const LoopProgram &program,
                                   const std::string &hint,
                                   bool *overflow = nullptr) {
  HintPath path;
  if (!findHint(program.body, hint, path))
    return std::nullopt;
  Arrivals a;
  size_t d = path.iterations.size();
  if (std::find(path.iterations.begin(), path.iterations.end(), 0) !=
      path.iterations.end())
    return std::nullopt;
  for (uint64_t n : path.iterations) {
    std::optional<uint64_t> p = product(a.count, n);
    if (!p) {
      if (overflow)
        *overflow = true;
      return std::nullopt;
    }
    a.count = *p;
  }
  for (size_t q = 0; q <= d; ++q) {
    a.first += path.before[q];
    a.last += path.after[q];
  }
  a.iteration = d ? path.before[d] + path.after[d] : 0;
  a.total = program.totalSeconds();
  // Level q ≥ 2 (1-based): L_q wraps every M_q arrivals; the run then
  // spends L_{q−1}'s body outside L_q once more.
  // M_q = N_q · ... · N_d, from the innermost level out (≤ A: no overflow).
  a.wraps.resize(d > 1 ? d - 1 : 0);
  uint64_t m = 1;
  for (size_t q = d; q >= 2; --q) {
    m *= path.iterations[q - 1];
    a.wraps[q - 2] = m;
  }
  for (size_t q = 2; q <= d; ++q)
    a.extra.push_back(path.before[q - 1] + path.after[q - 1]);
  a.extraFrom.assign(a.extra.size() + 1, 0);
  for (size_t l = a.extra.size(); l-- > 0;)
    a.extraFrom[l] = a.extraFrom[l + 1] + a.extra[l];
  return a;
}

} // namespace

double LoopProgram::totalSeconds() const { return secondsOf(body); }

std::optional<std::string> LoopProgram::unschedulable() const {
  if (!std::isfinite(totalSeconds()))
    return std::string("the run's total time overflows (task seconds times "
                       "loop counts exceed 1.8e308 s)");
  std::vector<std::string> hints;
  collectHints(body, hints);
  for (const std::string &hint : hints) {
    bool overflow = false;
    arrivalsOf(*this, hint, &overflow);
    if (overflow)
      return "hint '" + hint +
             "' is reached more than 2^62 times (the counts of the loops "
             "around it multiply past that); detc cannot count its arrivals";
  }
  return std::nullopt;
}

uint64_t LoopProgram::affordable(double cost) const {
  if (!(cost > 0))
    return UINT64_MAX;
  double limit = (allowance * totalSeconds() + checkpointSeconds) * (1 - 1e-12);
  double k = std::ceil(limit / cost) - 1;
  return k > 0 ? (k >= 1.8e19 ? UINT64_MAX : uint64_t(k)) : 0;
}

uint64_t LoopProgram::maxCheckpoints() const {
  if (!(checkpointSeconds > 0))
    return UINT64_MAX;
  double l =
      std::ceil(allowance * totalSeconds() / checkpointSeconds * (1 - 1e-12));
  return l > 0 ? (l >= 1.8e19 ? UINT64_MAX : uint64_t(l)) : 0;
}

std::optional<ScheduleProblem>
LoopProgram::unroll(size_t limit,
                    std::vector<std::vector<std::string>> *hintNames) const {
  ScheduleProblem p;
  p.checkpointSeconds = checkpointSeconds;
  p.allowance = allowance;
  p.failureRate = failureRate;
  double pending = 0;
  bool atHint = false;
  std::vector<std::vector<std::string>> names;
  bool tooLarge = false;
  // Items visited: a loop of hints that merge into one position (or of
  // nothing) adds no task, so the hint count alone did not stop 10^12
  // iterations of it (hours; its names took 40 GB).
  uint64_t visits = 0;
  std::function<void(const std::vector<ProgramItem> &)> walk =
      [&](const std::vector<ProgramItem> &items) {
        for (const ProgramItem &item : items) {
          if (tooLarge || (tooLarge = ++visits > kMaxUnrollVisits))
            return;
          if (item.kind == Kind::Task) {
            pending += item.seconds;
            atHint = false;
          } else if (item.kind == Kind::Hint) {
            double cost = std::isnan(item.checkpointSeconds)
                              ? checkpointSeconds
                              : item.checkpointSeconds;
            if (atHint && pending == 0) { // the hint before's position
              if (std::find(names.back().begin(), names.back().end(),
                            item.name) == names.back().end())
                names.back().push_back(item.name);
              p.hintSeconds.back() = std::min(p.hintSeconds.back(), cost);
              continue;
            }
            p.taskSeconds.push_back(pending);
            p.hintSeconds.push_back(cost);
            names.push_back({item.name});
            pending = 0;
            atHint = true;
            tooLarge = p.taskSeconds.size() > limit;
          } else if (!hasHint(item.body)) {
            // Tasks only: the loop adds its time to the pending block,
            // whatever its iteration count.
            if (item.iterations && hasTask(item.body)) {
              pending += secondsOf(item);
              atHint = false;
            }
          } else {
            for (uint64_t i = 0; i < item.iterations && !tooLarge; ++i)
              walk(item.body);
          }
        }
      };
  walk(body);
  if (tooLarge)
    return std::nullopt;
  p.taskSeconds.push_back(pending);
  if (p.uniformHintCosts())
    p.hintSeconds.clear();
  if (hintNames)
    *hintNames = std::move(names);
  return p;
}

double detc::analysis::unrolledOptimum(const ScheduleProblem &flat) {
  if (flat.uniformHintCosts())
    return scheduleFast(flat).expectedRecovery;
  KnapsackResult k = scheduleKnapsackLabels(flat);
  return k.optimal ? k.schedule.expectedRecovery : NAN;
}

/// The periodic schedule at `hint` (arrivals `a`, checkpoint cost `cost`)
/// with `period`: O(nesting depth), except for the cycle sum below.
static std::optional<PeriodicSchedule>
evaluate(const LoopProgram &program, const std::string &hint,
         const Arrivals *a, double hintSeconds, uint64_t period) {
  if (period == 0)
    return std::nullopt;
  auto f = [&](double t) { return blockCost(t, program.failureRate); };
  PeriodicSchedule s;
  s.hint = hint;
  s.period = period;
  s.arrivals = a->count;
  uint64_t q = a->count / period;
  // A checkpoint at the last arrival, with (next to) nothing after it, is
  // not taken.
  bool atEnd =
      q * period == a->count && a->last <= 1e-6 * a->total;
  s.checkpoints = atEnd ? q - 1 : q;
  s.overheadSeconds = double(s.checkpoints) * hintSeconds;
  if (q == 0) {
    s.expectedRecovery = f(a->total);
    return s;
  }
  double cost = f(a->first + a->between(1, period)) +
                f(a->between(q * period, a->count) + a->last);
  if (q >= 2) {
    uint64_t blocks = q - 1; // between checkpoints 1..q
    double plain = double(period) * a->iteration;
    if (a->wraps.empty()) {
      cost += double(blocks) * f(plain);
    } else if (period <= a->wraps.back()) {
      // At most one wrap per block: count the blocks per outermost wrap
      // level among the gaps after arrivals period .. q·period − 1.
      auto multiples = [&](uint64_t m) {
        return (q * period - 1) / m - (period - 1) / m;
      };
      uint64_t withWrap = 0;
      double added = 0;
      for (size_t l = 0; l < a->wraps.size(); ++l) {
        uint64_t atLevel =
            multiples(a->wraps[l]) - (l ? multiples(a->wraps[l - 1]) : 0);
        double extra = a->extraFrom[l];
        withWrap += atLevel;
        added += double(atLevel) * f(plain + extra);
      }
      cost += double(blocks - withWrap) * f(plain) + added;
    } else {
      // Blocks repeat every M_2/gcd(k, M_2) checkpoints: sum one cycle.
      uint64_t m2 = a->wraps.front();
      uint64_t cycle = m2 / std::gcd(period, m2);
      // Each block costs O(depth) to measure: bound the whole sum (deep
      // nests once took minutes here).
      const uint64_t limit = 2000000 / a->wraps.size();
      uint64_t full = blocks / cycle, rest = blocks % cycle;
      if (std::min(blocks, cycle) > limit)
        return std::nullopt;
      double cycleCost = 0, restCost = 0;
      for (uint64_t j = 0; j < std::min(blocks, cycle); ++j) {
        uint64_t i0 = (j + 1) * period; // checkpoint j + 1
        double c = f(a->between(i0, i0 + period));
        (j < rest ? restCost : cycleCost) += c;
      }
      cost += full ? double(full) * (cycleCost + restCost) + restCost
                   : restCost + cycleCost;
    }
  }
  s.expectedRecovery = cost;
  return s;
}

std::optional<PeriodicSchedule>
detc::analysis::evaluatePeriodic(const LoopProgram &program,
                                 const std::string &hint, uint64_t period) {
  std::optional<Arrivals> a = arrivalsOf(program, hint);
  if (!a)
    return std::nullopt;
  return evaluate(program, hint, &*a,
                  hintCost(program.body, hint, program.checkpointSeconds),
                  period);
}

PeriodicSchedule detc::analysis::schedulePeriodic(const LoopProgram &program) {
  PeriodicSchedule best;
  best.expectedRecovery =
      blockCost(program.totalSeconds(), program.failureRate);
  std::vector<std::string> hints;
  collectHints(program.body, hints);
  for (const std::string &hint : hints) {
    std::optional<Arrivals> a = arrivalsOf(program, hint);
    double hintSeconds = hintCost(program.body, hint, program.checkpointSeconds);
    uint64_t budget = program.affordable(hintSeconds);
    if (!a || budget == 0)
      continue;
    // About A/(ℓ + 1) and up (checkpoints ≤ ℓ is checked below), and the
    // periods that align with each loop's wraps.
    uint64_t smallest = budget == UINT64_MAX
                            ? 1
                            : std::max<uint64_t>(1, a->count / (budget + 1));
    std::vector<uint64_t> periods;
    for (uint64_t k = smallest; k < smallest + 32 && k <= a->count; ++k)
      periods.push_back(k);
    for (uint64_t m : a->wraps) {
      periods.push_back((smallest + m - 1) / m * m); // a multiple of M_q
      for (uint64_t k = smallest; k <= m && k < smallest + 4096; ++k)
        if (m % k == 0) { // the smallest divisor of M_q that fits
          periods.push_back(k);
          break;
        }
    }
    std::sort(periods.begin(), periods.end());
    periods.erase(std::unique(periods.begin(), periods.end()), periods.end());
    for (uint64_t k : periods) {
      if (k == 0 || k > a->count)
        continue;
      std::optional<PeriodicSchedule> s =
          evaluate(program, hint, &*a, hintSeconds, k);
      if (s && s->checkpoints <= budget &&
          s->expectedRecovery < best.expectedRecovery)
        best = *s;
    }
  }
  return best;
}

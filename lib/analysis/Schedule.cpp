//===- Schedule.cpp - CheckHint: optimal checkpoint placement -------------===//
//
// The naive DP and the Lagrangian algorithm of Schedule.h. Both read block
// costs from the same prefix sums, so they agree on every w(i, j) bit for
// bit; their optima agree up to the order of floating-point additions.
//
//===----------------------------------------------------------------------===//

#include "ScheduleBlocks.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>

using namespace detc::analysis;

size_t ScheduleProblem::maxCheckpoints() const {
  size_t n = taskSeconds.size();
  if (n < 2)
    return 0;
  double total = std::accumulate(taskSeconds.begin(), taskSeconds.end(), 0.0);
  if (!(checkpointSeconds > 0))
    return n - 1;
  // ⌈x⌉, where x within rounding of an integer counts as that integer
  // (fits() draws the same line).
  double l = std::ceil(allowance * total / checkpointSeconds * (1 - 1e-12));
  if (!(l > 0))
    return 0;
  return l >= double(n - 1) ? n - 1 : size_t(l);
}

bool ScheduleProblem::uniformHintCosts() const {
  return std::all_of(hintSeconds.begin(), hintSeconds.end(),
                     [&](double c) { return c == checkpointSeconds; });
}

double ScheduleProblem::budgetLimit() const {
  double total = std::accumulate(taskSeconds.begin(), taskSeconds.end(), 0.0);
  return (allowance * total + checkpointSeconds) * (1 - 1e-12);
}

bool ScheduleProblem::fits(const std::vector<size_t> &hints) const {
  double sum = 0;
  for (size_t h : hints)
    sum += hintCost(h);
  return hints.empty() || sum < budgetLimit();
}

double detc::analysis::blockCost(double seconds, double failureRate) {
  if (seconds <= 0)
    return 0;
  if (failureRate >= 1)
    return std::numeric_limits<double>::infinity();
  // p(T)/(1 − p(T)) = (1 − p)^−T − 1 = e^{cT} − 1, with c = −ln(1 − p).
  double c = -std::log1p(-failureRate);
  return 0.5 * seconds * std::expm1(c * seconds);
}

namespace {

/// A partition by its block ends (ascending, the last one n) and cost.
struct Partition {
  std::vector<uint32_t> ends;
  double cost = 0;
  size_t blocks() const { return ends.size(); }
};

double costOf(const Blocks &b, const std::vector<uint32_t> &ends) {
  double sum = 0;
  uint32_t begin = 0;
  for (uint32_t e : ends) {
    sum += b.cost(begin, e);
    begin = e;
  }
  return sum;
}

/// min over all partitions of Σ cost + λ·blocks, ties to fewer blocks. The
/// argmin over block starts is monotone in the block end (Monge weights):
/// a deque of candidates, each best from its `from` on, and a binary search
/// for where a new candidate overtakes the last one.
class PenalizedSolver {
public:
  explicit PenalizedSolver(const Blocks &b)
      : b(b), value(b.size() + 1), count(b.size() + 1), parent(b.size() + 1) {}

  Partition solve(double lambda) {
    uint32_t n = b.size();
    struct Candidate {
      uint32_t start, from;
    };
    std::vector<Candidate> queue{{0, 1}};
    size_t head = 0;
    value[0] = 0;
    count[0] = 0;
    auto at = [&](uint32_t start, uint32_t end) {
      return value[start] + b.cost(start, end);
    };
    // Whether starting a block at `later` beats starting it at `earlier`
    // for a block ending at `end`; once true, true for every later end.
    auto beats = [&](uint32_t later, uint32_t earlier, uint32_t end) {
      double a = at(later, end), e = at(earlier, end);
      // A cost that overflowed grows beyond any later one: the shorter
      // block wins, as it would in exact arithmetic (keeps the predicate
      // monotone in `end`).
      if (std::isinf(e))
        return true;
      return a < e || (a == e && count[later] < count[earlier]);
    };
    for (uint32_t x = 1; x <= n; ++x) {
      while (head + 1 < queue.size() && queue[head + 1].from <= x)
        ++head;
      uint32_t start = queue[head].start;
      value[x] = at(start, x) + lambda;
      count[x] = count[start] + 1;
      parent[x] = start;
      if (x == n)
        break;
      // x as the start of blocks ending after it.
      bool placed = false;
      while (queue.size() > head) {
        const Candidate &last = queue.back();
        uint32_t from = std::max(last.from, x + 1);
        if (beats(x, last.start, from)) {
          queue.pop_back();
          continue;
        }
        // Gallop from `from`: the crossing is usually about a block length
        // away, and probes near it stay in cache (and in the cheap branch
        // of cost()).
        uint32_t lo = from + 1, hi = n + 1;
        for (uint32_t stride = 1; lo < hi; stride *= 2) {
          uint32_t probe = lo - 1 + stride;
          if (probe >= hi)
            break;
          if (beats(x, last.start, probe)) {
            hi = probe;
            break;
          }
          lo = probe + 1;
        }
        while (lo < hi) {
          uint32_t mid = lo + (hi - lo) / 2;
          if (beats(x, last.start, mid))
            hi = mid;
          else
            lo = mid + 1;
        }
        if (lo <= n)
          queue.push_back({x, lo});
        placed = true;
        break;
      }
      if (!placed) {
        queue.resize(head);
        queue.push_back({x, x + 1});
      }
    }
    Partition p;
    for (uint32_t x = n; x > 0; x = parent[x])
      p.ends.push_back(x);
    std::reverse(p.ends.begin(), p.ends.end());
    p.cost = costOf(b, p.ends);
    return p;
  }

private:
  const Blocks &b;
  std::vector<double> value;
  std::vector<uint32_t> count, parent;
};

/// Two partitions optimal for the same λ, with fewer and more than m
/// blocks: one with exactly m, optimal too. For a block (p_i, p_{i+1}] of
/// P that contains a block (q_t, q_{t+1}] of Q, the Monge inequality
///   w(p_i, q_{t+1}) + w(q_t, p_{i+1}) ≤ w(p_i, p_{i+1}) + w(q_t, q_{t+1})
/// makes both splices P[..i] + Q[t+1..] and Q[..t] + P[i+1..] optimal; their
/// block counts, over the nested pairs, cover every value in between.
std::vector<uint32_t> splice(const std::vector<uint32_t> &fewer,
                             const std::vector<uint32_t> &more, size_t m) {
  std::vector<uint32_t> p{0}, q{0};
  p.insert(p.end(), fewer.begin(), fewer.end());
  q.insert(q.end(), more.begin(), more.end());
  size_t ka = fewer.size(), kb = more.size();
  size_t s = 0; // first Q node at or after p_i
  for (size_t i = 0; i < ka; ++i) {
    while (s < q.size() && q[s] < p[i])
      ++s;
    for (size_t t = s; t + 1 < q.size() && q[t + 1] <= p[i + 1]; ++t) {
      std::vector<uint32_t> out;
      if (i + kb - t == m) { // P's first i blocks, then Q from q_{t+1}
        out.assign(p.begin() + 1, p.begin() + i + 1);
        out.insert(out.end(), q.begin() + t + 1, q.end());
        return out;
      }
      if (t + ka - i == m) { // Q's first t blocks, then P from p_{i+1}
        out.assign(q.begin() + 1, q.begin() + t + 1);
        out.insert(out.end(), p.begin() + i + 1, p.end());
        return out;
      }
    }
  }
  return {};
}

} // namespace

ScheduleResult
detc::analysis::scheduleFromEnds(const Blocks &b, const ScheduleProblem &p,
                                 const std::vector<uint32_t> &ends,
                                 unsigned lagrangeSteps) {
  ScheduleResult r;
  for (size_t k = 0; k + 1 < ends.size(); ++k) {
    r.checkpointAfter.push_back(ends[k] - 1);
    r.overheadSeconds += p.hintCost(ends[k] - 1);
  }
  r.expectedRecovery = costOf(b, ends);
  r.lagrangeSteps = lagrangeSteps;
  return r;
}

ScheduleResult
detc::analysis::scheduleFromHints(const Blocks &b, const ScheduleProblem &p,
                                  const std::vector<size_t> &hints) {
  std::vector<uint32_t> ends;
  for (size_t h : hints)
    ends.push_back(uint32_t(h + 1));
  ends.push_back(b.size());
  return scheduleFromEnds(b, p, ends);
}

ScheduleResult detc::analysis::scheduleNaive(const ScheduleProblem &problem,
                                             size_t blocks) {
  Blocks b(problem);
  uint32_t n = b.size();
  if (n == 0)
    return {};
  uint32_t m = uint32_t(std::clamp<size_t>(blocks, 1, n));
  const double inf = std::numeric_limits<double>::infinity();
  // opt[j]: best with β blocks over tasks [0, j); from[β][j]: its last
  // block's start.
  std::vector<double> opt(n + 1, inf), next(n + 1);
  std::vector<std::vector<uint32_t>> from(m + 1,
                                          std::vector<uint32_t>(n + 1, 0));
  for (uint32_t j = 1; j <= n; ++j)
    opt[j] = b.cost(0, j);
  for (uint32_t beta = 2; beta <= m; ++beta) {
    std::fill(next.begin(), next.end(), inf);
    for (uint32_t j = beta; j <= n; ++j)
      for (uint32_t k = beta - 1; k < j; ++k) {
        double v = opt[k] + b.cost(k, j);
        if (v < next[j]) {
          next[j] = v;
          from[beta][j] = k;
        }
      }
    opt.swap(next);
  }
  std::vector<uint32_t> ends(m);
  uint32_t j = n;
  for (uint32_t beta = m; beta >= 1; --beta) {
    ends[beta - 1] = j;
    j = from[beta][j];
  }
  return scheduleFromEnds(b, problem, ends, 0);
}

ScheduleResult detc::analysis::scheduleFast(const ScheduleProblem &problem,
                                            size_t blocks) {
  Blocks b(problem);
  uint32_t n = b.size();
  if (n == 0)
    return {};
  size_t m = std::clamp<size_t>(blocks, 1, n);
  std::vector<uint32_t> all(n);
  std::iota(all.begin(), all.end(), 1u);
  if (m == 1 || m == n)
    return scheduleFromEnds(b, problem, m == 1 ? std::vector<uint32_t>{n} : all,
                            0);

  PenalizedSolver solver(b);
  unsigned steps = 0;
  auto solve = [&](double lambda) {
    ++steps;
    return solver.solve(lambda);
  };
  // Bracket m between a partition with fewer and one with more blocks,
  // starting near it: with m equal blocks of length L, one more block is
  // worth about −g'(m) = L·cost'(L) − cost(L) = ½·c·L²·e^{cL}. (Starting
  // from one block and n blocks instead would put λ·k orders of magnitude
  // above the costs, and the penalized DP would round them away.)
  double c = -std::log1p(-std::min(problem.failureRate, 1.0));
  auto worth = [&](double k) { // −g'(k) for k equal blocks
    double length = b.total() / k;
    return 0.5 * c * length * length * std::exp(c * length);
  };
  double lambda = worth(double(m));
  if (!std::isfinite(lambda) || !(lambda > 0))
    lambda = 1;
  Partition fewer{{n}, b.cost(0, n)};
  Partition more{all, costOf(b, all)};
  Partition p = solve(lambda);
  if (p.blocks() == m)
    return scheduleFromEnds(b, problem, p.ends, steps);
  bool below = p.blocks() < m;
  (below ? fewer : more) = p;
  // Move λ until the count crosses m, by the factor the equal-blocks model
  // says separates the count found from m, squared whenever the count did
  // not move (λ = 0 gives n blocks, λ = ∞ one).
  double factor = worth(double(m)) / worth(double(p.blocks()));
  if (!std::isfinite(factor) || (below ? factor >= 1 : factor <= 1))
    factor = below ? 0.25 : 4;
  size_t lastCount = p.blocks();
  for (;;) {
    lambda *= factor;
    if (lambda < 1e-300 || lambda > 1e300)
      break; // the fixed end (n blocks or one) is the other side
    Partition q = solve(lambda);
    if (q.blocks() == m)
      return scheduleFromEnds(b, problem, q.ends, steps);
    if ((q.blocks() < m) != below) {
      (below ? more : fewer) = std::move(q);
      break;
    }
    if (q.blocks() == lastCount)
      factor *= factor;
    lastCount = q.blocks();
    (below ? fewer : more) = std::move(q);
  }
  // Walk the lower hull of g between the two ends.
  for (;;) {
    double ka = double(fewer.blocks()), kb = double(more.blocks());
    lambda = (fewer.cost - more.cost) / (kb - ka);
    Partition q = solve(lambda);
    bool inside = q.blocks() > fewer.blocks() && q.blocks() < more.blocks();
    if (!inside)
      break; // the chord supports g: both ends are optimal for λ
    // Is q below the chord? Compared in cost space at q's block count (the
    // penalized values carry λ·k, orders of magnitude above the costs when
    // one end is a single huge block), weights from exact integers.
    double k = double(q.blocks());
    double chord = (fewer.cost * (kb - k) + more.cost * (k - ka)) / (kb - ka);
    if (!(q.cost < chord * (1 - 1e-12)))
      break;
    if (q.blocks() == m)
      return scheduleFromEnds(b, problem, q.ends, steps);
    (q.blocks() < m ? fewer : more) = std::move(q);
  }
  std::vector<uint32_t> ends = splice(fewer.ends, more.ends, m);
  assert(ends.size() == m && "the splice of two optimal ends must exist");
  return scheduleFromEnds(b, problem, ends, steps);
}

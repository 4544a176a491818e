//===- ScheduleKnapsack.cpp - Per-hint checkpoint costs, exactly (Z3) -----===//
//
// With a cost per hint the allowance bounds a weighted sum, not a count:
// the schedule is a shortest path from position 0 to n through the chosen
// hints (an edge per block, weighted by its expected recovery) under a
// knapsack row. Z3's Optimize solves that 0-1 program exactly: a boolean
// per block (i, j], flow conservation at every hint, the knapsack row (the
// total below o·Σt + t_c, see ScheduleProblem::fits), and the sum of the
// chosen blocks' costs minimized. The block costs and hint costs
// enter as the exact rationals of their doubles.
//
//===----------------------------------------------------------------------===//

#include "ScheduleBlocks.h"

#include <z3++.h>

#include <cmath>
#include <numeric>
#include <string>

using namespace detc::analysis;

namespace {

/// The decimal digits of 2^k.
std::string powerOfTwo(int k) {
  std::string digits = "1"; // little-endian
  for (int i = 0; i < k; ++i) {
    int carry = 0;
    for (char &d : digits) {
      int v = (d - '0') * 2 + carry;
      d = char('0' + v % 10);
      carry = v / 10;
    }
    if (carry)
      digits.push_back(char('0' + carry));
  }
  return std::string(digits.rbegin(), digits.rend());
}

/// A finite double ≥ 0 as the exact rational Z3 reads ("p/q").
z3::expr exactReal(z3::context &ctx, double x) {
  if (x == 0)
    return ctx.real_val(0);
  int exponent;
  double fraction = std::frexp(x, &exponent); // x = fraction · 2^exponent
  auto mantissa = static_cast<long long>(std::ldexp(fraction, 53));
  int shift = exponent - 53; // x = mantissa · 2^shift
  std::string text = std::to_string(mantissa);
  if (shift >= 0)
    return ctx.real_val(text.c_str()) * ctx.real_val(powerOfTwo(shift).c_str());
  return ctx.real_val((text + "/" + powerOfTwo(-shift)).c_str());
}

} // namespace

KnapsackResult detc::analysis::scheduleKnapsack(const ScheduleProblem &problem,
                                                unsigned timeoutMs) {
  KnapsackResult out;
  size_t n = problem.taskSeconds.size();
  if (n == 0) {
    out.optimal = true;
    return out;
  }
  if (n > kMaxKnapsackZ3Tasks) {
    out.why = "Z3's 0-1 program has a variable per pair of positions; it "
              "takes at most " +
              std::to_string(kMaxKnapsackZ3Tasks) + " tasks, this problem has " +
              std::to_string(n) + " (--algorithm=labels is exact too)";
    return out;
  }
  Blocks blocks(problem);
  try {
    z3::context ctx;
    z3::optimize opt(ctx);
    z3::params params(ctx);
    params.set("timeout", timeoutMs);
    opt.set(params);
    // block[i][j]: a block from position i to position j (0 ≤ i < j ≤ n).
    std::vector<std::vector<z3::expr>> block(n + 1);
    z3::expr_vector costs(ctx);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = i + 1; j <= n; ++j) {
        double w = blocks.cost(uint32_t(i), uint32_t(j));
        if (!std::isfinite(w)) {
          out.why = "a block cost overflows";
          return out;
        }
        z3::expr b = ctx.bool_const(
            ("b" + std::to_string(i) + "_" + std::to_string(j)).c_str());
        block[i].push_back(b);
        costs.push_back(z3::ite(b, exactReal(ctx, w), ctx.real_val(0)));
      }
    auto edge = [&](size_t i, size_t j) { return block[i][j - i - 1]; };
    auto one = [&](const z3::expr_vector &v) {
      std::vector<int> coefficients(v.size(), 1);
      return z3::pbeq(v, coefficients.data(), 1);
    };
    // One block starts at 0, one ends at n; through every hint position
    // as many blocks end as start (0 or 1): chosen[v].
    z3::expr_vector fromStart(ctx), toEnd(ctx);
    for (size_t j = 1; j <= n; ++j)
      fromStart.push_back(edge(0, j));
    for (size_t i = 0; i < n; ++i)
      toEnd.push_back(edge(i, n));
    opt.add(one(fromStart));
    opt.add(one(toEnd));
    z3::expr_vector chosen(ctx), hintCosts(ctx);
    for (size_t v = 1; v < n; ++v) {
      z3::expr_vector in(ctx), outgoing(ctx);
      for (size_t i = 0; i < v; ++i)
        in.push_back(edge(i, v));
      for (size_t j = v + 1; j <= n; ++j)
        outgoing.push_back(edge(v, j));
      z3::expr c = z3::mk_or(in);
      opt.add(z3::atmost(in, 1));
      opt.add(z3::atmost(outgoing, 1));
      opt.add(c == z3::mk_or(outgoing));
      chosen.push_back(c);
      hintCosts.push_back(
          z3::ite(c, exactReal(ctx, problem.hintCost(v - 1)), ctx.real_val(0)));
    }
    if (n > 1)
      opt.add(z3::implies(z3::mk_or(chosen),
                          z3::sum(hintCosts) <
                              exactReal(ctx, problem.budgetLimit())));
    z3::optimize::handle h = opt.minimize(z3::sum(costs));
    (void)h;
    z3::check_result r = opt.check();
    if (r != z3::sat) {
      out.why = r == z3::unknown ? std::string("Z3 gave up (timeout?)")
                                 : "no schedule fits";
      return out;
    }
    z3::model model = opt.get_model();
    std::vector<size_t> hints;
    for (size_t v = 1; v < n; ++v)
      if (model.eval(chosen[v - 1], true).is_true())
        hints.push_back(v - 1);
    out.schedule = scheduleFromHints(blocks, problem, hints);
    out.optimal = true;
  } catch (const z3::exception &e) {
    out.why = std::string("Z3: ") + e.msg();
  }
  return out;
}

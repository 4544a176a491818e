//===- Verify.cpp - Z3 check of the dataflow solutions ---------------------===//
//
// Each system is a set of Boolean constants (one per lattice bit the
// worklist computed) and constraints transcribed from the tables, kept
// deliberately close to their wording rather than to the transfer functions
// of ThreadSafety.cpp / Replay.cpp: the point is an independent statement of
// the rules. This file is compiled with exceptions (z3++ reports errors by
// throwing); no exception leaves it.
//
//===----------------------------------------------------------------------===//

#include "detc/analysis/Verify.h"

#include "llvm/ADT/DenseMap.h"

#include <z3++.h>

#include <functional>

using namespace detc::analysis;
using llvm::ArrayRef;

namespace {
/// Constants, constraints and the worklist's values for one system.
class BoolSystem {
public:
  z3::context ctx;

  /// A constant whose computed value is `value`. `compared` constants are
  /// pinned to their value in check 1 and take part in check 2.
  unsigned add(bool value, bool compared = true) {
    unsigned i = consts.size();
    consts.push_back(ctx.bool_const(("b" + std::to_string(i)).c_str()));
    computed.push_back(value);
    this->compared.push_back(compared);
    return i;
  }
  z3::expr operator[](unsigned i) const { return consts[i]; }

  /// Asserts `c`; `describe` names the rule and statement on failure.
  void require(z3::expr c, std::function<std::string()> describe) {
    constraints.push_back(std::move(c));
    descriptions.push_back(std::move(describe));
  }

  z3::expr conjunction(ArrayRef<unsigned> of) {
    z3::expr_vector v(ctx);
    for (unsigned i : of)
      v.push_back(consts[i]);
    return v.empty() ? ctx.bool_val(true) : z3::mk_and(v);
  }
  z3::expr disjunction(ArrayRef<unsigned> of) {
    z3::expr_vector v(ctx);
    for (unsigned i : of)
      v.push_back(consts[i]);
    return v.empty() ? ctx.bool_val(false) : z3::mk_or(v);
  }

  /// Check 1: the computed values satisfy every constraint.
  bool satisfied(std::string &failure) {
    // The systems are propositional: Z3's finite-domain (SAT) solver
    // decides them a third faster than the default solver's SMT core
    // (VerifyProperty's 150 programs: 37 s -> 25 s).
    z3::solver s(ctx, "QF_FD");
    for (const z3::expr &c : constraints)
      s.add(c);
    // Pinned as assertions, not assumptions: Z3 then simplifies the whole
    // system by propagation (assumptions disable that, 50x slower).
    for (unsigned i = 0; i < consts.size(); ++i)
      if (compared[i])
        s.add(computed[i] ? consts[i] : !consts[i]);
    if (s.check() == z3::sat)
      return true;
    // Name the first constraint the computed values violate.
    z3::model m(ctx);
    for (unsigned i = 0; i < consts.size(); ++i) {
      if (!compared[i])
        continue;
      z3::func_decl d = consts[i].decl();
      z3::expr v = ctx.bool_val(computed[i]);
      m.add_const_interp(d, v);
    }
    for (unsigned i = 0; i < constraints.size(); ++i)
      if (m.eval(constraints[i], true).is_false()) {
        failure = "violates " + descriptions[i]();
        return false;
      }
    failure = "the constraints have no solution with the computed values";
    return false;
  }

  /// Check 2: no solution is above (`greatest`) or below (least) the
  /// computed values on the compared constants of `which`; the others of
  /// `pin` keep their computed values.
  bool extremal(bool greatest, ArrayRef<unsigned> which,
                ArrayRef<unsigned> pin, std::string &failure) {
    z3::solver s(ctx, "QF_FD");
    for (const z3::expr &c : constraints)
      s.add(c);
    for (unsigned i : pin)
      if (compared[i])
        s.add(computed[i] ? consts[i] : !consts[i]);
    z3::expr_vector beyond(ctx);
    for (unsigned i : which) {
      if (!compared[i])
        continue;
      // Greatest: true stays true, some false may become true. Least: the
      // mirror image.
      if (computed[i] == greatest)
        s.add(greatest ? consts[i] : !consts[i]);
      else
        beyond.push_back(greatest ? consts[i] : !consts[i]);
    }
    if (beyond.empty())
      return true;
    s.add(z3::mk_or(beyond));
    z3::check_result r = s.check();
    if (r == z3::unsat)
      return true;
    failure = r == z3::sat ? std::string(greatest ? "a greater" : "a smaller") +
                                 " solution exists"
                           : "Z3 could not decide extremality";
    return false;
  }

  /// Records the system's size in `out` and runs check 1.
  bool checkSatisfied(VerifyOutcome &out) {
    out.booleans = consts.size();
    out.constraints = constraints.size();
    out.satisfies = satisfied(out.failure);
    return out.satisfies;
  }

private:
  std::vector<z3::expr> consts;
  std::vector<bool> computed, compared;
  std::vector<z3::expr> constraints;
  std::vector<std::function<std::string()>> descriptions;
};
} // namespace

static std::string describeNode(const StatementGraph &g, NodeId n) {
  const Node &node = g.node(n);
  std::string s = "node " + std::to_string(n) + " (" +
                  stringifyNodeKind(node.kind).str();
  SourcePoint p = sourcePoint(node.op);
  if (p.valid())
    s += " at " + p.file + ":" + std::to_string(p.line) + ":" +
         std::to_string(p.column);
  return s + ")";
}

template <typename Body>
static VerifyOutcome guarded(std::string system, Body body) {
  VerifyOutcome out;
  out.system = std::move(system);
  try {
    body(out);
  } catch (const z3::exception &e) {
    out.satisfies = out.extremal = false;
    out.failure = std::string("Z3 error: ") + e.msg();
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Table 1: ThreadSafe / ERR
//===----------------------------------------------------------------------===//

VerifyOutcome
detc::analysis::verifyThreadSafety(const StatementGraph &g,
                                   const GeneratorAliases &gens,
                                   const ThreadSafetyResult &ts) {
  return guarded("ThreadSafe/ERR", [&](VerifyOutcome &out) {
    BoolSystem sys;
    size_t numObjects = gens.objects().size();
    size_t numNodes = g.numNodes();
    // TS[g@b n] and TS[g@a n]. Table 1 gives data_parallel_end no `@b`
    // rule of its own; the worklist stores there the state it reads (the
    // one before the begin), so that value is not compared.
    std::vector<unsigned> before(numNodes * numObjects),
        after(numNodes * numObjects), tsConsts;
    auto at = [&](NodeId n, unsigned o) { return n * numObjects + o; };
    for (NodeId n = 0; n < numNodes; ++n)
      for (unsigned o = 0; o < numObjects; ++o) {
        bool isEnd = g.node(n).kind == NodeKind::ParEnd;
        before[at(n, o)] = sys.add(ts.ts.in[n].test(o), !isEnd);
        after[at(n, o)] = sys.add(ts.ts.out[n].test(o));
        tsConsts.push_back(before[at(n, o)]);
        tsConsts.push_back(after[at(n, o)]);
      }
    std::vector<unsigned> err(numObjects);
    for (unsigned o = 0; o < numObjects; ++o)
      err[o] = sys.add(ts.err.test(o));

    auto rule = [&](const char *name, NodeId n, unsigned o) {
      return [&g, name, n, o, &gens] {
        return std::string(name) + " for generator " +
               gens.objects()[o].describe(g) + " at " + describeNode(g, n);
      };
    };
    for (NodeId n = 0; n < numNodes; ++n) {
      const Node &node = g.node(n);
      llvm::ArrayRef<NodeId> preds = g.predecessors(n);
      llvm::SmallVector<unsigned, 4> created, drawn;
      if (node.kind == NodeKind::Create)
        for (unsigned o : gens.created(n))
          created.push_back(o);
      if (node.kind == NodeKind::Draw)
        for (unsigned o : gens.drawn(n))
          drawn.push_back(o);
      for (unsigned o = 0; o < numObjects; ++o) {
        // TS[g@b L] = ∧_{i ∈ pred(L)} TS[g@a i] (every rule).
        llvm::SmallVector<unsigned, 2> predAfter;
        for (NodeId p : preds)
          predAfter.push_back(after[at(p, o)]);
        sys.require(sys[before[at(n, o)]] == sys.conjunction(predAfter),
                    rule("TS[g@b L] = AND pred", n, o));
        z3::expr a = sys[after[at(n, o)]];
        z3::expr b = sys[before[at(n, o)]];
        switch (node.kind) {
        case NodeKind::ParBegin:
          sys.require(!a, rule("PARALLEL_REGION: TS[g@a begin] = False", n, o));
          break;
        case NodeKind::ParEnd:
          sys.require(a == sys[before[at(node.pair, o)]],
                      rule("PARALLEL_REGION: TS[g@a end] = TS[g@b begin]", n,
                           o));
          break;
        case NodeKind::Create:
          if (llvm::is_contained(created, o))
            sys.require(a, rule("RANDOM_CREATE: TS[G@a L] = True", n, o));
          else
            sys.require(a == b, rule("RANDOM_CREATE: TS[g@a L] = TS[g@b L]",
                                     n, o));
          break;
        case NodeKind::Draw:
          if (llvm::is_contained(drawn, o))
            sys.require(z3::implies(!b, sys[err[o]]),
                        rule("RANDOM_USE: TS[G@b L] = False -> ERR[G]", n, o));
          sys.require(a == b, rule("RANDOM_USE: TS[g@a L] = TS[g@b L]", n, o));
          break;
        default:
          sys.require(a == b, rule("DEFAULT: TS[g@a L] = TS[g@b L]", n, o));
        }
      }
    }
    if (!sys.checkSatisfied(out))
      return;
    // TS: greatest; ERR: least, with TS as computed.
    out.extremal = sys.extremal(/*greatest=*/true, tsConsts, {}, out.failure);
    if (out.extremal)
      out.extremal = sys.extremal(/*greatest=*/false, err, tsConsts,
                                  out.failure);
    if (!out.extremal)
      out.failure = (out.failure.empty() ? "" : out.failure + " ") +
                    "(ThreadSafe must be greatest, ERR least)";
  });
}

//===----------------------------------------------------------------------===//
// Table 3: Needed
//===----------------------------------------------------------------------===//

VerifyOutcome detc::analysis::verifyNeeded(const StatementGraph &g,
                                           const GeneratorAliases &gens,
                                           const ReplayVars &ids,
                                           const CheckpointReplay &cp) {
  SourcePoint where = sourcePoint(cp.op);
  std::string system = "Needed at " + where.file + ":" +
                       std::to_string(where.line) + ":" +
                       std::to_string(where.column);
  return guarded(system, [&](VerifyOutcome &out) {
    BoolSystem sys;
    std::vector<NodeId> prefix;
    for (int n = cp.prefix.find_first(); n != -1;
         n = cp.prefix.find_next(n))
      prefix.push_back(n);
    std::vector<NodeEffects> effects(g.numNodes());
    // The ids any statement of the prefix mentions, and the seeds: every
    // other id passes through every statement untouched, so it is false
    // everywhere in the least solution (checked directly below).
    llvm::DenseMap<unsigned, unsigned> column;
    std::vector<unsigned> columns;
    auto mention = [&](unsigned v) {
      if (column.try_emplace(v, columns.size()).second)
        columns.push_back(v);
    };
    for (NodeId n : prefix) {
      effects[n] = replayEffects(g, gens, ids, n);
      for (auto *list : {&effects[n].kills, &effects[n].lhs,
                         &effects[n].reads})
        for (unsigned v : *list)
          mention(v);
    }
    for (unsigned v : cp.seeds)
      mention(v);
    for (NodeId n : prefix)
      for (const VarSet *s : {&cp.needed.in[n], &cp.needed.out[n]})
        for (unsigned v : *s)
          if (!column.count(v)) {
            out.failure = "Needed[" + std::to_string(v) + "] is set at " +
                          describeNode(g, n) +
                          " although no statement mentions it";
            return;
          }

    size_t width = columns.size();
    llvm::DenseMap<NodeId, unsigned> row;
    for (NodeId n : prefix)
      row[n] = row.size();
    // Needed[v@b n], Needed[v@a n]; fast-forward's control dependence adds
    // forced[n]: n re-runs because something it decides re-runs.
    std::vector<unsigned> before(prefix.size() * width),
        after(prefix.size() * width), forced(prefix.size()), neededConsts;
    llvm::BitVector isInstance(g.numNodes());
    for (NodeId n : cp.instances)
      isInstance.set(n);
    for (NodeId n : prefix) {
      unsigned r = row[n];
      for (unsigned c = 0; c < width; ++c) {
        before[r * width + c] = sys.add(cp.needed.out[n].test(columns[c]));
        after[r * width + c] = sys.add(cp.needed.in[n].test(columns[c]));
        neededConsts.push_back(before[r * width + c]);
        neededConsts.push_back(after[r * width + c]);
      }
      // Not a computed lattice value: implied by the constraints.
      forced[r] = sys.add(false, /*compared=*/false);
    }

    auto rule = [&](const char *name, NodeId n, unsigned c) {
      return [&g, name, n, c, &columns, &ids, &gens] {
        unsigned v = columns[c];
        std::string var = ids.isGenerator(v)
                              ? describeReplayId(v, g, gens, ids)
                              : g.vars.name(v).str();
        return std::string(name) + " for " + var + " at " + describeNode(g, n);
      };
    };
    // Who each control node decides: forced[c] = ∨ over the statements it
    // directly controls of (selected or the checkpoint itself).
    llvm::DenseMap<NodeId, llvm::SmallVector<NodeId, 4>> controlled;
    for (NodeId n = 0; n < g.numNodes(); ++n)
      if (NodeId c = g.node(n).control; c != kNoNode && row.count(c) &&
                                        (row.count(n) || isJump(g, n)))
        controlled[c].push_back(n);

    // A logged test (CheckpointReplay::logged) is reached when what it
    // decides re-runs, but fast-forward takes its decision from the log:
    // it is not evaluated, so forced does not select it.
    llvm::DenseSet<NodeId> logged(cp.logged.begin(), cp.logged.end());
    std::vector<z3::expr> selected;
    selected.reserve(prefix.size());
    for (NodeId n : prefix) {
      unsigned r = row[n];
      // A statement re-runs when a variable it writes is needed after it,
      // or when it decides whether something that re-runs runs.
      z3::expr_vector why(sys.ctx);
      for (unsigned v : effects[n].lhs)
        why.push_back(sys[after[r * width + column[v]]]);
      if (!logged.count(n))
        why.push_back(sys[forced[r]]);
      selected.push_back(why.empty() ? sys.ctx.bool_val(false)
                                     : z3::mk_or(why));
    }
    // Loops fast-forward runs whatever is selected: around the checkpoint,
    // and loader loops for a `break` (how far they go is checked at L).
    llvm::BitVector runLoops(g.numNodes()), batchLoops(g.numNodes());
    for (NodeId n : cp.instances)
      for (NodeId loop : g.loops(n))
        runLoops.set(loop);
    for (NodeId n : prefix)
      if (g.node(n).op && llvm::isa<ir::FetchOp>(g.node(n).op) &&
          !g.loops(n).empty())
        batchLoops.set(g.loops(n).back());
    auto jumpDecided = [&](NodeId jump) {
      if (g.loops(jump).empty())
        return sys.ctx.bool_val(false);
      NodeId loop = g.loops(jump).back();
      bool runs = runLoops.test(loop) ||
                  (batchLoops.test(loop) &&
                   llvm::isa<ir::BreakOp>(g.node(jump).op));
      return runs ? sys.ctx.bool_val(true) : selected[row[loop]];
    };
    for (NodeId n : prefix) {
      unsigned r = row[n];
      const NodeEffects &e = effects[n];
      // FLOW: Needed[v@a L] = ∨_{s ∈ succ(L)} Needed[v@b s], on the prefix.
      llvm::SmallVector<NodeId, 2> succs;
      for (NodeId s : g.successors(n))
        if (cp.prefix.test(s))
          succs.push_back(s);
      for (unsigned c = 0; c < width; ++c) {
        llvm::SmallVector<unsigned, 2> succBefore;
        for (NodeId s : succs)
          succBefore.push_back(before[row[s] * width + c]);
        sys.require(sys[after[r * width + c]] == sys.disjunction(succBefore),
                    rule("FLOW", n, c));
      }
      // The control dependence.
      z3::expr_vector decided(sys.ctx);
      if (auto it = controlled.find(n); it != controlled.end())
        for (NodeId m : it->second)
          // The checkpoint is always decided; a jump (a `break` decides
          // what runs after it) when its loop runs in fast-forward: a
          // loop around the checkpoint, or one whose head re-runs.
          decided.push_back(isInstance.test(m) ? sys.ctx.bool_val(true)
                            : isJump(g, m)     ? jumpDecided(m)
                            : logged.count(m)
                                ? selected[row[m]] || sys[forced[row[m]]]
                                : selected[row[m]]);
      sys.require(sys[forced[r]] == (decided.empty() ? sys.ctx.bool_val(false)
                                                     : z3::mk_or(decided)),
                  rule("CONTROL: forced = OR over controlled statements", n,
                       0));
      for (unsigned c = 0; c < width; ++c) {
        unsigned v = columns[c];
        z3::expr b = sys[before[r * width + c]];
        z3::expr a = sys[after[r * width + c]];
        if (isInstance.test(n)) {
          // CHECKPOINTING (detc's rule, docs/analysis.md): what is needed
          // at L is what flows through it plus the seeds.
          z3::expr rhs = cp.seeds.test(v) ? sys.ctx.bool_val(true) : a;
          sys.require(b == rhs, rule("CHECKPOINTING", n, c));
          continue;
        }
        // STATEMENTS / B(M, V): a variable the statement defines without
        // reading is not needed before it; a read is needed before it when
        // the statement is selected; anything else passes through.
        bool kills = llvm::is_contained(e.kills, v);
        bool reads = llvm::is_contained(e.reads, v);
        z3::expr through = kills ? sys.ctx.bool_val(false) : a;
        z3::expr rhs = reads ? (through || selected[r]) : through;
        sys.require(b == rhs, rule("STATEMENTS", n, c));
      }
    }
    if (!sys.checkSatisfied(out))
      return;
    out.extremal =
        sys.extremal(/*greatest=*/false, neededConsts, {}, out.failure);
    if (!out.extremal)
      out.failure += " (Needed must be least)";
  });
}

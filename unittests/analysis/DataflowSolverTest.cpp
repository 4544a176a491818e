//===- DataflowSolverTest.cpp - Chain-compressed solver vs per-node ----===//
//
// The solver keeps one state per chain and recomputes the rest; these tests
// compare every node's states with a plain per-node round-robin iteration
// on random graphs (straight lines, branches, loops, self-loops, cycles no
// edge enters, nodes outside the visiting order), for a may problem (union,
// from bottom) and a must problem (intersection, from top).
//
//===----------------------------------------------------------------------===//

#include "detc/analysis/DataflowSolver.h"

#include "gtest/gtest.h"

#include <bitset>
#include <random>

using namespace detc::analysis;

namespace {
using State = std::bitset<32>;

struct RandomProblem {
  size_t n = 0;
  std::vector<std::vector<NodeId>> inputs;
  std::vector<NodeId> order;
  std::vector<State> gen, kill;
  NodeId seedNode = 0;
  State seed;

  DataGraph graph() const {
    return DataGraph::build(
        n,
        [&](NodeId v, llvm::function_ref<void(NodeId)> add) {
          for (NodeId p : inputs[v])
            add(p);
        },
        order);
  }
};

RandomProblem randomProblem(std::mt19937 &rng) {
  RandomProblem p;
  p.n = 1 + rng() % 60;
  p.inputs.resize(p.n);
  // Mostly straight lines (each node fed by the one before), with jumps
  // back and forth, joins and self-loops.
  for (NodeId v = 1; v < p.n; ++v)
    if (rng() % 8 != 0)
      p.inputs[v].push_back(v - 1);
  for (unsigned e = rng() % (p.n / 3 + 2); e > 0; --e) {
    NodeId a = rng() % p.n, b = rng() % p.n;
    p.inputs[a].push_back(b);
  }
  for (NodeId v = 0; v < p.n; ++v)
    if (rng() % 5 != 0) // some nodes take no part
      p.order.push_back(v);
  if (rng() % 2)
    std::shuffle(p.order.begin(), p.order.end(), rng);
  for (NodeId v = 0; v < p.n; ++v) {
    p.gen.push_back(State(rng() & rng()));
    p.kill.push_back(State(rng() & rng()));
  }
  p.seedNode = rng() % p.n;
  p.seed = State(rng());
  return p;
}

/// Round-robin over the nodes until nothing changes, one state pair per
/// node: the definition the chain solver must agree with.
template <typename Meet>
DataflowResult<State> reference(const RandomProblem &p, State init, Meet meet) {
  DataflowResult<State> r;
  r.in.assign(p.n, init);
  r.out.assign(p.n, init);
  for (bool changed = true; changed;) {
    changed = false;
    for (NodeId v : p.order) {
      State acc = init;
      bool first = true;
      for (NodeId q : p.inputs[v]) {
        acc = first ? r.out[q] : meet(acc, r.out[q]);
        first = false;
      }
      if (v == p.seedNode)
        acc |= p.seed;
      State out = (acc & ~p.kill[v]) | p.gen[v];
      changed |= out != r.out[v] || acc != r.in[v];
      r.in[v] = acc;
      r.out[v] = out;
    }
  }
  return r;
}

template <typename Solution>
void expectStates(const RandomProblem &p, const Solution &solution,
                  const DataflowResult<State> &want) {
  DataflowResult<State> got = solution.materialize();
  size_t visited = 0;
  solution.forEach([&](NodeId v, const State &in) {
    ++visited;
    EXPECT_EQ(in, want.in[v]) << "node " << v;
  });
  EXPECT_EQ(visited, p.order.size());
  for (NodeId v = 0; v < p.n; ++v) {
    EXPECT_EQ(got.in[v], want.in[v]) << "node " << v;
    EXPECT_EQ(got.out[v], want.out[v]) << "node " << v;
    EXPECT_EQ(solution.inAt(v), want.in[v]) << "node " << v;
    EXPECT_EQ(solution.outAt(v), want.out[v]) << "node " << v;
  }
}

/// The same problem with a transfer that computes `out` from `in` and with
/// one that updates the state in place.
template <typename Meet>
void expectSameSolution(const RandomProblem &p, State init, Meet meet) {
  DataGraph dg = p.graph();
  auto seedAt = [&](NodeId v, State &s) {
    if (v == p.seedNode)
      s |= p.seed;
  };
  auto meetInto = [&](State &acc, const State &o) { acc = meet(acc, o); };
  DataflowResult<State> want = reference(p, init, meet);
  expectStates(p,
               solveDataflow<State>(dg, init, seedAt, meetInto,
                                    [&](NodeId v, const State &in,
                                        State &out) {
                                      out = (in & ~p.kill[v]) | p.gen[v];
                                    }),
               want);
  expectStates(p,
               solveDataflow<State>(dg, init, seedAt, meetInto,
                                    [&](NodeId v, State &s) {
                                      s = (s & ~p.kill[v]) | p.gen[v];
                                    }),
               want);
}

TEST(DataflowSolver, ChainSolutionsEqualPerNodeIterationOnRandomGraphs) {
  std::mt19937 rng(17);
  for (int i = 0; i < 400; ++i) {
    RandomProblem p = randomProblem(rng);
    SCOPED_TRACE("problem " + std::to_string(i));
    expectSameSolution(p, State(), [](State a, State b) { return a | b; });
    expectSameSolution(p, State().set(),
                       [](State a, State b) { return a & b; });
  }
}

TEST(DataflowSolver, StraightLineIsOneChainAndJoinsSplitChains) {
  // 0 -> 1 -> 2 -> 3, and 3 -> 4, 3 -> 5, both -> 6.
  std::vector<std::vector<NodeId>> inputs = {{},  {0}, {1},   {2},
                                             {3}, {3}, {4, 5}};
  DataGraph dg =
      DataGraph::build(inputs.size(),
                       [&](NodeId v, llvm::function_ref<void(NodeId)> add) {
                         for (NodeId p : inputs[v])
                           add(p);
                       },
                       {0, 1, 2, 3, 4, 5, 6});
  Chains chains(dg);
  ASSERT_EQ(chains.size(), 4u);
  EXPECT_EQ(chains.nodesOf(0), llvm::ArrayRef<NodeId>({0, 1, 2, 3}));
  EXPECT_EQ(chains.nodesOf(1), llvm::ArrayRef<NodeId>({4}));
  EXPECT_EQ(chains.nodesOf(2), llvm::ArrayRef<NodeId>({5}));
  EXPECT_EQ(chains.nodesOf(3), llvm::ArrayRef<NodeId>({6}));
  EXPECT_EQ(dg.dependents(3), llvm::ArrayRef<NodeId>({4, 5}));
}

TEST(DataflowSolver, ACycleNothingEntersStillGetsAChain) {
  // 0 -> 1 -> 2 -> 0: every node has one input that feeds only it.
  std::vector<std::vector<NodeId>> inputs = {{2}, {0}, {1}};
  DataGraph dg =
      DataGraph::build(inputs.size(),
                       [&](NodeId v, llvm::function_ref<void(NodeId)> add) {
                         for (NodeId p : inputs[v])
                           add(p);
                       },
                       {0, 1, 2});
  Chains chains(dg);
  ASSERT_EQ(chains.size(), 1u);
  EXPECT_EQ(chains.nodesOf(0).size(), 3u);
}

} // namespace

namespace {
/// Solves `small`, then `large` (the same graph, gen sets that only grew)
/// from small's chain tails, told which nodes changed when `changed` is
/// given, and compares every state with large's reference solution.
void expectGrownSolution(const RandomProblem &small,
                         const RandomProblem &large,
                         const std::vector<NodeId> *changed) {
  DataGraph dg = small.graph();
  auto seedAt = [&](NodeId v, State &s) {
    if (v == small.seedNode)
      s |= small.seed;
  };
  auto meet = [](State &acc, const State &o) { acc |= o; };
  const RandomProblem *p = &small;
  auto transfer = [&](NodeId v, State &s) {
    s = (s & ~p->kill[v]) | p->gen[v];
  };
  auto first = solveDataflow<State>(dg, State(), seedAt, meet, transfer);
  p = &large;
  auto grown = solveDataflow<State>(dg, State(), seedAt, meet, transfer,
                                    first.takeTails(), changed);
  expectStates(large, grown,
               reference(large, State(),
                         [](State a, State b) { return a | b; }));
}
} // namespace

TEST(DataflowSolver, GrownProblemFromSmallerTailsReachesItsFixpoint) {
  // A may problem whose gen sets only grow (Needed forcing more tests):
  // solved from the smaller problem's chain tails, as from scratch.
  std::mt19937 rng(23);
  for (int i = 0; i < 200; ++i) {
    RandomProblem small = randomProblem(rng);
    RandomProblem large = small;
    for (State &g : large.gen)
      g |= State(rng() & rng() & rng());
    SCOPED_TRACE("problem " + std::to_string(i));
    expectGrownSolution(small, large, nullptr);
  }
}

TEST(DataflowSolver, GrownProblemRestartedAtItsChangedNodesReachesItsFixpoint) {
  // As above, but only some nodes' gen sets grow and the solve is told
  // which (Needed: the tests forced since the last solve): starting from
  // their chains alone must reach the same fixpoint.
  std::mt19937 rng(29);
  for (int i = 0; i < 300; ++i) {
    RandomProblem small = randomProblem(rng);
    RandomProblem large = small;
    std::vector<NodeId> changed;
    for (NodeId v = 0; v < large.n; ++v)
      if (rng() % 4 == 0) {
        State more(rng() & rng());
        if ((large.gen[v] | more) != large.gen[v])
          changed.push_back(v);
        large.gen[v] |= more;
      }
    SCOPED_TRACE("problem " + std::to_string(i));
    expectGrownSolution(small, large, &changed);
  }
}

//===- LatticeTest.cpp - The lattices of the analyses on small programs ---===//
//
// Hand-written programs whose ThreadSafe, Needed and liveness lattices are
// known, and the verifier's extremality checks on solutions that satisfy
// the constraints but are not the greatest (TS) / least (Needed) one.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestSupport.h"

#include "detc/analysis/Verify.h"

using namespace detc;
using namespace detc::analysis;
using namespace detc::testing;

namespace {
/// Objects created at `line` (the generator a Create node makes).
unsigned objectCreatedAt(const AnalysedModule &m, unsigned line) {
  NodeId n = m.nodeAtLine(line);
  EXPECT_NE(n, kNoNode);
  auto created = m.a.gens->created(n);
  EXPECT_EQ(created.size(), 1u);
  return created.empty() ? ~0u : created.front();
}

/// `name` is a global (`@best`) or a local of the entry function.
template <typename Set>
bool hasVar(const AnalysedModule &m, const Set &s, llvm::StringRef name) {
  VarId v = name.starts_with("@") ? m.a.graph.vars.lookup(name)
                                  : m.mainVar(name);
  EXPECT_NE(v, ~0u) << name.str();
  return v != ~0u && s.test(v);
}
} // namespace

TEST(ThreadSafeLattice, RegionsNestCreateInsideIsSafeEndRestores) {
  AnalysedModule m(R"(
    detc.func @__main__ kind module {
      detc.create_generator "torch" seeded defs ["outer"] loc("t":1:1)
      detc.create_generator "torch" seeded defs ["after"] loc("t":2:1)
      detc.parallel per_batch uses ["x"] {
        detc.create_generator "torch" seeded defs ["local"] loc("t":4:1)
        detc.draw "local" dist "normal" defs ["a"] loc("t":5:1)
        detc.parallel per_example uses ["x"] {
          detc.draw "local" dist "normal" defs ["b"] loc("t":7:1)
        } loc("t":6:1)
        detc.draw "local" dist "normal" defs ["c"] loc("t":8:1)
        detc.draw "outer" dist "normal" defs ["d"] loc("t":9:1)
      } loc("t":3:1)
      detc.draw "after" dist "normal" defs ["e"] loc("t":10:1)
    })");
  ASSERT_TRUE(m.ok());
  const ThreadSafetyResult &ts = m.a.ts;
  unsigned outer = objectCreatedAt(m, 1), after = objectCreatedAt(m, 2),
           local = objectCreatedAt(m, 4);
  // Inside the outer region, before `local` is created: nothing is safe.
  EXPECT_FALSE(ts.ts.in[m.nodeAtLine(4)].test(local));
  EXPECT_FALSE(ts.ts.in[m.nodeAtLine(4)].test(outer));
  // Thread-local after its creation, unsafe again in the nested region,
  // safe again once the nested region ends.
  EXPECT_TRUE(ts.ts.in[m.nodeAtLine(5)].test(local));
  EXPECT_FALSE(ts.ts.in[m.nodeAtLine(7)].test(local));
  EXPECT_TRUE(ts.ts.in[m.nodeAtLine(8)].test(local));
  EXPECT_FALSE(ts.ts.in[m.nodeAtLine(9)].test(outer));
  // After the outer region: as before it.
  EXPECT_TRUE(ts.ts.in[m.nodeAtLine(10)].test(after));
  EXPECT_TRUE(ts.err.test(local));
  EXPECT_TRUE(ts.err.test(outer));
  EXPECT_FALSE(ts.err.test(after));
  EXPECT_TRUE(verifyThreadSafety(m.a.graph, *m.a.gens, ts).ok());
}

TEST(ThreadSafeLattice, ASmallerFixpointSatisfiesButIsNotGreatest) {
  AnalysedModule m(R"(
    detc.func @__main__ kind module {
      detc.create_generator "torch" seeded defs ["g"] loc("t":1:1)
      detc.for defs ["i"] {
        detc.draw "g" dist "normal" defs ["a"] loc("t":3:1)
      } loc("t":2:1)
    })");
  ASSERT_TRUE(m.ok());
  ThreadSafetyResult ts = m.a.ts;
  unsigned g = objectCreatedAt(m, 1);
  EXPECT_FALSE(ts.err.test(g));
  ASSERT_TRUE(verifyThreadSafety(m.a.graph, *m.a.gens, ts).ok());
  // TS[g] = False around the loop's cycle (and after it), ERR[g] = True:
  // every constraint holds, yet it is not the greatest solution.
  std::vector<NodeId> work = {m.nodeAtLine(2)};
  llvm::BitVector seen(m.a.graph.numNodes());
  while (!work.empty()) {
    NodeId n = work.back();
    work.pop_back();
    if (seen.test(n))
      continue;
    seen.set(n);
    ts.ts.out[n].reset(g);
    ts.ts.in[n].reset(g);
    for (NodeId s : m.a.graph.successors(n))
      work.push_back(s);
  }
  ts.err.set(g);
  VerifyOutcome v = verifyThreadSafety(m.a.graph, *m.a.gens, ts);
  EXPECT_TRUE(v.satisfies) << v.failure;
  EXPECT_FALSE(v.extremal);
  EXPECT_NE(v.failure.find("greater solution"), std::string::npos)
      << v.failure;
}

TEST(NeededLattice, NotLivenessRightHandSidesOnlyForNeededLeftHandSides) {
  AnalysedModule m(R"(
    detc.func @__main__ kind module {
      detc.stmt "assign" defs ["lr"] uses ["base"] loc("t":1:1)
      detc.stmt "assign" defs ["logged"] uses ["loss0"] loc("t":2:1)
      detc.for defs ["epoch"] uses ["n"] {
        detc.stmt "augassign" updates ["lr"] uses ["lr"] loc("t":4:1)
        detc.grad updates ["m"] uses ["lr"] loc("t":5:1)
        detc.stmt "expr" uses ["logged"] loc("t":6:1)
        detc.checkpoint saved ["m"] uses ["m"] loc("t":7:1)
      } loc("t":3:1)
    })");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m.a.replay.checkpoints.size(), 1u);
  const CheckpointReplay &cp = m.a.replay.checkpoints.front();
  const StatementGraph &g = m.a.graph;
  // lr is needed along the back edge (the schedule), so its definition
  // re-runs and `base` is needed before it; `logged` is live (read at 6)
  // so it is needed and its definition re-runs too; the model is restored.
  NodeId def = m.nodeAtLine(1);
  EXPECT_TRUE(hasVar(m, cp.needed.out[def], "base"));
  EXPECT_FALSE(hasVar(m, cp.needed.out[m.nodeAtLine(5)], "m"));
  EXPECT_TRUE(llvm::is_contained(cp.reexecuted, m.nodeAtLine(4)));
  EXPECT_TRUE(llvm::is_contained(cp.skipped, m.nodeAtLine(5)));
  EXPECT_TRUE(verifyNeeded(g, *m.a.gens, m.a.replay.ids, cp).ok());
}

TEST(NeededLattice, ALargerFixpointSatisfiesButIsNotLeast) {
  AnalysedModule m(R"(
    detc.func @__main__ kind module {
      detc.stmt "assign" defs ["x"] loc("t":1:1)
      detc.for defs ["i"] {
        detc.stmt "augassign" updates ["x"] uses ["x"] loc("t":3:1)
      } loc("t":2:1)
      detc.for defs ["j"] {
        detc.checkpoint saved ["m"] uses ["m"] loc("t":5:1)
      } loc("t":4:1)
    })");
  ASSERT_TRUE(m.ok());
  CheckpointReplay cp = m.a.replay.checkpoints.front();
  const StatementGraph &g = m.a.graph;
  ASSERT_TRUE(verifyNeeded(g, *m.a.gens, m.a.replay.ids, cp).ok());
  VarId x = m.mainVar("x");
  ASSERT_NE(x, ~0u);
  NodeId def = m.nodeAtLine(1), header = m.nodeAtLine(2),
         bump = m.nodeAtLine(3);
  EXPECT_FALSE(cp.needed.in[def].test(x)) << "x is dead after the first loop";
  // Needed[x] around the first loop's cycle: consistent (the loop header
  // re-runs because the bump does; it reads nothing), but not least.
  cp.needed.in[def].set(x);
  for (NodeId n : {header, bump}) {
    cp.needed.in[n].set(x);
    cp.needed.out[n].set(x);
  }
  VerifyOutcome v = verifyNeeded(g, *m.a.gens, m.a.replay.ids, cp);
  EXPECT_TRUE(v.satisfies) << v.failure;
  EXPECT_FALSE(v.extremal);
}

TEST(LivenessLattice, AttributesGlobalsAndGeneratorHolders) {
  AnalysedModule m(R"(
    detc.func @__main__ kind module {
      detc.stmt "assign" defs ["@best"] loc("t":1:1)
      detc.stmt "assign" defs ["obj"] loc("t":2:1)
      detc.stmt "assign" defs ["obj.count"] loc("t":3:1)
      detc.stmt "assign" defs ["tmp"] loc("t":4:1)
      detc.hint loc("t":5:1)
      detc.stmt "assign" defs ["tmp"] loc("t":6:1)
      detc.stmt "expr" uses ["@best", "obj.count", "tmp"] loc("t":7:1)
    })");
  ASSERT_TRUE(m.ok());
  IdSetView live = m.a.live.liveAfter(m.nodeAtLine(5));
  EXPECT_TRUE(hasVar(m, live, "@best"));
  EXPECT_TRUE(hasVar(m, live, "obj.count"));
  EXPECT_TRUE(hasVar(m, live, "obj")) << "reading obj.count reads obj";
  EXPECT_FALSE(hasVar(m, live, "tmp")) << "redefined before its use";
}

TEST(InternedSets, EqualSetsStoredOnceAndReadBack) {
  auto set = [](std::initializer_list<unsigned> items) {
    VarSet s;
    for (unsigned i : items)
      s.set(i);
    return s;
  };
  std::vector<VarSet> perNode = {set({1, 2}), set({1, 2}), set({}),
                                 set({1, 2}), set({300}), set({}),
                                 set({7, 900, 4000}), set({1, 2, 300})};
  std::vector<VarSet> expected = perNode;
  InternedSets interned(std::move(perNode));
  EXPECT_EQ(interned.numDistinct(), 5u);
  for (NodeId n = 0; n < expected.size(); ++n) {
    EXPECT_TRUE(interned[n] == expected[n]) << "node " << n;
    // Read back as sorted ids, with membership by search.
    std::vector<unsigned> ids(interned[n].begin(), interned[n].end());
    std::vector<unsigned> want;
    for (unsigned v : expected[n])
      want.push_back(v);
    EXPECT_EQ(ids, want) << "node " << n;
    for (unsigned v : {0u, 1u, 2u, 7u, 300u, 900u, 4000u})
      EXPECT_EQ(interned[n].test(v), expected[n].test(v));
  }
  EXPECT_FALSE(interned[4] == expected[0]);
  EXPECT_FALSE(interned[7] == expected[0]) << "a prefix is not equal";
}

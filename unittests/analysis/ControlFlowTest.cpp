//===- ControlFlowTest.cpp - Dominators and loop nesting ------------------===//

#include "AnalysisTestSupport.h"

#include "detc/analysis/ControlFlow.h"

using namespace detc::analysis;
using namespace detc::testing;

TEST(ControlFlow, DominatorsBackEdgesAndNesting) {
  AnalysedModule m(R"(
    detc.func @__main__ kind module {
      detc.stmt "assign" defs ["x"] loc("t":1:1)
      detc.for defs ["epoch"] {
        detc.if uses ["x"] {
          detc.stmt "assign" defs ["y"] loc("t":4:1)
        } else {
          detc.stmt "assign" defs ["z"] loc("t":5:1)
        } loc("t":3:1)
        detc.stmt "assign" defs ["w"] loc("t":6:1)
        detc.while uses ["w"] {
          detc.stmt "augassign" updates ["w"] uses ["w"] loc("t":8:1)
          detc.continue loc("t":9:1)
        } loc("t":7:1)
      } loc("t":2:1)
      detc.stmt "expr" uses ["w"] loc("t":10:1)
    })");
  ASSERT_TRUE(m.ok());
  ControlFlow cf(m.a.graph);
  NodeId def = m.nodeAtLine(1), outer = m.nodeAtLine(2),
         branch = m.nodeAtLine(3), thenSide = m.nodeAtLine(4),
         elseSide = m.nodeAtLine(5), join = m.nodeAtLine(6),
         inner = m.nodeAtLine(7), bump = m.nodeAtLine(8),
         after = m.nodeAtLine(10);
  EXPECT_TRUE(cf.dominates(def, after));
  EXPECT_TRUE(cf.dominates(outer, bump));
  EXPECT_TRUE(cf.dominates(branch, join));
  EXPECT_FALSE(cf.dominates(thenSide, join));
  EXPECT_FALSE(cf.dominates(elseSide, join));
  EXPECT_FALSE(cf.dominates(bump, after)) << "the while may not run";
  EXPECT_TRUE(cf.dominates(def, def));

  ASSERT_EQ(cf.loops().size(), 2u);
  unsigned outerLoop = cf.innermostLoop(branch);
  unsigned innerLoop = cf.innermostLoop(bump);
  ASSERT_NE(outerLoop, ~0u);
  ASSERT_NE(innerLoop, ~0u);
  EXPECT_EQ(cf.loops()[outerLoop].header, outer);
  EXPECT_EQ(cf.loops()[innerLoop].header, inner);
  EXPECT_EQ(cf.loops()[innerLoop].parent, outerLoop);
  EXPECT_EQ(cf.loopDepth(bump), 2u);
  EXPECT_EQ(cf.loopDepth(join), 1u);
  EXPECT_EQ(cf.loopDepth(after), 0u);
  // `continue` and the end of the body both go back to the while's test.
  EXPECT_GE(cf.loops()[innerLoop].latches.size(), 1u);
  for (NodeId l : cf.loops()[innerLoop].latches)
    EXPECT_TRUE(cf.isBackEdge(l, inner));

  // Forward reachability never wraps around a loop.
  llvm::BitVector later = cf.forwardReachable(join);
  EXPECT_TRUE(later.test(bump));
  EXPECT_TRUE(later.test(after));
  EXPECT_FALSE(later.test(branch));
  EXPECT_FALSE(later.test(def));
  // The windowed query agrees with the full search.
  for (NodeId to = 0; to < m.a.graph.numNodes(); ++to)
    EXPECT_EQ(cf.followsInProgramOrder(join, to), to != join && later.test(to))
        << "to node " << to;
}

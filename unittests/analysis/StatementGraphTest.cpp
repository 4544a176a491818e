//===- StatementGraphTest.cpp - How the expanded program is built ---------===//

#include "AnalysisTestSupport.h"

using namespace detc::analysis;
using namespace detc::testing;

TEST(StatementGraph, ForwardInputsReachTheForwardsParameters) {
  AnalysedModule m(R"(
    detc.class @Net role model bases ["torch.nn.Module"] {
      detc.func @forward kind method params ["self", "x"] {
        detc.stmt "assign" defs ["h"] uses ["x"] loc("t":2:1)
        detc.return uses ["h"] loc("t":3:1)
      }
    }
    detc.func @__main__ kind module {
      detc.build "b0" cls @Net defs ["model"] {
        detc.call @Net::@forward bind {self = "model"} uses ["model"]
      } loc("t":5:1)
      detc.stmt "assign" defs ["inp"] loc("t":6:1)
      detc.forward "model" builds ["b0"] defs ["out"] uses ["model", "inp"] loc("t":7:1)
    })");
  ASSERT_TRUE(m.ok());
  const StatementGraph &g = m.a.graph;
  VarId inp = m.mainVar("inp");
  ASSERT_NE(inp, ~0u);
  // The expansion's parameter `x` is defined from the forward's input, so
  // `h` (inside the forward) depends on `inp`.
  bool found = false;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    const Node &node = g.node(n);
    for (VarId d : node.defs)
      if (llvm::StringRef(g.vars.name(d)).ends_with("/x")) {
        found = true;
        EXPECT_TRUE(llvm::is_contained(node.uses, inp))
            << "x is defined without reading the forward's input";
        EXPECT_FALSE(llvm::is_contained(node.uses, m.mainVar("model")));
      }
  }
  EXPECT_TRUE(found);
  EXPECT_TRUE(m.a.live.liveAfter(m.nodeAtLine(6)).test(inp));
}

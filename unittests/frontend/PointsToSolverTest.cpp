//===- PointsToSolverTest.cpp - The inclusion-constraint solver -----------===//

#include "../../lib/frontend/Lowering/PointsTo/Solver.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>
#include <string>

using namespace detc::frontend::pta;

namespace {

std::vector<unsigned> set(const Solver &s, Node n) {
  std::vector<unsigned> out;
  for (unsigned o : s.pointsTo(n))
    out.push_back(o);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(PointsToSolver, CopiesPropagateAlsoWhenAddedLate) {
  Solver s;
  Node a = s.newNode(), b = s.newNode(), c = s.newNode();
  s.addObject(a, 1);
  s.addCopy(a, b);
  s.solve();
  EXPECT_EQ(set(s, b), std::vector<unsigned>({1}));
  // An edge added after `a` was processed still gets what `a` holds.
  s.addCopy(b, c);
  s.solve();
  EXPECT_EQ(set(s, c), std::vector<unsigned>({1}));
  s.addObject(a, 7);
  s.solve();
  EXPECT_EQ(set(s, c), std::vector<unsigned>({1, 7}));
  // A cycle terminates.
  s.addCopy(c, a);
  s.addObject(c, 3);
  s.solve();
  EXPECT_EQ(set(s, a), std::vector<unsigned>({1, 3, 7}));
}

TEST(PointsToSolver, LoadsAndStoresThroughFields) {
  // x = obj1; x.f = obj2; y = x.f   (a store and a load as handlers)
  Solver s;
  Node x = s.newNode(), v = s.newNode(), y = s.newNode();
  FieldId f = s.fieldId("f");
  s.onObject(x, [&](Obj o) { s.addCopy(v, s.fieldNode(o, f)); });
  s.onObject(x, [&](Obj o) { s.addCopy(s.fieldNode(o, f), y); });
  s.addObject(v, 2);
  s.addObject(x, 1);
  s.solve();
  EXPECT_EQ(set(s, y), std::vector<unsigned>({2}));
  EXPECT_EQ(s.fieldName(s.fieldsOf(1).front()), "f");
}

TEST(PointsToSolver, FieldHandlersSeeFieldsMadeLater) {
  Solver s;
  std::vector<std::string> seen;
  s.fieldNode(5, s.fieldId("early"));
  s.onField(5, [&](FieldId f) { seen.push_back(s.fieldName(f).str()); });
  s.fieldNode(5, s.fieldId("late"));
  s.fieldNode(5, s.fieldId("late")); // once
  EXPECT_EQ(seen, std::vector<std::string>({"early", "late"}));
}

TEST(PointsToSolver, ReleasedSolutionAnswersAsBefore) {
  // Random objects with random fields holding random objects; every query
  // answered after releaseConstraints() as it was before.
  std::mt19937 rng(7);
  Solver s;
  std::vector<Node> vars;
  for (int i = 0; i < 200; ++i)
    vars.push_back(s.newNode());
  for (int i = 0; i < 2000; ++i) {
    Obj o = rng() % 300;
    FieldId f = s.fieldId("f" + std::to_string(rng() % 40));
    s.addObject(s.fieldNode(o, f), rng() % 300);
    s.addCopy(vars[rng() % vars.size()], vars[rng() % vars.size()]);
    s.addObject(vars[rng() % vars.size()], o);
  }
  s.solve();
  auto snapshot = [&] {
    std::vector<std::vector<unsigned>> out;
    for (Node v : vars)
      out.push_back(set(s, v));
    for (Obj o = 0; o < 310; ++o) {
      std::vector<FieldId> fs = s.fieldsOf(o);
      std::sort(fs.begin(), fs.end());
      out.push_back(fs);
      for (unsigned k = 0; k < 45; ++k) {
        Node n = s.findField(o, s.findFieldId("f" + std::to_string(k)));
        out.push_back(n == ~0u ? std::vector<unsigned>{~0u} : set(s, n));
      }
    }
    return out;
  };
  std::vector<std::vector<unsigned>> before = snapshot();
  s.releaseConstraints();
  EXPECT_EQ(snapshot(), before);
  EXPECT_EQ(s.findFieldId("never"), ~0u);
}

TEST(PointsToSolver, StopsAtItsLimitAndSaysSo) {
  Solver s;
  Node root = s.newNode();
  // Every object makes a new node and an edge: unbounded without a limit.
  s.onObject(root, [&](Obj o) {
    Node n = s.newNode();
    s.addCopy(root, n);
    s.addObject(root, o + 1);
  });
  s.addObject(root, 0);
  s.solve(1000);
  EXPECT_TRUE(s.truncated);
  EXPECT_GT(s.copyEdges + s.handlers, 1000u);
}

TEST(PointsToSolver, StopsWhenItsSetsGrowPastTheirLimit) {
  Solver s;
  // A ring of 64 nodes, each object added anywhere reaching all of them:
  // few edges, large sets (what a blob of merged objects costs).
  std::vector<Node> ring;
  for (int i = 0; i < 64; ++i)
    ring.push_back(s.newNode());
  for (int i = 0; i < 64; ++i)
    s.addCopy(ring[i], ring[(i + 1) % 64]);
  // Each object makes the next (unbounded without a limit).
  s.onObject(ring[0], [&](Obj o) { s.addObject(ring[0], o + 1); });
  s.addObject(ring[0], 0);
  s.solve(/*limit=*/1000000, /*memberLimit=*/50000);
  EXPECT_TRUE(s.truncated);
  EXPECT_LT(s.copyEdges + s.handlers, 1000u);
  EXPECT_GT(s.members, 50000u);
  // It stops soon after: one worklist visit adds at most a node's delta.
  EXPECT_LT(s.members, 60000u);
}

} // namespace

//===- PointsToSolverTest.cpp - The inclusion-constraint solver -----------===//

#include "../../lib/frontend/Lowering/PointsTo/Solver.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>
#include <set>
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
  s.constraintLimit = 1000;
  s.solve();
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
  s.memberLimit = 50000;
  s.solve();
  EXPECT_TRUE(s.truncated);
  EXPECT_LT(s.copyEdges + s.handlers, 1000u);
  EXPECT_GT(s.members, 50000u);
  // It stops soon after: one worklist visit adds at most a node's delta.
  EXPECT_LT(s.members, 60000u);
}

TEST(PointsToSolver, BatchedSetsEqualANaiveFixpoint) {
  // Random graphs with cycles whose sets cross the 16 objects where a set
  // gets its word index, with objects spread over many words, handlers
  // that add edges while solving, and edges added after a solve (what
  // `from` passed already is replayed into `to`): every set equals the
  // fixpoint computed an object at a time, each object in it once.
  for (unsigned seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](unsigned n) { return unsigned(rng() % n); };
    Solver s;
    unsigned nodes = 20 + pick(60);
    std::vector<Node> ids;
    for (unsigned i = 0; i < nodes; ++i)
      ids.push_back(s.newNode());
    std::vector<std::set<unsigned>> expect(nodes);
    std::set<std::pair<unsigned, unsigned>> edges;
    std::vector<std::pair<unsigned, Obj>> seeds;
    // A handler on node h adds an edge h -> (object % nodes) per object.
    std::vector<unsigned> hooked;
    for (unsigned i = 0, e = 1 + pick(3); i < e; ++i) {
      unsigned h = pick(nodes);
      hooked.push_back(h);
      s.onObject(ids[h], [&, h, nodes](Obj o) {
        s.addCopy(ids[h], ids[o % nodes]);
      });
    }
    auto addEdge = [&](unsigned a, unsigned b) {
      edges.insert({a, b});
      s.addCopy(ids[a], ids[b]);
    };
    for (unsigned i = 0, e = nodes + pick(2 * nodes); i < e; ++i)
      addEdge(pick(nodes), pick(nodes));
    unsigned spread = 64 * (1 + pick(8)); // objects over up to 8 words
    for (unsigned i = 0, e = 10 + pick(150); i < e; ++i) {
      seeds.push_back({pick(nodes), Obj(pick(spread))});
      s.addObject(ids[seeds.back().first], seeds.back().second);
    }
    s.solve();
    for (unsigned i = 0, e = pick(20); i < e; ++i)
      addEdge(pick(nodes), pick(nodes));
    s.solve();
    // The naive fixpoint, handlers' edges included.
    for (const auto &[n, o] : seeds)
      expect[n].insert(o);
    for (bool changed = true; changed;) {
      changed = false;
      for (unsigned h : hooked)
        for (unsigned o : expect[h])
          changed |= edges.insert({h, o % nodes}).second;
      for (const auto &[a, b] : edges)
        for (unsigned o : expect[a])
          changed |= expect[b].insert(o).second;
    }
    for (unsigned n = 0; n < nodes; ++n)
      ASSERT_EQ(set(s, ids[n]),
                std::vector<unsigned>(expect[n].begin(), expect[n].end()))
          << "seed " << seed << ", node " << n;
    ASSERT_FALSE(s.truncated);
  }
}

} // namespace

//===- FactSetTest.cpp - The lowering's sets of interned facts ------------===//

#include "../../lib/frontend/Lowering/FactSet.h"

#include "gtest/gtest.h"

#include <random>
#include <set>
#include <string>
#include <vector>

using namespace detc::frontend;

static std::vector<std::string> toVector(const FactSet &s) {
  return std::vector<std::string>(s.begin(), s.end());
}

TEST(FactSet, BehavesAsTheStdSetOfStringsItReplaced) {
  // Same contents and the same (text) order as std::set<std::string>
  // under random inserts, merges, erases and copies.
  FactPool pool;
  FactPool::Activation active(pool);
  std::mt19937 rng(11);
  const char *kinds[] = {"obj:", "inst:", "func:", "const:", "key:x="};
  auto randomFact = [&] {
    return std::string(kinds[rng() % 5]) + std::to_string(rng() % 40);
  };
  for (int trial = 0; trial < 100; ++trial) {
    FactSet a, b;
    std::set<std::string> wantA, wantB;
    for (int step = 0; step < 50; ++step) {
      std::string f = randomFact();
      switch (rng() % 5) {
      case 0:
        EXPECT_EQ(a.insert(f).second, wantA.insert(f).second);
        break;
      case 1:
        b.insert(f);
        wantB.insert(f);
        break;
      case 2:
        a.insert(b.begin(), b.end());
        wantA.insert(wantB.begin(), wantB.end());
        break;
      case 3:
        EXPECT_EQ(a.erase(f), wantA.erase(f));
        break;
      default: {
        FactSet copy = a;
        EXPECT_EQ(copy, a);
        EXPECT_EQ(copy.count(f), wantA.count(f));
      }
      }
      ASSERT_EQ(toVector(a),
                std::vector<std::string>(wantA.begin(), wantA.end()));
      ASSERT_EQ(toVector(b),
                std::vector<std::string>(wantB.begin(), wantB.end()));
      EXPECT_EQ(a == b, wantA == wantB);
    }
  }
}

TEST(FactSet, EachFactIsStoredOnce) {
  FactPool pool;
  FactPool::Activation active(pool);
  FactSet a{"obj:b1_0", "func:f"}, b{"func:f"};
  // Equal facts of different sets are the pool's one string.
  EXPECT_EQ(&*a.begin(), &*b.begin());
  EXPECT_EQ(pool.intern("func:f"), &*b.begin());
  EXPECT_EQ(toVector(a), (std::vector<std::string>{"func:f", "obj:b1_0"}));
}

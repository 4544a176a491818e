//===- IdListTest.cpp - The statement graph's compact id lists ------------===//

#include "detc/analysis/IdList.h"

#include "gtest/gtest.h"

#include <random>
#include <vector>

using namespace detc::analysis;

static std::vector<unsigned> toVector(const IdList &l) {
  return std::vector<unsigned>(l.begin(), l.end());
}

TEST(IdList, EightBytesAndEveryOperationMatchesAVector) {
  static_assert(sizeof(IdList) == 8);
  // Random pushes, copies, moves, assignments and clears, mirrored on a
  // vector: the list holds the same ids in every state (empty, one id
  // inline, a block that grows). ASan/valgrind runs see the frees.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    IdList l;
    std::vector<unsigned> want;
    for (int step = 0; step < 60; ++step) {
      switch (rng() % 8) {
      case 0: {
        IdList copy(l);
        EXPECT_EQ(toVector(copy), want);
        l = std::move(copy);
        break;
      }
      case 1: {
        IdList other;
        other = l;
        l.clear();
        EXPECT_TRUE(l.empty());
        l = std::move(other);
        break;
      }
      case 2:
        if (rng() % 4 == 0) {
          l.clear();
          want.clear();
        }
        break;
      case 3:
        // Assigning a list its own ids (a range into itself).
        l.assign(l.begin(), l.end());
        break;
      default: {
        unsigned id = rng();
        l.push_back(id);
        want.push_back(id);
      }
      }
      ASSERT_EQ(l.size(), want.size());
      ASSERT_EQ(toVector(l), want);
      if (!want.empty()) {
        EXPECT_EQ(l.front(), want.front());
        EXPECT_EQ(l.back(), want.back());
        llvm::ArrayRef<unsigned> view = l;
        EXPECT_EQ(view.vec(), want);
      }
    }
  }
}

TEST(IdList, IdsThatLookLikeTheInlineTagOrAPointerStayIds) {
  // The tag is the low word; ids of any value (0, 1 = the tag, ~0) go in
  // the high word or a block.
  for (unsigned id : {0u, 1u, 2u, ~0u}) {
    IdList one{id};
    EXPECT_EQ(toVector(one), std::vector<unsigned>{id});
    IdList two{id, id};
    EXPECT_EQ(toVector(two), (std::vector<unsigned>{id, id}));
  }
  IdList empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.begin(), empty.end());
}

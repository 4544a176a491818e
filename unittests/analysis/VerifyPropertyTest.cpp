//===- VerifyPropertyTest.cpp - Worklist solutions == Z3-checked ----------===//
//
// Property test of issue 4: on 150 random programs (loops, branches,
// nested regions, calls, aliasing, checkpoints) the worklist solutions of
// ThreadSafe/ERR and Needed satisfy the constraint systems of Tables 1 and 3
// and are their greatest / least solutions, as Z3 decides. A second
// property keeps the verifier honest: flipping any single computed bit makes
// check 1 fail. DETC_PROPERTY_PROGRAMS / DETC_PROPERTY_SEED run it longer.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestSupport.h"
#include "RandomPrograms.h"

#include "detc/analysis/Verify.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <random>

using namespace detc;
using namespace detc::analysis;
using namespace detc::testing;

static unsigned envOr(const char *name, unsigned fallback) {
  const char *v = std::getenv(name);
  return v ? static_cast<unsigned>(std::strtoul(v, nullptr, 10)) : fallback;
}

namespace {
struct Counts {
  unsigned programs = 0, regions = 0, unsafe = 0, checkpoints = 0,
           reexecuted = 0, calls = 0;
};
} // namespace

TEST(VerifyProperty, WorklistSolutionsAreTheExtremalZ3Solutions) {
  unsigned programs = envOr("DETC_PROPERTY_PROGRAMS", 150);
  uint64_t seed = envOr("DETC_PROPERTY_SEED", 20261121);
  Counts counts;
  bool verbose = envOr("DETC_PROPERTY_VERBOSE", 0);
  for (unsigned i = 0; i < programs; ++i) {
    auto start = std::chrono::steady_clock::now();
    RandomProgramOptions options;
    options.maxDepth = 2 + i % 3;
    std::string text = randomProgram(seed + i, options);
    if (const char *dir = std::getenv("DETC_PROPERTY_DUMP")) {
      std::error_code ec;
      llvm::raw_fd_ostream(std::string(dir) + "/program" + std::to_string(i) +
                               ".mlir",
                           ec)
          << text;
    }
    AnalysedModule m(text);
    ASSERT_TRUE(m.ok()) << "generated module does not parse:\n" << text;
    const ProgramAnalysis &a = m.a;
    ASSERT_FALSE(a.graph.truncated);
    VerifyOutcome ts = verifyThreadSafety(a.graph, *a.gens, a.ts);
    EXPECT_TRUE(ts.ok()) << ts.system << ": " << ts.failure << "\n" << text;
    for (const CheckpointReplay &cp : a.replay.checkpoints) {
      VerifyOutcome needed = verifyNeeded(a.graph, *a.gens, a.replay.ids, cp);
      EXPECT_TRUE(needed.ok())
          << needed.system << ": " << needed.failure << "\n" << text;
      counts.reexecuted += cp.reexecuted.size();
    }
    if (HasFailure())
      return;
    if (verbose)
      llvm::errs() << "program " << i << ": " << a.graph.numNodes()
                   << " nodes, " << a.gens->objects().size()
                   << " generators, " << a.replay.checkpoints.size()
                   << " checkpoints, "
                   << std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count()
                   << " s\n";
    ++counts.programs;
    counts.unsafe += a.ts.unsafe.size();
    counts.checkpoints += a.replay.checkpoints.size();
    for (NodeId n = 0; n < a.graph.numNodes(); ++n) {
      counts.regions += a.graph.node(n).kind == NodeKind::ParBegin;
      counts.calls += a.graph.node(n).kind == NodeKind::CallEnter;
    }
  }
  // The generator must produce the shapes the property is about, or the
  // test proves little.
  EXPECT_GT(counts.regions, programs);
  EXPECT_GT(counts.unsafe, programs / 2);
  EXPECT_GT(counts.checkpoints, programs / 2);
  EXPECT_GT(counts.reexecuted, programs);
  EXPECT_GT(counts.calls, programs);
}

TEST(VerifyProperty, FlippingAnyComputedBitIsCaught) {
  unsigned programs = envOr("DETC_PROPERTY_PROGRAMS", 300) / 5;
  std::mt19937 rng(7);
  unsigned flipped = 0;
  for (unsigned i = 0; i < programs; ++i) {
    AnalysedModule m(randomProgram(900000 + i));
    ASSERT_TRUE(m.ok());
    ProgramAnalysis &a = m.a;
    size_t numObjects = a.gens->objects().size();
    // A ThreadSafe bit after a node.
    NodeId n = rng() % a.graph.numNodes();
    if (numObjects) {
      unsigned o = rng() % numObjects;
      a.ts.ts.out[n].flip(o);
      VerifyOutcome ts = verifyThreadSafety(a.graph, *a.gens, a.ts);
      EXPECT_FALSE(ts.satisfies) << "flip of TS after node " << n;
      a.ts.ts.out[n].flip(o);
      ++flipped;
    }
    // A Needed bit before a prefix node, for a variable the prefix uses.
    for (CheckpointReplay &cp : a.replay.checkpoints) {
      std::vector<NodeId> prefix;
      for (int p = cp.prefix.find_first(); p != -1;
           p = cp.prefix.find_next(p))
        prefix.push_back(p);
      NodeId at = prefix[rng() % prefix.size()];
      unsigned v = cp.userSaved.empty() ? 0 : cp.userSaved.front();
      if (cp.needed.out[at].test(v))
        cp.needed.out[at].reset(v);
      else
        cp.needed.out[at].set(v);
      VerifyOutcome needed = verifyNeeded(a.graph, *a.gens, a.replay.ids, cp);
      EXPECT_FALSE(needed.satisfies)
          << "flip of Needed before node " << at << " went unnoticed";
      ++flipped;
    }
  }
  EXPECT_GT(flipped, programs);
}

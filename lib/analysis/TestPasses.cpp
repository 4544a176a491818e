//===- TestPasses.cpp - Passes that print analysis lattices ---------------===//
//
// The lit tests of the analyses (test/analysis/rules/) run these through
// detc-opt; the format is described in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "detc/analysis/Passes.h"

#include "detc/analysis/Findings.h"

#include "llvm/Support/raw_ostream.h"

#include <set>

namespace detc::analysis {
#define GEN_PASS_DEF_TESTSTATEMENTGRAPH
#define GEN_PASS_DEF_TESTTHREADSAFETY
#define GEN_PASS_DEF_TESTNEEDED
#define GEN_PASS_DEF_TESTLIVENESS
#include "detc/analysis/Passes.h.inc"
} // namespace detc::analysis

using namespace detc::analysis;
using llvm::raw_ostream;

static std::string position(mlir::Operation *op) {
  SourcePoint p = sourcePoint(op);
  if (!p.valid())
    return "";
  return p.file + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
}

/// `[n] kind file:line:col via l:c l:c`
static void printNode(raw_ostream &os, const StatementGraph &g, NodeId n) {
  const Node &node = g.node(n);
  os << "[" << n << "] " << stringifyNodeKind(node.kind);
  std::string at = position(node.op);
  if (!at.empty())
    os << " " << at;
  llvm::SmallVector<NodeId, 4> path = g.callPath(n);
  if (!path.empty()) {
    os << " via";
    for (NodeId c : path) {
      SourcePoint p = sourcePoint(g.node(c).op);
      os << " " << p.line << ":" << p.column;
    }
  }
}

/// Sorted names of a set of variable / generator ids.
template <typename Range, typename NameFn>
static void printSet(raw_ostream &os, const Range &ids, NameFn name) {
  std::set<std::string> names;
  for (unsigned id : ids)
    names.insert(name(id));
  os << "{";
  llvm::interleave(names, os, ", ");
  os << "}";
}

static std::vector<unsigned> bits(const llvm::BitVector &v) {
  std::vector<unsigned> out;
  for (unsigned b : v.set_bits())
    out.push_back(b);
  return out;
}

namespace {
struct TestStatementGraph
    : public impl::TestStatementGraphBase<TestStatementGraph> {
  void runOnOperation() override {
    StatementGraph g = StatementGraph::build(getOperation());
    ControlFlow cf(g);
    raw_ostream &os = llvm::outs();
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      printNode(os, g, n);
      os << ": succ";
      for (NodeId s : g.successors(n))
        os << " " << s;
      os << "; idom ";
      if (cf.idom(n) == kNoNode)
        os << "none";
      else
        os << cf.idom(n);
      if (unsigned l = cf.innermostLoop(n); l != ~0u)
        os << "; loop " << cf.loops()[l].header << " depth "
           << cf.loops()[l].depth;
      os << "\n";
    }
    for (const NaturalLoop &loop : cf.loops()) {
      os << "loop " << loop.header << " (" << position(g.node(loop.header).op)
         << ") depth " << loop.depth << " parent ";
      if (loop.parent == ~0u)
        os << "none";
      else
        os << cf.loops()[loop.parent].header;
      os << " latches";
      for (NodeId l : loop.latches)
        os << " " << l;
      os << "\n";
    }
  }
};

struct TestThreadSafety : public impl::TestThreadSafetyBase<TestThreadSafety> {
  void runOnOperation() override {
    StatementGraph g = StatementGraph::build(getOperation());
    GeneratorAliases gens(g);
    ThreadSafetyResult ts = analyzeThreadSafety(g, gens);
    auto name = [&](unsigned o) { return gens.objects()[o].describe(g); };
    raw_ostream &os = llvm::outs();
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      printNode(os, g, n);
      os << ": before ";
      printSet(os, ts.ts.in[n].members(gens.objects().size()), name);
      os << " after ";
      printSet(os, ts.ts.out[n].members(gens.objects().size()), name);
      os << "\n";
    }
    for (const UnsafeUse &u : ts.unsafe)
      os << "unsafe: " << position(g.node(u.draw).op) << " " << name(u.object)
         << " in region " << position(g.node(u.region).op) << "\n";
    os << "ERR: ";
    printSet(os, bits(ts.err), name);
    os << "\n";
  }
};

struct TestNeeded : public impl::TestNeededBase<TestNeeded> {
  void runOnOperation() override {
    StatementGraph g = StatementGraph::build(getOperation());
    GeneratorAliases gens(g);
    Liveness live = computeLiveness(g, gens);
    ReplayResult replay = analyzeReplay(
        g, gens, live, keyedDraws(g, analyzeThreadSafety(g, gens)));
    auto name = [&](unsigned id) {
      return describeReplayId(id, g, gens, replay.ids);
    };
    raw_ostream &os = llvm::outs();
    for (const CheckpointReplay &cp : replay.checkpoints) {
      os << "checkpoint " << position(cp.op) << "\n";
      for (int n = cp.prefix.find_first(); n != -1;
           n = cp.prefix.find_next(n)) {
        printNode(os, g, n);
        if (llvm::is_contained(cp.reexecuted, NodeId(n)))
          os << " rerun";
        if (llvm::is_contained(cp.skipped, NodeId(n)))
          os << " skip";
        os << ": before ";
        printSet(os, cp.needed.out[n], name);
        os << " after ";
        printSet(os, cp.needed.in[n], name);
        os << "\n";
      }
      os << "fast-forwarded ";
      printSet(os, cp.fastForwarded, name);
      os << " detc-saved ";
      std::vector<unsigned> saved;
      for (auto &[v, from] : cp.notRederivable)
        saved.push_back(v);
      for (auto &[o, from] : cp.generators)
        saved.push_back(replay.ids.generator(o));
      printSet(os, saved, name);
      if (!cp.restoredAliases.empty()) {
        os << " aliases {";
        llvm::interleaveComma(cp.restoredAliases, os, [&](auto pair) {
          os << name(pair.first) << " ~ " << name(pair.second);
        });
        os << "}";
      }
      os << "\n";
    }
  }
};

struct TestLiveness : public impl::TestLivenessBase<TestLiveness> {
  void runOnOperation() override {
    StatementGraph g = StatementGraph::build(getOperation());
    GeneratorAliases gens(g);
    Liveness live = computeLiveness(g, gens);
    raw_ostream &os = llvm::outs();
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      printNode(os, g, n);
      os << ": live after ";
      printSet(os, live.liveAfter(n),
               [&](unsigned v) { return g.displayName(v); });
      os << "\n";
    }
  }
};
} // namespace

//===- ThreadSafety.cpp - Analysis A: ThreadSafe / ERR ---------------------===//
//
// The rules of Table 1 as a transfer function:
//   data_parallel_begin: every generator becomes unsafe;
//   data_parallel_end:   TS is what it was before the matching begin (the
//                        end node reads the begin's inputs);
//   create_generator:    the created object becomes safe;
//   random_gen:          no change; a use with TS false is an ERR finding;
//   other:               no change.
// TS before a node is the meet (and) over its predecessors; the program
// entry starts with every generator safe.
//
//===----------------------------------------------------------------------===//

#include "detc/analysis/ThreadSafety.h"
#include "detc/ir/DetcOps.h"

using namespace detc::analysis;
using llvm::BitVector;

void GeneratorSet::intersect(const GeneratorSet &o) {
  if (cofinite && o.cofinite) {
    listed |= o.listed; // Lacks what either lacks.
  } else if (cofinite) {
    llvm::SparseBitVector<> members = o.listed;
    members.intersectWithComplement(listed);
    listed = std::move(members);
    cofinite = false;
  } else if (o.cofinite) {
    listed.intersectWithComplement(o.listed);
  } else {
    listed &= o.listed;
  }
}

std::vector<unsigned> GeneratorSet::members(unsigned size) const {
  std::vector<unsigned> out;
  if (!cofinite) {
    for (unsigned o : listed)
      if (o < size)
        out.push_back(o);
    return out;
  }
  for (unsigned o = 0; o < size; ++o)
    if (!listed.test(o))
      out.push_back(o);
  return out;
}

ThreadSafetyResult detc::analysis::analyzeThreadSafety(
    const StatementGraph &g, const GeneratorAliases &gens, bool keepSolution) {
  size_t numObjects = gens.objects().size();
  std::vector<NodeId> order = postOrder(g);
  std::reverse(order.begin(), order.end());
  // data_parallel_end takes the state before its begin: its inputs are the
  // begin's predecessors.
  DataGraph dg = DataGraph::build(
      g.numNodes(),
      [&](NodeId n, llvm::function_ref<void(NodeId)> add) {
        const Node &node = g.node(n);
        for (NodeId p :
             g.predecessors(node.kind == NodeKind::ParEnd ? node.pair : n))
          add(p);
      },
      std::move(order));

  ThreadSafetyResult r;
  auto ts = solveDataflow<GeneratorSet>(
      dg, GeneratorSet::all(), [](NodeId, GeneratorSet &) {},
      [](GeneratorSet &acc, const GeneratorSet &other) {
        acc.intersect(other);
      },
      [&](NodeId n, const GeneratorSet &in, GeneratorSet &out) {
        const Node &node = g.node(n);
        switch (node.kind) {
        case NodeKind::ParBegin:
          out = GeneratorSet::none();
          return;
        case NodeKind::Create:
          out = in;
          for (unsigned o : gens.created(n))
            out.set(o);
          return;
        default:
          out = in;
        }
      });

  r.err = BitVector(numObjects, false);
  ts.forEach([&](NodeId n, const GeneratorSet &in) {
    const Node &node = g.node(n);
    if (node.kind != NodeKind::Draw)
      return;
    for (unsigned o : gens.drawn(n))
      if (!in.test(o)) {
        r.err.set(o);
        r.unsafe.push_back({n, o, node.region});
      }
  });
  // In program order, as the report lists them.
  llvm::stable_sort(r.unsafe, [](const UnsafeUse &a, const UnsafeUse &b) {
    return a.draw < b.draw;
  });
  if (keepSolution)
    r.ts = ts.materialize();
  return r;
}

bool detc::analysis::inCountedRegion(const StatementGraph &g,
                                     const UnsafeUse &u) {
  if (u.region == kNoNode)
    return false;
  auto region = llvm::dyn_cast_or_null<ir::ParallelOp>(g.node(u.region).op);
  return region && region.getCounted();
}

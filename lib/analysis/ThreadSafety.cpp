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

ThreadSafetyResult
detc::analysis::analyzeThreadSafety(const StatementGraph &g,
                                    const GeneratorAliases &gens) {
  size_t numObjects = gens.objects().size();
  DataGraph dg = forwardDataGraph(g);
  // data_parallel_end takes the state before its begin: rewire its inputs
  // to the begin's predecessors.
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    const Node &node = g.node(n);
    if (node.kind != NodeKind::ParEnd)
      continue;
    for (NodeId p : dg.inputs[n])
      llvm::erase(dg.dependents[p], n);
    dg.inputs[n].clear();
    for (NodeId p : g.predecessors(node.pair))
      dg.addInput(n, p);
  }

  ThreadSafetyResult r;
  r.ts = solveDataflow<GeneratorSet>(
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
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    const Node &node = g.node(n);
    if (node.kind != NodeKind::Draw)
      continue;
    for (unsigned o : gens.drawn(n))
      if (!r.ts.in[n].test(o)) {
        r.err.set(o);
        r.unsafe.push_back({n, o, node.region});
      }
  }
  return r;
}

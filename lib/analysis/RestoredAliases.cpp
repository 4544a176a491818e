//===- RestoredAliases.cpp - Names of what a checkpoint restores ----------===//
//
// A checkpoint restores the objects of the variables it saves (`roots`:
// `model_without_ddp.state_dict()`). A training script often holds the same
// object under another name: `model_without_ddp = model` (DeiT, MAE, DINO's
// `teacher_without_ddp = teacher`), or wraps it, `model = DDP(model);
// model_without_ddp = model.module`. Without this the other name looked
// like state no one restores, derived from the training, and the sidecar
// pickled the whole model a second time.
//
// A forward problem over the checkpoint's prefix, stated as its complement
// so that the solver's union meet gives a must answer: the state holds, for
// each candidate variable X and root R, "X may not be (a part of) what R
// holds" (broken), and for each X "X may not be a parallel wrapper". The
// entry has everything broken; only these statements make a pair hold:
//   - `X = Y` (a copy): X is part of R iff Y is; X holds R's object when
//     Y is R; when X is R itself, Y is part of it;
//   - `X = Y.module`: X is part of what Y is part of; when X is R, Y is
//     part of R only if Y is a wrapper (other attributes: any definition);
//   - `X = W(Y)`, a wrapper (detc.build `wraps`): X's state is Y's;
// any other definition of X breaks X's pairs (and, when X is R, every
// pair with R). Updates keep pairs: they change the object, not which one.
// `B = None` (a literal) makes every pair of a root under B hold: on that
// path the root has no object and the checkpoint reading it is not
// reached.
//
//===----------------------------------------------------------------------===//

#include "RestoredAliases.h"

#include "detc/analysis/DataflowSolver.h"
#include "detc/ir/DetcOps.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>

using namespace detc::analysis;
using llvm::BitVector;

namespace {
struct Problem {
  const StatementGraph &g;
  llvm::ArrayRef<VarId> roots;
  std::vector<VarId> candidates;
  llvm::DenseMap<VarId, unsigned> index;

  unsigned width() const { return unsigned(candidates.size() * roots.size()); }
  unsigned bits() const { return width() + unsigned(candidates.size()); }
  unsigned broken(unsigned c, unsigned r) const {
    return c * unsigned(roots.size()) + r;
  }
  unsigned notWrapper(unsigned c) const { return width() + c; }

  void add(VarId v) {
    if (index.try_emplace(v, candidates.size()).second)
      candidates.push_back(v);
  }
  std::optional<unsigned> of(VarId v) const {
    auto it = index.find(v);
    return it == index.end() ? std::nullopt : std::optional(it->second);
  }

  /// `Y.a` as (Y, a) when Y is a variable; std::nullopt otherwise.
  std::optional<std::pair<VarId, llvm::StringRef>> attributeOf(VarId v) const {
    llvm::StringRef name = g.vars.name(v);
    auto [parent, attr] = name.rsplit('.');
    if (attr.empty() || parent.empty() || parent.contains('['))
      return std::nullopt;
    VarId p = g.vars.lookup(parent);
    if (p == ~0u)
      return std::nullopt;
    return std::make_pair(p, attr);
  }

  /// The variable a wrapper build wraps, among the node's reads.
  std::optional<VarId> wrapped(const Node &node) const {
    auto build = llvm::dyn_cast_or_null<detc::ir::BuildOp>(node.op);
    if (!build || !build.getWraps())
      return std::nullopt;
    // The op's names are the function's (`model`, `@model` at module
    // level); the graph's are qualified by the instance (`main/model`).
    llvm::StringRef wraps = *build.getWraps();
    for (VarId u : node.uses) {
      llvm::StringRef name = g.vars.name(u);
      if (name == wraps ||
          (name.ends_with(wraps) && name.size() > wraps.size() &&
           name[name.size() - wraps.size() - 1] == '/'))
        return u;
    }
    return std::nullopt;
  }

  /// What a node's single definition is made from: (source, attribute
  /// or "", wrapper build?).
  struct Source {
    VarId from;
    llvm::StringRef attr;
    bool wrapper;
  };
  std::optional<Source> sourceOf(const Node &node) const {
    if (node.defs.size() != 1)
      return std::nullopt;
    if (std::optional<VarId> w = wrapped(node))
      return Source{*w, "", true};
    if (!node.copy || node.uses.size() != 1)
      return std::nullopt;
    // Of attributes only a wrapper's `module` shares its state: a loaded
    // state_dict may rebind the others (an optimizer's `state` and
    // `param_groups` are new objects after load_state_dict).
    if (auto a = attributeOf(node.uses[0])) {
      if (a->second != "module")
        return std::nullopt;
      return Source{a->first, a->second, false};
    }
    return Source{node.uses[0], "", false};
  }

  /// `X = <literal>`: a plain assignment that reads nothing.
  static bool isLiteralAssignment(const Node &node) {
    auto stmt = llvm::dyn_cast_or_null<detc::ir::StmtOp>(node.op);
    return stmt && stmt.getKind() == "assign" && node.defs.size() == 1 &&
           node.uses.empty() && node.updates.empty();
  }

  void transfer(NodeId n, BitVector &s) const {
    const Node &node = g.node(n);
    if (node.defs.empty())
      return;
    // `X = None` (any literal) where a root is an attribute path of X
    // (timm's `saver = None` before `if is_primary: saver =
    // CheckpointSaver(model=model, optimizer=optimizer, ...)`): on this
    // path the root has no object, and the checkpoint, which reads it,
    // is not reached with it: every pair with it holds (vacuously). The
    // merge with the path that built the saver keeps what holds there.
    if (isLiteralAssignment(node))
      for (unsigned r = 0; r < roots.size(); ++r)
        if (llvm::StringRef(g.vars.name(roots[r]))
                .starts_with((g.vars.name(node.defs[0]) + ".").str()))
          for (unsigned c = 0; c < candidates.size(); ++c)
            s.reset(broken(c, r));
    std::optional<Source> src = sourceOf(node);
    for (VarId x : node.defs) {
      std::optional<unsigned> cx = of(x);
      if (!cx)
        continue;
      // What the source is part of, read before X is redefined (`model =
      // DDP(model)` reads the old model).
      BitVector from(unsigned(roots.size()), true);
      bool fromWrapper = false;
      std::optional<unsigned> cy = src ? of(src->from) : std::nullopt;
      if (src && cy) {
        for (unsigned r = 0; r < roots.size(); ++r)
          from[r] = src->from != roots[r] && s.test(broken(*cy, r));
        fromWrapper = !s.test(notWrapper(*cy));
      }
      if (src && src->wrapper && src->from == x) {
        s.reset(notWrapper(*cx)); // the same state, now wrapped
        continue;
      }
      for (unsigned r = 0; r < roots.size(); ++r) {
        if (roots[r] == x)
          for (unsigned c = 0; c < candidates.size(); ++c)
            s.set(broken(c, r)); // R holds another object now
        s[broken(*cx, r)] = roots[r] != x && from[r];
      }
      s[notWrapper(*cx)] = !(src && src->wrapper);
      if (!src || !cy)
        continue;
      // X is a root: its new object's other names.
      for (unsigned r = 0; r < roots.size(); ++r) {
        if (roots[r] != x)
          continue;
        if (src->attr.empty() || (src->attr == "module" && fromWrapper))
          s.reset(broken(*cy, r));
      }
    }
  }
};
} // namespace

std::vector<std::pair<VarId, VarId>> detc::analysis::restoredAliases(
    const StatementGraph &g, const BitVector &prefix,
    llvm::ArrayRef<NodeId> instances, llvm::ArrayRef<VarId> roots) {
  Problem p{g, roots, {}, llvm::DenseMap<VarId, unsigned>()};
  if (roots.empty())
    return {};
  for (VarId r : roots)
    p.add(r);
  for (NodeId n : prefix.set_bits())
    if (std::optional<Problem::Source> src = p.sourceOf(g.node(n))) {
      p.add(g.node(n).defs[0]);
      p.add(src->from);
    }
  if (p.candidates.size() == roots.size())
    return {}; // no copy or wrapper: no other names
  DataGraph dg = forwardDataGraph(g, &prefix);
  BitVector top(p.bits(), true);
  auto solution = solveDataflow<BitVector>(
      dg, BitVector(p.bits()),
      [&](NodeId n, BitVector &s) {
        if (dg.inputs(n).empty())
          s = top;
      },
      [](BitVector &acc, const BitVector &o) { acc |= o; },
      [&](NodeId n, BitVector &s) { p.transfer(n, s); });
  BitVector brokenAtL(p.bits());
  for (NodeId n : instances)
    brokenAtL |= solution.inAt(n);
  std::vector<std::pair<VarId, VarId>> out;
  for (unsigned c = 0; c < p.candidates.size(); ++c)
    for (unsigned r = 0; r < roots.size(); ++r)
      if (p.candidates[c] != roots[r] && !brokenAtL.test(p.broken(c, r)))
        out.push_back({p.candidates[c], roots[r]});
  return out;
}

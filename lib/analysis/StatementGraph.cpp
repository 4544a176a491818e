//===- StatementGraph.cpp - Build the expanded statement graph ------------===//
//
// Walks a detc module from `@__main__` and emits one node per statement,
// expanding calls and model forwards in place (see StatementGraph.h).
// Structured control flow becomes edges: loop headers get back edges from
// the end of the body and from `continue`, `break` leaves the loop, a `try`
// body may jump to its handlers from any of its statements, `return` goes to
// the instance's exit.
//
//===----------------------------------------------------------------------===//

#include "detc/analysis/StatementGraph.h"
#include "ModuleModes.h"

#include "detc/ir/DetcOps.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>

using namespace detc;
using namespace detc::analysis;
using namespace mlir;
using llvm::SmallVector;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Small pieces
//===----------------------------------------------------------------------===//

VarId VarTable::intern(StringRef name) {
  auto [it, inserted] = ids.try_emplace(name, names.size());
  if (inserted)
    names.push_back(it->getKey());
  return it->second;
}

VarId VarTable::lookup(StringRef name) const {
  auto it = ids.find(name);
  return it == ids.end() ? ~0u : it->second;
}

void VarTable::computeObjects() {
  object.resize(names.size());
  attrs.assign(names.size(), {});
  locals.clear();
  for (VarId v = 0; v < names.size(); ++v) {
    object[v] = v;
    StringRef name = names[v];
    size_t slash = name.find('/');
    if (slash != StringRef::npos)
      locals[name.take_front(slash)].push_back(v);
    size_t dot = name.find('.', slash == StringRef::npos ? 0 : slash);
    if (dot == StringRef::npos)
      continue;
    VarId root = lookup(name.take_front(dot));
    if (root == ~0u)
      continue;
    object[v] = root;
    attrs[root].push_back(v);
  }
}

StringRef detc::analysis::stringifyNodeKind(NodeKind kind) {
  switch (kind) {
  case NodeKind::Entry:
    return "entry";
  case NodeKind::Exit:
    return "exit";
  case NodeKind::Stmt:
    return "stmt";
  case NodeKind::Create:
    return "create";
  case NodeKind::Draw:
    return "draw";
  case NodeKind::ParBegin:
    return "parallel_begin";
  case NodeKind::ParEnd:
    return "parallel_end";
  case NodeKind::Checkpoint:
    return "checkpoint";
  case NodeKind::Hint:
    return "hint";
  case NodeKind::Update:
    return "update";
  case NodeKind::Branch:
    return "branch";
  case NodeKind::CallEnter:
    return "call_enter";
  case NodeKind::CallExit:
    return "call_exit";
  case NodeKind::FuncExit:
    return "func_exit";
  case NodeKind::Join:
    return "join";
  }
  return "?";
}

NodeId StatementGraph::addNode() {
  if ((count & kChunkMask) == 0)
    chunks.push_back(std::make_unique<Node[]>(size_t(1) << kChunkBits));
  return NodeId(count++);
}

void StatementGraph::indexEdges() {
  size_t n = numNodes();
  // Every edge indexed so far, then the new ones: a stable counting sort by
  // source (successors) and by target (predecessors) keeps each node's
  // edges in the order they were added.
  std::vector<std::pair<NodeId, NodeId>> edges;
  for (NodeId v = 0; v + 1 < succ.offset.size(); ++v)
    for (NodeId w : succ.of(v))
      edges.push_back({v, w});
  edges.insert(edges.end(), newEdges.begin(), newEdges.end());
  newEdges = {};
  auto fill = [&](Adjacency &adj, bool bySource) {
    adj.offset.assign(n + 1, 0);
    for (auto [from, to] : edges)
      ++adj.offset[(bySource ? from : to) + 1];
    for (size_t v = 0; v < n; ++v)
      adj.offset[v + 1] += adj.offset[v];
    adj.nodes.assign(edges.size(), kNoNode);
    std::vector<unsigned> next(adj.offset.begin(), adj.offset.end() - 1);
    for (auto [from, to] : edges)
      adj.nodes[next[bySource ? from : to]++] = bySource ? to : from;
  };
  fill(succ, /*bySource=*/true);
  fill(pred, /*bySource=*/false);
}

std::string StatementGraph::canonicalName(unsigned inst, StringRef raw) const {
  if (raw.starts_with("@") || raw.starts_with("<"))
    return raw.str();
  auto [root, rest] = raw.split('.');
  std::string suffix = rest.empty() ? "" : ("." + rest).str();
  if (root.starts_with("^")) {
    // A closure variable: the nearest enclosing function's instance on
    // the call chain.
    StringRef fn = instances[inst].function;
    for (unsigned i = instances[inst].parent; i != ~0u;
         i = instances[i].parent) {
      StringRef outer = instances[i].function;
      if (fn.starts_with(outer) && fn.size() > outer.size() &&
          fn[outer.size()] == '.')
        return canonicalName(i, (root.drop_front() + suffix).str());
    }
    return raw.str();
  }
  const Instance &in = instances[inst];
  if (auto it = in.aliases.find(root); it != in.aliases.end())
    return it->second + suffix;
  return in.qualifier + "/" + raw.str();
}

VarId StatementGraph::spelledIn(NodeId n, llvm::ArrayRef<VarId> vars,
                                llvm::StringRef name) const {
  llvm::StringRef bare = name.ltrim('@');
  if (unsigned inst = node(n).instance; inst < instances.size()) {
    const auto &aliases = instances[inst].aliases;
    auto [root, rest] = bare.split('.');
    if (auto it = aliases.find(root); it != aliases.end()) {
      std::string canonical =
          rest.empty() ? it->second : it->second + "." + rest.str();
      VarId v = this->vars.lookup(canonical);
      if (v != ~0u && llvm::is_contained(vars, v))
        return v;
    }
    // A variable of an enclosing function a closure reads (`^ac.pi`,
    // spinningup's `compute_loss_pi` running `ac.pi`): that function's.
    if (bare.starts_with("^")) {
      VarId v = this->vars.lookup(canonicalName(inst, bare));
      if (v != ~0u && llvm::is_contained(vars, v))
        return v;
    }
  }
  for (VarId v : vars)
    if (displayName(v) == bare)
      return v;
  return ~0u;
}

std::string StatementGraph::displayName(VarId v) const {
  StringRef name = vars.name(v);
  size_t slash = name.find('/');
  if (slash != StringRef::npos)
    name = name.drop_front(slash + 1);
  return name.ltrim('@').str();
}

SmallVector<NodeId, 4> StatementGraph::callPath(NodeId n, NodeId stopAt) const {
  SmallVector<NodeId, 4> chain;
  for (NodeId c = node(n).caller; c != kNoNode && c != stopAt;
       c = node(c).caller)
    chain.push_back(c);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

SourcePoint detc::analysis::sourcePoint(Operation *op) {
  SourcePoint p;
  if (!op)
    return p;
  if (std::optional<ir::SourcePosition> at =
          ir::getSourcePosition(op->getLoc())) {
    p.file = at->file.str();
    p.line = at->line;
    p.column = at->column;
  }
  return p;
}

//===----------------------------------------------------------------------===//
// The builder
//===----------------------------------------------------------------------===//

namespace {
using Frontier = SmallVector<NodeId, 4>;

/// Where the statements being emitted sit.
struct Ctx {
  unsigned inst = 0;
  NodeId region = kNoNode;
  NodeId control = kNoNode;
  NodeId caller = kNoNode;
  /// Inside a model forward or a batch fetch: work fast-forward skips.
  bool expensive = false;
  SmallVector<NodeId, 2> loops;
  unsigned loopsId = 0; ///< `loops` in the graph (StatementGraph::loops).
  Frontier *breaks = nullptr, *continues = nullptr;
  Frontier *returns = nullptr;
  /// Handler entries of the innermost `try` of this instance.
  SmallVector<NodeId, 2> *handlers = nullptr;
  /// In a build region expanded for a forward: the forward's inputs (its
  /// uses but the model), which the build's call passes to the parameters
  /// it does not bind (`x` of `forward(self, x)`).
  SmallVector<VarId, 2> forwardInputs;
};

class GraphBuilder {
public:
  GraphBuilder(StatementGraph &g, ModuleOp module,
               const StatementGraphOptions &options)
      : g(g), options(options) {
    for (Operation &op : module.getBody()->getOperations()) {
      if (auto f = dyn_cast<ir::FuncOp>(op))
        funcs[f.getSymName()] = f;
      if (auto c = dyn_cast<ir::ClassOp>(op))
        for (Operation &m : c.getBody().front())
          if (auto f = dyn_cast<ir::FuncOp>(m))
            funcs[(c.getSymName() + "::" + f.getSymName()).str()] = f;
    }
    module.walk([&](ir::BuildOp b) { builds[b.getId()] = b; });
    for (auto &entry : funcs)
      symbolOf[entry.second] = entry.first().str();
  }

  /// The statement that defines `v` last on the straight line before `n`
  /// (each node on the way has one predecessor), or kNoNode.
  NodeId straightDefinition(NodeId n, VarId v) const {
    for (unsigned steps = 0; steps < 64; ++steps) {
      llvm::ArrayRef<NodeId> preds = g.predecessors(n);
      if (preds.size() != 1)
        return kNoNode;
      n = preds.front();
      const Node &node = g.node(n);
      if (llvm::is_contained(node.defs, v))
        return n;
      if (llvm::is_contained(node.updates, v))
        return kNoNode;
    }
    return kNoNode;
  }

  /// A checkpoint saving `state` saves what `state` restores, transitively
  /// (`state = {"model": model.state_dict(), ...}` built by the caller of
  /// the helper that saves it). Where the dict is built on the straight
  /// line before the save, what that assignment restores (RepDistiller
  /// builds `state` twice in its epoch loop, a best and a regular one: each
  /// save saves its own dict, not both).
  void addRestoredBySaved() {
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      Node &node = g.node(n);
      if (node.kind != NodeKind::Checkpoint)
        continue;
      llvm::SetVector<VarId> saved(g.saved(n).begin(), g.saved(n).end());
      size_t direct = saved.size();
      for (size_t i = 0; i < saved.size(); ++i) {
        if (i < direct) {
          NodeId def = straightDefinition(n, saved[i]);
          auto it = def == kNoNode ? restoresAt.end() : restoresAt.find(def);
          if (it != restoresAt.end()) {
            saved.insert(it->second.begin(), it->second.end());
            continue;
          }
        }
        if (auto it = restores.find(saved[i]); it != restores.end())
          saved.insert(it->second.begin(), it->second.end());
      }
      g.saved(n).assign(saved.begin(), saved.end());
    }
  }

  void run() {
    g.entry = add(NodeKind::Entry, nullptr, rootCtx());
    g.exit = kNoNode;
    ir::FuncOp main = funcs.lookup("__main__");
    if (!main)
      main = funcs.lookup("main");
    Frontier f{g.entry};
    if (main) {
      unsigned inst = newInstance(symbolOf[main], kNoNode, ~0u);
      f = expandBody(main, f, inst, rootCtx());
    }
    f = expandEntries(main, f);
    Ctx c = rootCtx();
    g.exit = add(NodeKind::Exit, nullptr, c);
    connect(f, g.exit);
    connect(uncaught, g.exit);
    if (g.truncated)
      for (const auto &e : instanceCount)
        if (e.getValue() > g.mostExpandedTimes) {
          g.mostExpandedTimes = e.getValue();
          g.mostExpanded = entryDisplayName(e.getKey());
        }
  }

private:
  StatementGraph &g;
  const StatementGraphOptions &options;
  llvm::StringMap<ir::FuncOp> funcs;
  llvm::DenseMap<Operation *, std::string> symbolOf;
  llvm::StringMap<ir::BuildOp> builds;
  llvm::StringMap<unsigned> instanceCount;
  /// How often each build's region was expanded for a forward.
  llvm::StringMap<unsigned> buildCount;
  llvm::DenseMap<Operation *, llvm::StringSet<>> reboundCache;
  /// Instances standing for a function's namespace when a build region of
  /// that function runs outside any call of it (e.g. `__init__`'s layers).
  llvm::StringMap<unsigned> staticInstance;
  llvm::StringSet<> activeFuncs, activeBuilds;

  Ctx rootCtx() { return Ctx{}; }

  /// What a variable's value restores when saved (`restores` of the
  /// statements defining or updating it; flow-insensitive per instance).
  llvm::DenseMap<VarId, llvm::SetVector<VarId>> restores;
  /// What each statement with `restores` restores (the flow-sensitive
  /// view of `restores`).
  llvm::DenseMap<NodeId, llvm::SmallVector<VarId, 4>> restoresAt;

  /// Library-style code: the entries run after the module body, each any
  /// number of times in any order (a loop over a choice), their parameters
  /// defined with unknown values.
  Frontier expandEntries(ir::FuncOp main, Frontier f) {
    std::vector<std::string> entries = options.entries;
    if (entries.empty() && main && !runsSomething(main)) {
      g.libraryEntries = true;
      entries = publicFunctions(main->getParentOfType<ModuleOp>());
    } else if (entries.empty() && main) {
      entries = handedToUnreadDecorators(main);
    }
    if (entries.empty())
      return f;
    NodeId driver = add(NodeKind::Join, nullptr, rootCtx());
    connect(f, driver);
    for (const std::string &sym : entries) {
      ir::FuncOp fn = funcs.lookup(sym);
      if (!fn)
        continue;
      g.entries.push_back(sym);
      unsigned inst = newInstance(sym, kNoNode, ~0u);
      Ctx c = rootCtx();
      c.inst = inst;
      NodeId params = add(NodeKind::Stmt, fn, c);
      for (Attribute a : fn.getParams())
        g.node(params).defs.push_back(g.vars.intern(
            canonical(inst, cast<StringAttr>(a).getValue())));
      connect({driver}, params);
      activeFuncs.insert(sym);
      Frontier out = expandBody(fn, {params}, inst, rootCtx());
      activeFuncs.erase(sym);
      connect(out, driver);
    }
    return {driver};
  }

  /// Whether the module body does what a program does: calls one of the
  /// script's functions, loops, trains or draws. Library-style code only
  /// defines things (and parses arguments, sets constants).
  bool runsSomething(ir::FuncOp main) {
    if (instanceCount.size() > 1)
      return true;
    bool found = false;
    main.walk([&](Operation *op) {
      if (isa<ir::ForOp, ir::WhileOp, ir::CallOp, ir::ForwardOp, ir::FetchOp,
              ir::DrawOp, ir::GradOp, ir::UpdateOp, ir::CheckpointOp,
              ir::HintOp, ir::ParallelOp>(op))
        found = true;
    });
    return found;
  }

  /// The script's module-level functions that a decorator detc cannot
  /// read was given (`unread_decorator` on the `def`) and that no
  /// call of the program runs: the library may run them, from its own
  /// dispatch (click's `@cli.command()`, typer's `@app.command()`:
  /// kazuto1011/deeplab-pytorch's `train` command ran nowhere, and its
  /// loader's augmentation was silent).
  static std::vector<std::string> handedToUnreadDecorators(ir::FuncOp main) {
    ModuleOp module = main->getParentOfType<ModuleOp>();
    llvm::SmallVector<std::string> decorated;
    for (Operation &op : main.getBody().front()) {
      auto def = dyn_cast<ir::StmtOp>(op);
      if (!def || def.getKind() != "def" || !def.getSymbolAttr() ||
          !def->hasAttr("unread_decorator"))
        continue;
      std::string sym = def.getSymbolAttr().getRootReference().str();
      if (module.lookupSymbol<ir::FuncOp>(sym))
        decorated.push_back(sym);
    }
    // Run by a call of the program outside them (a call from one of them,
    // or from one only an `eval` of theirs may pick, counts for nothing:
    // deeplab's `test` evaluates a model name that may be any function).
    auto inDecorated = [&](Operation *op) {
      for (auto fn = op->getParentOfType<ir::FuncOp>(); fn;
           fn = fn->getParentOfType<ir::FuncOp>()) {
        llvm::StringRef name = fn.getSymName();
        if (llvm::any_of(decorated, [&](const std::string &d) {
              return name == d || (name.starts_with(d) &&
                                   name.drop_front(d.size()).starts_with("."));
            }))
          return true;
      }
      return false;
    };
    llvm::StringSet<> called;
    module.walk([&](ir::CallOp call) {
      if (!inDecorated(call))
        called.insert(calleeSymbol(call));
    });
    std::vector<std::string> out;
    for (const std::string &sym : decorated)
      if (!called.contains(sym))
        out.push_back(sym);
    return out;
  }

  /// Module-level functions of the main script and methods of its classes
  /// whose names do not start with `_`, in source order.
  static std::vector<std::string> publicFunctions(ModuleOp module) {
    std::vector<std::string> out;
    auto isPublic = [](StringRef name) {
      return !name.starts_with("_") && !name.contains('.');
    };
    for (Operation &op : module.getBody()->getOperations()) {
      if (auto f = dyn_cast<ir::FuncOp>(op)) {
        if (f.getKind() == ir::FuncKind::Function && isPublic(f.getSymName()))
          out.push_back(f.getSymName().str());
        continue;
      }
      auto c = dyn_cast<ir::ClassOp>(op);
      if (!c || !isPublic(c.getSymName()))
        continue;
      for (Operation &m : c.getBody().front())
        if (auto f = dyn_cast<ir::FuncOp>(m); f && isPublic(f.getSymName()))
          out.push_back((c.getSymName() + "::" + f.getSymName()).str());
    }
    return out;
  }

  NodeId add(NodeKind kind, Operation *op, const Ctx &c) {
    if (g.numNodes() >= options.maxNodes)
      g.truncated = true;
    NodeId n = g.addNode();
    Node &node = g.node(n);
    node.kind = kind;
    node.op = op;
    node.instance = c.inst;
    node.region = c.region;
    node.control = c.control;
    node.caller = c.caller;
    node.expensive = c.expensive;
    node.loopsId = c.loopsId;
    return n;
  }

  void connect(const Frontier &from, NodeId to) {
    for (NodeId f : from)
      g.addEdge(f, to);
  }

  unsigned newInstance(const std::string &fn, NodeId callSite,
                       unsigned parent) {
    unsigned k = ++instanceCount[fn];
    Instance inst;
    inst.function = fn;
    inst.qualifier = k == 1 ? fn : fn + "#" + std::to_string(k);
    inst.callSite = callSite;
    inst.parent = parent;
    g.instances.push_back(std::move(inst));
    return g.instances.size() - 1;
  }

  /// Canonical name of `raw` read or written in instance `inst`
  /// (StatementGraph::canonicalName, which CallerNames reads too).
  std::string canonical(unsigned inst, StringRef raw) {
    return g.canonicalName(inst, raw);
  }

  void fillVars(Node &node, Operation *op, unsigned inst) {
    auto fill = [&](StringRef attr, IdList &out) {
      for (Attribute a : ir::detail::getVarList(op, attr))
        out.push_back(
            g.vars.intern(canonical(inst, cast<StringAttr>(a).getValue())));
    };
    fill("defs", node.defs);
    fill("updates", node.updates);
    fill("uses", node.uses);
  }

  /// A node for `op` carrying the op's variables.
  NodeId stmt(NodeKind kind, Operation *op, Frontier &f, const Ctx &c) {
    NodeId n = add(kind, op, c);
    fillVars(g.node(n), op, c.inst);
    if (auto s = dyn_cast<ir::StmtOp>(op); s && s.getRestoresAttr()) {
      const Node &node = g.node(n);
      for (Attribute a : s.getRestoresAttr()) {
        VarId r = g.vars.intern(canonical(c.inst, cast<StringAttr>(a).getValue()));
        restoresAt[n].push_back(r);
        for (VarId v : node.defs)
          restores[v].insert(r);
        for (VarId v : node.updates)
          restores[v].insert(r);
      }
    }
    connect(f, n);
    f = {n};
    return n;
  }

  /// Parameters a function assigns to: those cannot alias the caller's
  /// variable.
  const llvm::StringSet<> &rebound(ir::FuncOp fn) {
    auto [it, inserted] = reboundCache.try_emplace(fn);
    if (inserted) {
      llvm::StringSet<> params;
      for (Attribute a : fn.getParams())
        params.insert(cast<StringAttr>(a).getValue());
      fn.walk([&](Operation *op) {
        for (StringRef list : {"defs"})
          for (Attribute a : ir::detail::getVarList(op, list)) {
            StringRef v = cast<StringAttr>(a).getValue();
            if (params.contains(v))
              it->second.insert(v);
          }
      });
    }
    return it->second;
  }

  Frontier expandBody(ir::FuncOp fn, Frontier in, unsigned inst,
                      const Ctx &outer) {
    Ctx c = outer;
    c.inst = inst;
    Frontier returns;
    c.returns = &returns;
    c.breaks = c.continues = nullptr;
    c.handlers = nullptr;
    activeFuncs.insert(g.instances[inst].function);
    Frontier out = block(fn.getBody().front(), in, c);
    activeFuncs.erase(g.instances[inst].function);
    NodeId exitNode = add(NodeKind::FuncExit, fn, c);
    connect(out, exitNode);
    connect(returns, exitNode);
    return {exitNode};
  }

  Frontier block(Block &b, Frontier f, Ctx &c) {
    for (Operation &op : b.getOperations()) {
      if (isa<ir::YieldOp>(op))
        continue;
      if (g.truncated)
        return f;
      f = statement(&op, f, c);
    }
    return f;
  }

  Frontier region(Region &r, Frontier f, Ctx &c) {
    if (r.empty())
      return f;
    return block(r.front(), f, c);
  }

  Frontier statement(Operation *op, Frontier f, Ctx &c) {
    return llvm::TypeSwitch<Operation *, Frontier>(op)
        .Case<ir::GlobalGeneratorOp>([&](auto) {
          NodeId n = stmt(NodeKind::Create, op, f, c);
          g.node(n).global = true;
          g.node(n).genVar = g.node(n).defs.front();
          return f;
        })
        .Case<ir::CreateGeneratorOp>([&](ir::CreateGeneratorOp cg) {
          NodeId n = stmt(NodeKind::Create, op, f, c);
          Node &node = g.node(n);
          node.genVar = node.defs.front();
          node.global = g.vars.name(node.genVar).starts_with("<");
          node.reseed = cg.getReseed() && !node.global;
          return f;
        })
        .Case<ir::DrawOp>([&](ir::DrawOp d) {
          NodeId n = stmt(NodeKind::Draw, op, f, c);
          g.node(n).genVar = g.vars.intern(canonical(c.inst, d.getGen()));
          return f;
        })
        .Case<ir::ParallelOp>([&](ir::ParallelOp p) {
          NodeId begin = stmt(NodeKind::ParBegin, op, f, c);
          Ctx inner = c;
          inner.region = begin;
          // A `continue`, `break` or `return` inside the region leaves it:
          // each kind of jump goes through a region end of its own.
          Frontier breaks, continues, returns;
          inner.breaks = c.breaks ? &breaks : nullptr;
          inner.continues = c.continues ? &continues : nullptr;
          inner.returns = c.returns ? &returns : nullptr;
          f = region(p.getBody(), f, inner);
          NodeId end = regionEnd(begin, c);
          connect(f, end);
          g.node(begin).pair = end;
          for (auto [jumps, outer] : {std::pair(&breaks, c.breaks),
                                      std::pair(&continues, c.continues),
                                      std::pair(&returns, c.returns)}) {
            if (jumps->empty())
              continue;
            NodeId exit = regionEnd(begin, c);
            connect(*jumps, exit);
            outer->push_back(exit);
          }
          return Frontier{end};
        })
        .Case<ir::FetchOp>([&](ir::FetchOp fe) {
          Ctx inner = c;
          inner.expensive = true;
          f = region(fe.getBody(), f, inner);
          g.node(stmt(NodeKind::Stmt, op, f, c)).expensive = true;
          return f;
        })
        .Case<ir::ForwardOp>([&](ir::ForwardOp fw) {
          f = forward(fw, f, c);
          g.node(stmt(NodeKind::Stmt, op, f, c)).expensive = true;
          return f;
        })
        .Case<ir::GradOp>([&](auto) {
          g.node(stmt(NodeKind::Stmt, op, f, c)).expensive = true;
          return f;
        })
        .Case<ir::UpdateOp>([&](auto) {
          g.node(stmt(NodeKind::Update, op, f, c)).expensive = true;
          return f;
        })
        .Case<ir::BatchesOp>([&](ir::BatchesOp b) {
          NodeId n = stmt(NodeKind::Stmt, op, f, c);
          // The loader holds its dataset: `loader.dataset` is `ds`.
          if (g.node(n).defs.size() == 1) {
            NodeId copy = add(NodeKind::Stmt, op, c);
            Node &node = g.node(copy);
            node.defs.push_back(g.vars.intern(
                (g.vars.name(g.node(n).defs[0]) + ".dataset").str()));
            node.uses.push_back(
                g.vars.intern(canonical(c.inst, b.getDataset())));
            node.copy = true;
            connect(f, copy);
            f = {copy};
          }
          return f;
        })
        .Case<ir::CheckpointOp>([&](ir::CheckpointOp cp) {
          NodeId n = stmt(NodeKind::Checkpoint, op, f, c);
          for (Attribute a : cp.getSaved())
            g.saved(n).push_back(g.vars.intern(
                canonical(c.inst, cast<StringAttr>(a).getValue())));
          return f;
        })
        .Case<ir::HintOp>([&](auto) {
          stmt(NodeKind::Hint, op, f, c);
          return f;
        })
        .Case<ir::ForOp, ir::WhileOp>([&](auto loop) {
          return loopStmt(op, loop.getBody(), loop.getOrelse(), f, c);
        })
        .Case<ir::IfOp>([&](ir::IfOp i) {
          NodeId test = stmt(NodeKind::Branch, op, f, c);
          Ctx inner = c;
          inner.control = test;
          // `if optimizer:` where this expansion's call gave None: only
          // the branch that runs then.
          auto param = op->getAttrOfType<StringAttr>("none_param");
          if (param && c.inst < g.instances.size() &&
              g.instances[c.inst].noneParams.contains(param.getValue())) {
            bool thenRuns = op->getAttrOfType<StringAttr>("if_none") &&
                            op->getAttrOfType<StringAttr>("if_none")
                                    .getValue() == "then";
            return region(thenRuns ? i.getThenRegion() : i.getElseRegion(),
                          {test}, inner);
          }
          // `if phase == 'train':` where this expansion's call gave
          // `phase` a string: the branch that runs with it.
          auto strParam = op->getAttrOfType<StringAttr>("str_param");
          if (strParam && c.inst < g.instances.size())
            if (auto given = g.instances[c.inst].strParams.find(
                    strParam.getValue());
                given != g.instances[c.inst].strParams.end()) {
              auto value = op->getAttrOfType<StringAttr>("str_value");
              auto ifEqual = op->getAttrOfType<StringAttr>("if_equal");
              bool equal = value && value.getValue() == given->second;
              bool thenRuns =
                  equal == (ifEqual && ifEqual.getValue() == "then");
              return region(thenRuns ? i.getThenRegion()
                                     : i.getElseRegion(),
                            {test}, inner);
            }
          Frontier out = region(i.getThenRegion(), {test}, inner);
          Frontier other = region(i.getElseRegion(), {test}, inner);
          out.append(other.begin(), other.end());
          return out;
        })
        .Case<ir::TryOp>([&](ir::TryOp t) { return tryStmt(t, f, c); })
        .Case<ir::WithOp>([&](ir::WithOp w) {
          stmt(NodeKind::Stmt, op, f, c);
          return region(w.getBody(), f, c);
        })
        .Case<ir::CallOp>([&](ir::CallOp call) { return callStmt(call, f, c); })
        .Case<ir::ReturnOp>([&](auto) {
          NodeId n = add(NodeKind::Stmt, op, c);
          Node &node = g.node(n);
          fillVars(node, op, c.inst);
          node.defs.push_back(g.vars.intern(canonical(c.inst, "$ret")));
          node.copy = node.uses.size() == 1;
          connect(f, n);
          if (c.returns)
            c.returns->push_back(n);
          return Frontier{};
        })
        .Case<ir::BreakOp>([&](auto) {
          stmt(NodeKind::Stmt, op, f, c);
          if (c.breaks)
            c.breaks->append(f.begin(), f.end());
          return Frontier{};
        })
        .Case<ir::ContinueOp>([&](auto) {
          stmt(NodeKind::Stmt, op, f, c);
          if (c.continues)
            c.continues->append(f.begin(), f.end());
          return Frontier{};
        })
        .Case<ir::RaiseOp>([&](auto) {
          NodeId n = stmt(NodeKind::Stmt, op, f, c);
          if (c.handlers)
            for (NodeId h : *c.handlers)
              connect(f, h);
          else
            raiseOut(n, c);
          return Frontier{};
        })
        .Case<ir::FuncOp, ir::ClassOp>([&](auto) { return f; })
        .Default([&](Operation *) {
          NodeId n = stmt(NodeKind::Stmt, op, f, c);
          if (auto s = dyn_cast<ir::StmtOp>(op))
            g.node(n).copy = s.getCopy();
          return f;
        });
  }

  Frontier loopStmt(Operation *op, Region &body, Region &orelse, Frontier f,
                    Ctx &c) {
    NodeId head = stmt(NodeKind::Branch, op, f, c);
    Ctx inner = c;
    inner.control = head;
    inner.loops.push_back(head);
    inner.loopsId = g.addLoops(inner.loops);
    Frontier breaks, continues;
    inner.breaks = &breaks;
    inner.continues = &continues;
    Frontier end = region(body, {head}, inner);
    connect(end, head);
    connect(continues, head);
    Frontier out = region(orelse, {head}, c);
    out.append(breaks.begin(), breaks.end());
    return out;
  }

  /// A `raise` no `try` of its own call catches: the exception leaves the
  /// call. A caller's `try` around the call catches it (tryStmt gives each
  /// node of its body, callees' included, an edge to the handlers);
  /// uncaught, it ends the program, leaving each data-parallel region it
  /// is in through an end of its own. The caller does not go on after the
  /// call: it did, and a helper that switched the model to evaluation
  /// mode, raised on a bad value and else switched it back was reported
  /// as leaving it in evaluation mode (Real-Time-Voice-Cloning's
  /// `WaveRNN.generate`).
  void raiseOut(NodeId n, const Ctx &c) {
    NodeId at = n;
    for (NodeId r = c.region; r != kNoNode; r = g.node(r).region) {
      Ctx outer = c;
      outer.region = g.node(r).region;
      NodeId end = regionEnd(r, outer);
      g.addEdge(at, end);
      at = end;
    }
    uncaught.push_back(at);
  }

  /// A way out of the data-parallel region `begin` starts (its end, or the
  /// end a jump or an exception leaving it goes through), a node of `c`.
  NodeId regionEnd(NodeId begin, const Ctx &c) {
    NodeId end = add(NodeKind::ParEnd, g.node(begin).op, c);
    g.node(end).pair = begin;
    return end;
  }
  /// The ends of the paths an uncaught exception takes (to the exit).
  Frontier uncaught;

  Frontier tryStmt(ir::TryOp t, Frontier f, Ctx &c) {
    SmallVector<NodeId, 2> handlerEntries;
    for (size_t i = 0, e = t.getHandlers().size(); i < e; ++i)
      handlerEntries.push_back(add(NodeKind::Join, t, c));
    Ctx inner = c;
    if (!handlerEntries.empty())
      inner.handlers = &handlerEntries;
    NodeId firstBody = g.numNodes();
    // An exception may come before the body's first statement completes.
    for (NodeId h : handlerEntries)
      connect(f, h);
    Frontier body = region(t.getBody(), f, inner);
    // Any statement of the body may raise into a handler. One inside a
    // data-parallel region of the body leaves the region on the way, as a
    // `break` or `return` does: through a region end of its own (a
    // prefetcher's `try: batch = next(it) except StopIteration:` continued
    // with every generator unsafe after its fetch).
    NodeId lastBody = g.numNodes();
    llvm::DenseMap<NodeId, NodeId> raisedEnds;
    for (NodeId n = firstBody; n < lastBody; ++n) {
      // (A region's begin is in it: its out-state is the region's.)
      NodeId left = kNoNode;
      for (NodeId r = g.node(n).kind == NodeKind::ParBegin ? n
                                                           : g.node(n).region;
           r != kNoNode && r != c.region; r = g.node(r).region)
        left = r;
      if (left == kNoNode) {
        for (NodeId h : handlerEntries)
          g.addEdge(n, h);
        continue;
      }
      auto [it, added] = raisedEnds.try_emplace(left, kNoNode);
      if (added) {
        it->second = regionEnd(left, c);
        for (NodeId h : handlerEntries)
          g.addEdge(it->second, h);
      }
      g.addEdge(n, it->second);
    }
    Frontier out = region(t.getOrelse(), body, c);
    for (auto [i, r] : llvm::enumerate(t.getHandlers())) {
      Frontier h = region(r, {handlerEntries[i]}, c);
      out.append(h.begin(), h.end());
    }
    return region(t.getFinalbody(), out, c);
  }

  Frontier callStmt(ir::CallOp call, Frontier f, Ctx &c) {
    std::string sym = calleeSymbol(call);
    ir::FuncOp fn = funcs.lookup(sym);
    if (!fn || activeFuncs.contains(sym)) {
      // Unknown or recursive: an opaque statement.
      stmt(NodeKind::Stmt, call, f, c);
      return f;
    }
    // Once the graph holds a quarter of its limit, a function expanded
    // once already is summarized too (a training loop whose model may be
    // any of a zoo's thousand models: each expansion is large).
    if (summarizes(instanceCount.lookup(sym)))
      if (const Summary *summary = summaryOf(fn.getOperation()))
        return summarizedCall(call, *summary, f, c);
    NodeId enter = add(NodeKind::CallEnter, call, c);
    connect(f, enter);
    unsigned inst = newInstance(sym, enter, c.inst);
    Frontier body{enter};
    // A constructor (`x = C()`, `self` bound to x): the object exists
    // before `__init__` runs and stores its attributes, which reads x;
    // defining x only at the call's exit would make it live before the
    // call (and around every loop the call is in).
    if (DictionaryAttr bind = call.getBindAttr();
        bind && StringRef(sym).ends_with("::__init__")) {
      SmallVector<VarId, 1> made;
      for (Attribute d : ir::detail::getVarList(call, "defs"))
        for (NamedAttribute b : bind)
          if (cast<StringAttr>(b.getValue()) == cast<StringAttr>(d))
            made.push_back(g.vars.intern(
                canonical(c.inst, cast<StringAttr>(d).getValue())));
      if (!made.empty()) {
        NodeId n = add(NodeKind::Stmt, call, c);
        g.node(n).defs.assign(made.begin(), made.end());
        connect(body, n);
        body = {n};
      }
    }
    const llvm::StringSet<> &reb = rebound(fn);
    if (auto none = call->getAttrOfType<ArrayAttr>("none_params"))
      for (Attribute a : none)
        if (!reb.contains(cast<StringAttr>(a).getValue()))
          g.instances[inst].noneParams.insert(cast<StringAttr>(a).getValue());
    if (auto strs = call->getAttrOfType<DictionaryAttr>("str_params"))
      for (NamedAttribute a : strs)
        if (!reb.contains(a.getName().getValue()))
          g.instances[inst].strParams[a.getName().getValue()] =
              cast<StringAttr>(a.getValue()).getValue().str();
    if (DictionaryAttr bind = call.getBindAttr())
      for (NamedAttribute b : bind) {
        StringRef param = b.getName().getValue();
        std::string arg =
            canonical(c.inst, cast<StringAttr>(b.getValue()).getValue());
        if (!reb.contains(param)) {
          g.instances[inst].aliases[param] = arg;
          continue;
        }
        Ctx bc = c;
        bc.inst = inst;
        bc.caller = enter;
        NodeId copy = add(NodeKind::Stmt, call, bc);
        Node &node = g.node(copy);
        node.defs.push_back(g.vars.intern(canonical(inst, param)));
        node.uses.push_back(g.vars.intern(arg));
        node.copy = true;
        connect(body, copy);
        body = {copy};
      }
    Ctx callee = c;
    callee.caller = enter;
    callee.forwardInputs.clear();
    // Parameters the call does not bind take their default values here, or
    // in a forward's expansion the forward's inputs (which one goes to
    // which parameter is not recorded: each may come from any of them).
    DictionaryAttr bound = call.getBindAttr();
    SmallVector<VarId, 4> defaults;
    for (Attribute a : fn.getParams()) {
      StringRef p = cast<StringAttr>(a).getValue();
      if (!bound || !bound.get(p))
        defaults.push_back(g.vars.intern(canonical(inst, p)));
    }
    if (!defaults.empty()) {
      Ctx dc = callee;
      dc.inst = inst;
      NodeId d = add(NodeKind::Stmt, call, dc);
      g.node(d).defs.assign(defaults.begin(), defaults.end());
      g.node(d).uses.assign(c.forwardInputs.begin(), c.forwardInputs.end());
      connect(body, d);
      body = {d};
    }
    body = expandBody(fn, body, inst, callee);
    NodeId exitNode = add(NodeKind::CallExit, call, c);
    Node &node = g.node(exitNode);
    fillVars(node, call, c.inst);
    // The arguments were read at the call; the callee's statements read
    // them where they use them. What the call itself reads is its result,
    // when it keeps it and the callee returns one (a constructor's
    // `__init__` does not: reading its never-defined `$ret` would keep it
    // live back to the program start).
    node.uses.clear();
    if ((!node.defs.empty() || !node.updates.empty()) && returnsValue(fn))
      node.uses.push_back(g.vars.intern(canonical(inst, "$ret")));
    node.copy = node.defs.size() == 1;
    connect(body, exitNode);
    return {exitNode};
  }

  /// What a call of a function summarized stands for: the draws its code
  /// may make, and a data-parallel region its code (or a wrapper it
  /// forwards: DistributedDataParallel's) opens, if any.
  struct Summary {
    /// Draws, gradients, and statements calling code detc does not read
    /// (their `unread_calls`: may-draw findings), in the order found.
    SmallVector<Operation *> events;
    ir::ParallelOp region;
    /// Which events run inside `region`: nested in it, or in code called
    /// or forwarded from inside it.
    llvm::BitVector inRegion;
  };

  /// A call of a function expanded often enough: the call's statement
  /// (its arguments, result and updates, as the call's exit has them),
  /// then each draw its code may make, in the namespace of a stand-in
  /// instance of the draw's function; those that run inside the region
  /// its code opens (if it opens one) inside it: a model built before a
  /// `DataParallel` wraps it is not built by the replicas.
  Frontier summarizedCall(ir::CallOp call, const Summary &summary,
                          Frontier f, Ctx &c) {
    NodeId enter = add(NodeKind::CallEnter, call, c);
    connect(f, enter);
    Ctx inner = c;
    inner.caller = enter;
    f = summarized(summary, {enter}, inner);
    NodeId exitNode = add(NodeKind::CallExit, call, c);
    fillVars(g.node(exitNode), call, c.inst);
    connect(f, exitNode);
    return {exitNode};
  }

  /// Whether a function or build expanded `expanded` times already is
  /// summarized (StatementGraphOptions::summarizeAfter).
  bool summarizes(unsigned expanded) const {
    return options.summarizeAfter &&
           (expanded >= options.summarizeAfter ||
            (expanded > 0 && g.numNodes() > options.maxNodes / 16));
  }

  /// The region and draws of `summary`, after `f`, in `c`.
  Frontier summarized(const Summary &summary, Frontier f, const Ctx &c) {
    Ctx inner = c;
    NodeId begin = kNoNode;
    // The region opens before the first event in it and closes after the
    // last one in a row (again if events outside it come between).
    auto close = [&] {
      if (begin == kNoNode)
        return;
      NodeId end = add(NodeKind::ParEnd, summary.region, c);
      connect(f, end);
      g.node(end).pair = begin;
      g.node(begin).pair = end;
      f = {end};
      begin = kNoNode;
      inner.region = c.region;
    };
    // (A summary whose region holds no event: the region still runs.)
    bool regionRuns = summary.region && summary.inRegion.none();
    if (regionRuns) {
      begin = stmt(NodeKind::ParBegin, summary.region, f, inner);
      inner.region = begin;
    }
    for (auto [index, op] : llvm::enumerate(summary.events)) {
      if (summary.region && summary.inRegion.test(index) && begin == kNoNode) {
        begin = stmt(NodeKind::ParBegin, summary.region, f, inner);
        inner.region = begin;
      } else if (summary.region && !summary.inRegion.test(index)) {
        close();
      }
      auto fn = op->getParentOfType<ir::FuncOp>();
      std::string sym = fn ? symbolOf.lookup(fn) : "";
      auto [it, added] = staticInstance.try_emplace(sym, 0);
      if (added)
        it->second = newInstance(sym, kNoNode, ~0u);
      inner.inst = it->second;
      // A gradient may be taken or not: the path around it stays (the
      // backward a profiling helper times is not every call's).
      if (isa<ir::GradOp>(op)) {
        Frontier around = f;
        NodeId n = stmt(NodeKind::Stmt, op, f, inner);
        if (fn)
          dropFrameLocals(g.node(n), inner.inst, fn);
        g.node(n).expensive = true;
        f.append(around.begin(), around.end());
        continue;
      }
      auto d = dyn_cast<ir::DrawOp>(op);
      NodeId n = stmt(d ? NodeKind::Draw : NodeKind::Stmt, op, f, inner);
      if (fn)
        dropFrameLocals(g.node(n), inner.inst, fn);
      if (d)
        g.node(n).genVar = g.vars.intern(canonical(inner.inst, d.getGen()));
    }
    close();
    return f;
  }

  /// Removes from a summarized event's variables the locals of its
  /// function's frame (not a parameter it keeps): a value of that one
  /// call, which no node of the stand-in namespace defines. Read, it would
  /// stay live back to the program's start, a value a checkpoint must save
  /// (RepDistiller's `out` of a WideResNet block, read in
  /// `out if self.equalInOut else x` where another branch binds it). The
  /// parameters' objects (`self.memory`) are the callers' (CallerNames).
  void dropFrameLocals(Node &node, unsigned inst, ir::FuncOp fn) {
    std::string prefix = g.instances[inst].qualifier + "/";
    const llvm::StringSet<> &reb = rebound(fn);
    auto kept = [&](VarId v) {
      StringRef name = g.vars.name(v);
      if (!name.starts_with(prefix))
        return true;
      StringRef root = name.drop_front(prefix.size()).take_until(
          [](char c) { return c == '.' || c == '['; });
      return !reb.contains(root) &&
             llvm::any_of(fn.getParams(), [&](Attribute a) {
               return cast<StringAttr>(a).getValue() == root;
             });
    };
    for (IdList *list : {&node.defs, &node.updates, &node.uses})
      if (!llvm::all_of(*list, kept)) {
        SmallVector<VarId, 4> left;
        llvm::copy_if(*list, std::back_inserter(left), kept);
        *list = ArrayRef<unsigned>(left);
      }
  }

  /// The summary of `fn`'s code, with the functions it calls and the
  /// builds it forwards, when that code only computes, draws, takes
  /// gradients and opens regions (no fetch, generator made or seeded,
  /// step, checkpoint or hint: what the analyses follow statement by
  /// statement); null otherwise.
  const Summary *summaryOf(Operation *code) {
    auto [it, added] = summaries.try_emplace(code);
    if (!added)
      return it->second ? &*it->second : nullptr;
    Summary summary;
    SmallVector<Operation *> &events = summary.events;
    // The code each event was found in, and the ops that reach each code
    // (the calls and forwards that pushed it): which events run inside
    // the region.
    SmallVector<Operation *> eventRoots;
    llvm::DenseMap<Operation *, SmallVector<std::pair<Operation *, Operation *>>>
        reachedFrom;
    llvm::DenseSet<Operation *> seen{code};
    SmallVector<Operation *, 8> work{code};
    bool plain = true;
    while (plain && !work.empty()) {
      Operation *root = work.pop_back_val();
      auto push = [&](Operation *callee, Operation *from) {
        reachedFrom[callee].push_back({from, root});
        if (seen.insert(callee).second)
          work.push_back(callee);
      };
      size_t before = events.size();
      // A build inside the code is what its forwards run, not what
      // building it runs: walked when a forward reaches it.
      root->walk<mlir::WalkOrder::PreOrder>([&](Operation *op) {
        if (op != root && isa<ir::BuildOp>(op))
          return mlir::WalkResult::skip();
        if (isa<ir::FetchOp, ir::CreateGeneratorOp, ir::UpdateOp,
                ir::CheckpointOp, ir::HintOp>(op))
          plain = false;
        // A gradient is an event a summary keeps, as one that may not
        // happen (yolov5's profiling helper times a backward, and every
        // layer a config may name reaches it).
        if (isa<ir::GradOp>(op))
          events.push_back(op);
        if (auto p = dyn_cast<ir::ParallelOp>(op); p && !summary.region)
          summary.region = p;
        // (A build's own `unread_calls` are its construction's, not what
        // its forward runs.)
        if (isa<ir::DrawOp>(op) ||
            (op->hasAttr("unread_calls") && !isa<ir::BuildOp>(op)))
          events.push_back(op);
        if (auto call = dyn_cast<ir::CallOp>(op)) {
          if (ir::FuncOp callee = funcs.lookup(calleeSymbol(call)))
            push(callee.getOperation(), op);
        }
        if (auto fw = dyn_cast<ir::ForwardOp>(op))
          for (Attribute a : fw.getBuilds())
            if (ir::BuildOp b = builds.lookup(cast<StringAttr>(a).getValue()))
              push(b.getOperation(), op);
        return mlir::WalkResult::advance();
      });
      eventRoots.append(events.size() - before, root);
    }
    // Whether `op`, found in `root`, runs inside the region.
    llvm::DenseMap<Operation *, bool> rootInRegion;
    std::function<bool(Operation *, Operation *)> runsInRegion =
        [&](Operation *op, Operation *root) {
          if (summary.region->isAncestor(op))
            return true;
          auto [it, added] = rootInRegion.try_emplace(root, false);
          if (!added)
            return it->second; // (false while being decided: a cycle)
          bool in = false;
          for (auto [from, fromRoot] : reachedFrom.lookup(root))
            if ((in = runsInRegion(from, fromRoot)))
              break;
          return rootInRegion[root] = in;
        };
    // An event reached along two ways is listed once, inside the region
    // if either runs there.
    llvm::DenseMap<Operation *, unsigned> listed;
    SmallVector<Operation *> unique;
    llvm::BitVector in;
    for (auto [op, root] : llvm::zip(events, eventRoots)) {
      bool inside = summary.region && runsInRegion(op, root);
      auto [at, added] = listed.try_emplace(op, unique.size());
      if (added) {
        unique.push_back(op);
        in.push_back(inside);
      } else if (inside) {
        in.set(at->second);
      }
    }
    events = std::move(unique);
    summary.inRegion = std::move(in);
    if (plain)
      it->second = std::move(summary);
    return it->second ? &*it->second : nullptr;
  }
  llvm::DenseMap<Operation *, std::optional<Summary>> summaries;

  /// Whether some `return` of `fn` (outside nested functions) returns a
  /// value.
  bool returnsValue(ir::FuncOp fn) {
    auto [it, added] = returning.try_emplace(fn.getOperation(), false);
    if (added)
      fn.walk([&](ir::ReturnOp r) {
        if (!r.getUses().empty())
          it->second = true;
      });
    return it->second;
  }
  llvm::DenseMap<mlir::Operation *, bool> returning;

  /// The build regions a forward may run, as alternatives.
  Frontier forward(ir::ForwardOp fw, Frontier f, Ctx &c) {
    SmallVector<ir::BuildOp> targets;
    for (Attribute a : fw.getBuilds()) {
      StringRef id = cast<StringAttr>(a).getValue();
      ir::BuildOp b = builds.lookup(id);
      if (b && !activeBuilds.contains(id))
        targets.push_back(b);
    }
    if (targets.empty())
      return f;
    NodeId enter = add(NodeKind::CallEnter, fw, c);
    connect(f, enter);
    f = {enter};
    Frontier out;
    for (ir::BuildOp b : targets) {
      Ctx inner = c;
      inner.caller = enter;
      inner.expensive = true;
      inner.inst = namespaceOf(b, c.inst);
      inner.breaks = inner.continues = inner.returns = nullptr;
      inner.handlers = nullptr;
      inner.forwardInputs.clear();
      for (Attribute u : fw.getUsesAttr())
        if (StringRef v = cast<StringAttr>(u).getValue(); v != fw.getModel())
          inner.forwardInputs.push_back(g.vars.intern(canonical(c.inst, v)));
      // A build forwarded often enough (a zoo's models, each forward
      // path): its region and draws.
      if (summarizes(buildCount[b.getId()]++))
        if (const Summary *summary = summaryOf(b.getOperation())) {
          Frontier alt = summarized(*summary, f, inner);
          out.append(alt.begin(), alt.end());
          continue;
        }
      activeBuilds.insert(b.getId());
      Frontier alt = region(b.getBody(), f, inner);
      activeBuilds.erase(b.getId());
      out.append(alt.begin(), alt.end());
    }
    return out;
  }

  /// The instance whose locals a build region of `b` reads: the nearest
  /// instance of the build's function on the call chain, else a stand-in.
  unsigned namespaceOf(ir::BuildOp b, unsigned inst) {
    auto fn = b->getParentOfType<ir::FuncOp>();
    std::string sym = fn ? symbolOf.lookup(fn) : "";
    for (unsigned i = inst; i != ~0u; i = g.instances[i].parent)
      if (g.instances[i].function == sym)
        return i;
    auto [it, inserted] = staticInstance.try_emplace(sym, 0);
    if (inserted)
      it->second = newInstance(sym, kNoNode, ~0u);
    return it->second;
  }
};
} // namespace

std::string detc::analysis::calleeSymbol(ir::CallOp call) {
  SymbolRefAttr ref = call.getCallee();
  std::string sym = ref.getRootReference().str();
  for (FlatSymbolRefAttr n : ref.getNestedReferences())
    sym += "::" + n.getValue().str();
  return sym;
}

std::string detc::analysis::functionSymbol(ir::FuncOp fn) {
  auto cls = dyn_cast_or_null<ir::ClassOp>(fn->getParentOp());
  return cls ? (cls.getSymName() + "::" + fn.getSymName()).str()
             : fn.getSymName().str();
}

ir::FuncOp detc::analysis::findFunction(ModuleOp module, StringRef symbol) {
  auto [cls, method] = symbol.split("::");
  if (method.empty())
    return module.lookupSymbol<ir::FuncOp>(cls);
  auto c = module.lookupSymbol<ir::ClassOp>(cls);
  return c ? c.lookupSymbol<ir::FuncOp>(method) : ir::FuncOp();
}

std::string detc::analysis::findEntry(ModuleOp module, StringRef name) {
  auto [cls, method] = name.contains("::") ? name.split("::") : name.split('.');
  std::string symbol = method.empty() ? cls.str() : (cls + "::" + method).str();
  return findFunction(module, symbol) ? symbol : "";
}

std::string detc::analysis::entryDisplayName(StringRef symbol) {
  auto [cls, method] = symbol.split("::");
  return method.empty() ? cls.str() : (cls + "." + method).str();
}

std::string StatementGraph::truncationMessage() const {
  std::string m = "the program is too large to analyse: expanding its "
                  "calls made more than " +
                  std::to_string(numNodes()) + " statements";
  if (!mostExpanded.empty())
    m += " ('" + mostExpanded + "' was expanded " +
         std::to_string(mostExpandedTimes) +
         " times: each call path into it is analysed on its own)";
  return m + "; no findings were computed";
}

StatementGraph StatementGraph::build(ModuleOp module,
                                     const StatementGraphOptions &options) {
  StatementGraph g;
  GraphBuilder builder(g, module, options);
  builder.run();
  g.vars.computeObjects();
  for (unsigned i = 0; i < g.instances.size(); ++i)
    if (g.instances[i].callSite != kNoNode)
      g.enteredAt[g.instances[i].callSite] = i;
  g.indexEdges();
  // Walks predecessors: after the edges are indexed.
  builder.addRestoredBySaved();
  switchOffEvalDropout(g);
  return g;
}

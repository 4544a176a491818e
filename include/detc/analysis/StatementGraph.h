//===- StatementGraph.h - Statement-level interprocedural CFG ---*- C++ -*-===//
//
// The analyses of SPEC.md §2 and §4 are stated on the paper's language: a
// program of labelled statements with predecessors and successors, where
// calls into user functions and model forwards are "followed". The
// StatementGraph is that program, built from a detc module:
//
//  * one node per statement op, plus synthesized nodes for what the ops
//    imply: the end of a data-parallel region (`data_parallel_end`), a
//    call's entry and the assignment of its return value, function exits;
//  * calls (`detc.call`) and model forwards (`detc.forward`, through the
//    build regions they may run) are expanded in place — each expansion is
//    an *instance* of the callee with its own local variables, so a helper
//    called inside and outside a parallel region has two instances and the
//    analyses tell the two call paths apart;
//  * variables are canonical: locals are qualified by their instance
//    (`main:x`), parameters that the callee never rebinds are the caller's
//    variable (`self.fc` inside `Net::forward` called on `model` is
//    `main:model.fc`), globals (`@x`) and global generators (`<torch>`) are
//    shared.
//
// Nodes are a vector and edges compressed arrays (successors and
// predecessors, each in the order the edges were added): a 100k-line
// program expands to ~140k nodes, and the analyses walk them many times.
// (A Boost adjacency list was used first; no Boost algorithm runs on the
// graph any more — ControlFlow.cpp says why — and its per-vertex edge
// vectors, edge list nodes and copying moves cost a third of the
// analyses' memory.)
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_STATEMENTGRAPH_H
#define DETC_ANALYSIS_STATEMENTGRAPH_H

#include "detc/analysis/IdList.h"
#include "detc/ir/DetcOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <memory>
#include <string>
#include <vector>

namespace detc::analysis {

using VarId = unsigned;
using NodeId = unsigned;
constexpr NodeId kNoNode = ~0u;

/// Interned canonical variable names.
class VarTable {
public:
  VarId intern(llvm::StringRef name);
  /// The id of `name`, or ~0u if it was never interned.
  VarId lookup(llvm::StringRef name) const;
  llvm::StringRef name(VarId id) const { return names[id]; }
  size_t size() const { return names.size(); }

  /// Attribute paths: `main/args.epochs` belongs to the object `main/args`
  /// when that variable exists. Computed by computeObjects().
  VarId objectOf(VarId id) const { return object[id]; }
  llvm::ArrayRef<VarId> attributesOf(VarId id) const { return attrs[id]; }
  /// The locals of the instance with `qualifier` (`f#2/x`, `f#2/x.y`).
  /// Computed by computeObjects().
  llvm::ArrayRef<VarId> localsOf(llvm::StringRef qualifier) const {
    auto it = locals.find(qualifier);
    return it == locals.end() ? llvm::ArrayRef<VarId>() : it->second;
  }
  void computeObjects();

private:
  llvm::StringMap<VarId> ids;
  /// The keys of `ids` (a StringMap's entries never move).
  std::vector<llvm::StringRef> names;
  std::vector<VarId> object;
  std::vector<llvm::SmallVector<VarId, 0>> attrs;
  llvm::StringMap<llvm::SmallVector<VarId, 0>> locals;
};

enum class NodeKind : uint8_t {
  Entry,      ///< Program entry (one per graph).
  Exit,       ///< Program exit (one per graph).
  Stmt,       ///< Any statement without a special rule.
  Create,     ///< create_generator / global_generator.
  Draw,       ///< random_gen.
  ParBegin,   ///< data_parallel_begin (the `detc.parallel` op).
  ParEnd,     ///< data_parallel_end (synthesized, paired with a ParBegin).
  Checkpoint, ///< The user's checkpoint.
  Hint,       ///< A CheckHint `_checkpoint()`.
  Update,     ///< B(M, V): the optimizer step.
  Branch,     ///< if / while test / for header (a control node).
  CallEnter,  ///< Start of a call's or a model forward's expansion.
  CallExit,   ///< End of a call: assigns the return value to the targets.
  FuncExit,   ///< End of an instance's body (returns jump here).
  Join,       ///< An empty node where paths meet (e.g. an except handler).
};

llvm::StringRef stringifyNodeKind(NodeKind kind);

/// One statement of the expanded program. (Small fields together: a large
/// program has a node per statement of every expansion. The checkpoint-
/// only saved list and the loop positions, shared by a loop body's nodes,
/// live in the graph: StatementGraph::saved, loops. 96 bytes, was 128.)
struct Node {
  mlir::Operation *op = nullptr; ///< The source op (null for Entry/Exit).
  unsigned instance = 0;
  /// Draw: the variable holding the generator. Create: the variable
  /// receiving the generator.
  VarId genVar = ~0u;
  /// ParEnd: its ParBegin. ParBegin: its ParEnd.
  NodeId pair = kNoNode;
  /// Innermost enclosing ParBegin on the dynamic (expanded) nesting.
  NodeId region = kNoNode;
  /// Innermost CallEnter whose expansion this node belongs to (a user call
  /// or a model forward): following `caller` links gives the call path.
  NodeId caller = kNoNode;
  /// Innermost enclosing control node (Branch), crossing into the caller
  /// through the call's CallEnter: what decides whether this node runs.
  NodeId control = kNoNode;
  /// The node's loop positions (StatementGraph::loops).
  unsigned loopsId = 0;
  NodeKind kind = NodeKind::Stmt;
  /// Stmt: a plain `a = b` copy (generator aliases flow through it).
  bool copy = false;
  /// Create: a reseed of the generator the receiver already holds.
  bool reseed = false;
  /// Create: defines a library's global generator (`<torch>`).
  bool global = false;
  /// Forward/grad/update/batch fetch and everything a forward or a fetch
  /// runs (a dropout draw, `__getitem__`): work fast-forward skips.
  bool expensive = false;
  /// Variables the statement must define, partially update (read-modify-
  /// write), and read — canonical, see the file comment.
  IdList defs, updates, uses;
};

/// One expansion of a function body.
struct Instance {
  std::string function;       ///< Symbol, e.g. `main`, `Net::forward`.
  std::string qualifier;      ///< Prefix of its locals: `main`, `f#2`.
  NodeId callSite = kNoNode;  ///< The CallEnter that created it.
  unsigned parent = ~0u;      ///< Caller instance.
  /// Parameters the callee never rebinds, aliased to the caller's
  /// canonical variable.
  llvm::StringMap<std::string> aliases;
  /// Parameters the call gives None (a literal `None`, or the default)
  /// and the callee never rebinds: a test of one (`if optimizer:`,
  /// `if p is None:`) takes one branch in this expansion (a function
  /// that trains or evaluates as its optimizer is given or None).
  llvm::StringSet<> noneParams;
  /// Parameters the call gives a string (a literal, or the default) and
  /// the callee never rebinds, with it: a test of one against a string
  /// (`if phase == 'train':`) takes one branch in this expansion.
  llvm::StringMap<std::string> strParams;
};

struct StatementGraphOptions {
  /// Stop expanding (and report) beyond this many nodes. The analyses take
  /// ~1 KB a node; a 100k-line program expands to ~150k (yolov5's
  /// train.py with its modules: 146k). An expansion past this is a call
  /// graph whose paths multiply (a model zoo behind one factory).
  size_t maxNodes = 4'000'000;
  /// A function already expanded this many times (one instance per call
  /// path: a block every layer of a model zoo uses) is not expanded again
  /// when its code, with what it calls and forwards, only computes and
  /// draws: a further call is one statement with the call's variables,
  /// followed by each draw its code may make (found where they are, keyed
  /// like the expanded ones); so is a model's build region forwarded as
  /// often. Once the graph holds a sixteenth of maxNodes (250k nodes),
  /// what was expanded once already is: liveness keeps a set per node, and
  /// timm's train.py, expanded to 1M nodes (its task and batch-norm
  /// forwards 200+ times each), took 20 GB and 170 s (now 265k nodes, 9 GB).
  /// 0: always expand.
  unsigned summarizeAfter = 256;
  /// Functions the program runs after the module body, called any number of
  /// times in any order with unknown arguments (`train_model`,
  /// `Trainer::fit`; see findEntry). Empty: when the module body calls none
  /// of the script's functions (library-style code, which another project
  /// calls), every public function and method of the script.
  std::vector<std::string> entries;
  /// Keep the per-node dataflow solutions the summaries are read from (the
  /// Z3 checks of `--verify` read them; `detc analyze` without it does not).
  bool keepSolutions = true;
};

/// The symbol of the function or method `name` of the script (`f`,
/// `Cls.method` or `Cls::method`), or "" when there is none.
std::string findEntry(mlir::ModuleOp module, llvm::StringRef name);
/// The function or method whose symbol is `symbol` (`f`, `Cls::method`:
/// Instance::function), or null.
ir::FuncOp findFunction(mlir::ModuleOp module, llvm::StringRef symbol);
/// The symbol of the function `call` calls, as Instance::function spells
/// it (`f`, `Cls::method`).
std::string calleeSymbol(ir::CallOp call);
/// The symbol of `fn` itself, spelled the same way.
std::string functionSymbol(ir::FuncOp fn);
/// `Cls::method` as the user writes it (`Cls.method`).
std::string entryDisplayName(llvm::StringRef symbol);

class StatementGraph {
public:
  std::vector<Instance> instances;
  /// The instance each CallEnter node starts (Instance::callSite).
  llvm::DenseMap<NodeId, unsigned> enteredAt;
  VarTable vars;
  NodeId entry = kNoNode, exit = kNoNode;
  /// Set when the expansion hit StatementGraphOptions::maxNodes; then the
  /// function with the most instances (every call path into a function is
  /// an instance of its own) and how many it had.
  bool truncated = false;
  std::string mostExpanded;
  unsigned mostExpandedTimes = 0;
  /// Why the expansion stopped, for the user (`truncated` only).
  std::string truncationMessage() const;
  /// The functions analysed as entries after the module body (symbols),
  /// and whether detc chose them because the body calls none.
  std::vector<std::string> entries;
  bool libraryEntries = false;

  size_t numNodes() const { return count; }
  Node &node(NodeId n) { return chunks[n >> kChunkBits][n & kChunkMask]; }
  const Node &node(NodeId n) const {
    return chunks[n >> kChunkBits][n & kChunkMask];
  }

  /// Adjacency, valid once indexEdges() ran (build() runs it).
  llvm::ArrayRef<NodeId> successors(NodeId n) const { return succ.of(n); }
  llvm::ArrayRef<NodeId> predecessors(NodeId n) const { return pred.of(n); }
  /// Checkpoint: the saved variables (canonical); empty for other nodes.
  const IdList &saved(NodeId n) const {
    auto it = savedLists.find(n);
    return it == savedLists.end() ? noIds : it->second;
  }
  IdList &saved(NodeId n) { return savedLists[n]; }
  /// Loop positions node `n` sits in: the loop-variable defs of the
  /// enclosing `for` headers, outermost first (crossing calls).
  const IdList &loops(NodeId n) const { return loopLists[node(n).loopsId]; }
  /// A new list of loop positions; its id is what nodes in it hold.
  unsigned addLoops(llvm::ArrayRef<NodeId> headers) {
    loopLists.emplace_back() = headers;
    return unsigned(loopLists.size() - 1);
  }

  /// A new node (default fields), and an edge `from -> to` (parallel edges
  /// are kept, as the expansion may add them).
  NodeId addNode();
  void addEdge(NodeId from, NodeId to) { newEdges.push_back({from, to}); }
  /// Adds the edges added since the last call to the adjacency arrays.
  void indexEdges();

  /// A variable as the user wrote it: without the instance qualifier and
  /// the global marker (`main/x` -> `x`, `@g` -> `g`).
  std::string displayName(VarId v) const;
  /// The canonical variable name of `raw` read or written in instance
  /// `inst`: a parameter its function never rebinds is the caller's
  /// variable, a closure variable the enclosing function's, a global
  /// `@name`, else `qualifier/raw`.
  std::string canonicalName(unsigned inst, llvm::StringRef raw) const;
  /// The variable among `vars` that node `n`'s source spells `name`
  /// (`optimizer`, `self`, `@model`): a parameter its function never
  /// rebinds is the caller's variable (`self` of `D.compute_loss(x)` is
  /// `D`). ~0u when none is.
  VarId spelledIn(NodeId n, llvm::ArrayRef<VarId> vars,
                  llvm::StringRef name) const;

  /// The CallEnter nodes on the way to `n`, outermost first; stops at
  /// `stopAt` (exclusive) when it is on the chain.
  llvm::SmallVector<NodeId, 4> callPath(NodeId n,
                                        NodeId stopAt = kNoNode) const;

  /// Builds the graph for a module produced by the lowering (or parsed from
  /// a .mlir file). The program starts at `@__main__`, or at `@main` when
  /// there is no `@__main__`.
  static StatementGraph build(mlir::ModuleOp module,
                              const StatementGraphOptions &options = {});

private:
  /// Nodes live in chunks of equal size: the graph grows without moving
  /// what it holds (a doubling vector held two copies while it grew, and a
  /// third to shrink to fit), and its memory comes in pieces an allocator
  /// can reuse after the front end freed its own.
  static constexpr unsigned kChunkBits = 12;
  static constexpr NodeId kChunkMask = (1u << kChunkBits) - 1;
  std::vector<std::unique_ptr<Node[]>> chunks;
  size_t count = 0;
  llvm::DenseMap<NodeId, IdList> savedLists;
  /// Distinct loop nests, one per loop expanded; 0 is none.
  std::vector<IdList> loopLists{IdList()};
  static inline const IdList noIds;

  /// Compressed adjacency: the neighbours of n are nodes[offset[n] ..
  /// offset[n + 1]).
  struct Adjacency {
    std::vector<unsigned> offset;
    std::vector<NodeId> nodes;
    llvm::ArrayRef<NodeId> of(NodeId n) const {
      return llvm::ArrayRef<NodeId>(nodes).slice(offset[n],
                                                 offset[n + 1] - offset[n]);
    }
  } succ, pred;
  std::vector<std::pair<NodeId, NodeId>> newEdges;
};

/// Source position of an op (from its FileLineColLoc), for reports.
struct SourcePoint {
  std::string file;
  unsigned line = 0, column = 0;
  bool valid() const { return line != 0; }
};
SourcePoint sourcePoint(mlir::Operation *op);

} // namespace detc::analysis

#endif // DETC_ANALYSIS_STATEMENTGRAPH_H

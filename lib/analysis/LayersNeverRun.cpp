//===- LayersNeverRun.cpp - Layers an optimizer holds, no code runs ------===//
//
// detc-layer-never-run (TrainCheck's "optimizer over parameters the
// model does not use", issue 21): a model class builds a layer with
// parameters in `__init__` (`self.head = nn.Linear(...)`) that nothing in
// the program runs or reads — not its `forward`, not a helper `forward`
// passes `self` to, not the training loop (`model.head(x)`) — while a
// training loop steps an optimizer built over the whole model's
// parameters. The layer's parameters get no gradient and never change; it
// is typically left over from a refactoring (the forward runs a new head,
// the old one is still built), and a DistributedDataParallel job over
// such a model fails at its second step.
//
// The structure — which classes are models, which layers their
// constructors build, which optimizer holds the model — comes from the IR.
// Whether anything uses a layer is read off the program's source text,
// because a call the lowering cannot resolve (`self.conv2_x(x)` where
// `conv2_x` came from a helper method) keeps only its receiver, `self`.
// The check is conservative: a layer counts as used when `.NAME` occurs
// anywhere in the program's files other than as the `self.NAME = ...`
// that builds it (`self.head(x)`, `net.head.weight`, `model.head` in the
// training loop, an initialization in `__init__`), and a class is skipped
// when its text reaches layers by other means than attributes
// (`self.children()`, `getattr(self, ...)`, `self._modules`, ...).
//
//===----------------------------------------------------------------------===//

#include "TrainingChecks.h"

#include "detc/ir/DetcOps.h"
#include "detc/ir/SourceSpans.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"

#include <set>

#include <map>

using namespace detc;
using namespace detc::analysis;
using llvm::StringRef;

namespace {

/// Library layers that hold parameters (or containers of layers).
bool hasParameters(StringRef api) {
  if (api.starts_with("torchvision.models."))
    return true;
  if (!api.consume_front("torch.nn."))
    return false;
  for (StringRef kind :
       {"Linear",        "Bilinear",   "LazyLinear",         "Conv",
        "LazyConv",      "Embedding",  "BatchNorm",          "SyncBatchNorm",
        "LazyBatchNorm", "GroupNorm",  "LayerNorm",          "RNN",
        "LSTM",          "GRU",        "MultiheadAttention", "Transformer",
        "PReLU",         "Sequential", "ModuleList",         "ModuleDict"})
    if (api.starts_with(kind))
      return true;
  return false;
}

/// The names a statement defines, updates and uses.
llvm::SmallVector<StringRef, 8> namesOf(mlir::Operation *op) {
  llvm::SmallVector<StringRef, 8> out;
  auto access = llvm::dyn_cast<ir::VarAccessOpInterface>(op);
  if (!access)
    return out;
  for (auto list : {access.getDefined(), access.getUpdated(), access.getUsed()})
    for (mlir::Attribute a : list)
      if (auto s = llvm::dyn_cast<mlir::StringAttr>(a))
        out.push_back(s.getValue());
  return out;
}

struct Layer {
  std::string attr, api;
  mlir::Operation *build;
};

using Ranges = std::vector<std::pair<size_t, size_t>>;

/// Finds the `#` comments of Python text read piece after piece (a string
/// may span pieces). A `#` inside a string literal is not a comment;
/// triple-quoted strings are followed across lines.
class CommentScanner {
public:
  /// The comments of `text`, which continues what was scanned before and
  /// ends at a line end, as [begin, end) offsets into `text`, in order.
  Ranges scan(StringRef text) {
    Ranges out;
    for (size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      if (quote) {
        if (c == '\\') {
          ++i;
        } else if (c == quote &&
                   (!triple || text.substr(i, 3) == std::string(3, quote))) {
          i += triple ? 2 : 0;
          quote = 0;
        } else if (c == '\n' && !triple) {
          quote = 0; // an unterminated string ends with its line
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        triple = text.substr(i, 3) == std::string(3, c);
        i += triple ? 2 : 0;
      } else if (c == '#') {
        size_t begin = i;
        for (; i < text.size() && text[i] != '\n'; ++i)
          ;
        out.push_back({begin, i});
      }
    }
    return out;
  }

private:
  char quote = 0;
  bool triple = false;
};

/// Calls `fn(lines)` for `path`'s text in pieces of whole lines (about a
/// megabyte each): a program file is never held whole (the lints' largest
/// transient was a copy of the script, then the script mapped whole).
/// False when the file cannot be read.
bool forEachPiece(const std::string &path,
                  llvm::function_ref<void(StringRef)> fn) {
  llvm::Expected<llvm::sys::fs::file_t> fd =
      llvm::sys::fs::openNativeFileForRead(path);
  if (!fd) {
    llvm::consumeError(fd.takeError());
    return false;
  }
  constexpr size_t kPiece = 1 << 20;
  std::string buffer;
  for (bool done = false; !done;) {
    size_t kept = buffer.size();
    buffer.resize(kept + kPiece);
    llvm::Expected<size_t> got = llvm::sys::fs::readNativeFile(
        *fd, llvm::MutableArrayRef<char>(&buffer[kept], kPiece));
    if (!got) {
      llvm::consumeError(got.takeError());
      break;
    }
    buffer.resize(kept + *got);
    done = *got == 0;
    // Up to the last line end; the rest starts the next piece.
    size_t end = done ? buffer.size() : buffer.rfind('\n') + 1;
    if (!done && end == 0)
      continue; // one line longer than a piece: read on
    fn(StringRef(buffer).take_front(end));
    buffer.erase(0, end);
  }
  llvm::sys::fs::closeFile(*fd);
  return true;
}

bool isWordChar(char c) { return llvm::isAlnum(c) || c == '_'; }

/// For every attribute name, how often `.name` occurs as a whole attribute
/// (`.head`, not `.head2`) in the program's text outside comments, and how
/// many of those are `self.name =` assignments. Built in one pass over each
/// file: asking the text once per layer made the lint quadratic (3.5 s on
/// the generated 100k-line script).
class AttributeIndex {
public:
  void addFile(const std::string &path) {
    CommentScanner scanner;
    forEachPiece(path,
                 [&](StringRef lines) { add(lines, scanner.scan(lines)); });
  }
  /// Whether `.name` occurs anywhere but in the `self.name = ...` that
  /// build it.
  bool usedBeyondBuilds(StringRef name) const {
    auto it = counts.find(name);
    return it != counts.end() && it->second.uses > it->second.builds;
  }

private:
  /// Whole lines of text and their comments.
  void add(StringRef text, const Ranges &comments) {
    auto comment = comments.begin();
    for (size_t dot = text.find('.'); dot != StringRef::npos;
         dot = text.find('.', dot + 1)) {
      // Dots come in order: so do the comments passed.
      while (comment != comments.end() && comment->second <= dot)
        ++comment;
      if (comment != comments.end() && comment->first <= dot) {
        dot = comment->second;
        continue;
      }
      size_t begin = dot + 1;
      while (begin < text.size() && (text[begin] == ' ' || text[begin] == '\t'))
        ++begin;
      if (begin >= text.size() ||
          !(llvm::isAlpha(text[begin]) || text[begin] == '_'))
        continue;
      size_t end = begin;
      while (end < text.size() && isWordChar(text[end]))
        ++end;
      Counts &c = counts[text.slice(begin, end)];
      ++c.uses;
      StringRef receiver = text.take_front(dot).rtrim(" \t");
      StringRef after = text.drop_front(end).ltrim(" \t");
      bool self =
          receiver.ends_with("self") &&
          (receiver.size() == 4 || !isWordChar(receiver[receiver.size() - 5]));
      if (self && after.starts_with("=") && !after.starts_with("=="))
        ++c.builds;
    }
  }

  struct Counts {
    unsigned uses = 0, builds = 0;
  };
  llvm::StringMap<Counts> counts;
};

/// Text of a class that reaches its layers without naming them.
bool reachesLayersDynamically(StringRef cls) {
  for (StringRef idiom :
       {"getattr(self", "setattr(self", "self.children(", "self.modules(",
        "self.named_children(", "self.named_modules(", "self._modules",
        "self.__dict__", "vars(self)", "self.add_module(",
        "self.register_module("})
    if (cls.contains(idiom))
      return true;
  return false;
}

} // namespace

/// The statement's text of an op (a class: the whole class) with its
/// comments blanked out, read from its file.
std::string detc::analysis::statementText(mlir::Operation *op) {
  std::optional<ir::SourceSpan> span = ir::getSourceSpan(op->getLoc());
  if (!span || span->stmtBegin > span->stmtEnd)
    return "";
  llvm::Expected<llvm::sys::fs::file_t> fd =
      llvm::sys::fs::openNativeFileForRead(sourcePoint(op).file);
  if (!fd) {
    llvm::consumeError(fd.takeError());
    return "";
  }
  std::string out(span->stmtEnd - span->stmtBegin, ' ');
  llvm::Expected<size_t> got = llvm::sys::fs::readNativeFileSlice(
      *fd, llvm::MutableArrayRef<char>(out.data(), out.size()),
      span->stmtBegin);
  llvm::sys::fs::closeFile(*fd);
  if (!got) {
    llvm::consumeError(got.takeError());
    return "";
  }
  out.resize(*got);
  // A statement starts outside any string.
  for (auto [begin, end] : CommentScanner().scan(out))
    std::fill(out.begin() + begin, out.begin() + end, ' ');
  return out;
}

mlir::ModuleOp StatementNodes::module() {
  for (NodeId n = 0; n < g.numNodes() && !mod; ++n)
    if (mlir::Operation *op = g.node(n).op)
      mod = op->getParentOfType<mlir::ModuleOp>();
  return mod;
}

NodeId StatementNodes::of(mlir::Operation *op) {
  if (nodes.empty())
    for (NodeId n = g.numNodes(); n-- > 0;)
      if (g.node(n).op && g.node(n).kind != NodeKind::CallEnter)
        nodes[g.node(n).op] = n;
  auto it = nodes.find(op);
  return it == nodes.end() ? kNoNode : it->second;
}

void detc::analysis::layersNeverRun(const StatementGraph &g,
                                    StatementNodes &nodes,
                                    llvm::function_ref<bool(NodeId)> inTraining,
                                    std::vector<LintFinding> &out) {
  mlir::ModuleOp module = nodes.module();
  if (!module)
    return;
  auto nodeOf = [&](mlir::Operation *op) { return nodes.of(op); };
  // Optimizers a training loop steps: the statement that builds each.
  std::map<VarId, NodeId> built;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    auto call = llvm::dyn_cast_or_null<ir::LibCallOp>(g.node(n).op);
    if (call && call.getRole() == "optimizer" &&
        g.node(n).kind != NodeKind::CallEnter)
      for (VarId d : g.node(n).defs)
        built[d] = n;
  }
  // Model variables (their names) whose whole parameters a stepped
  // optimizer holds, with the optimizer's construction.
  std::map<std::string, NodeId> optimized;
  for (NodeId n = 0; n < g.numNodes(); ++n) {
    if (!llvm::isa_and_nonnull<ir::UpdateOp>(g.node(n).op) ||
        g.node(n).kind == NodeKind::CallEnter || !inTraining(n))
      continue;
    for (VarId opt : g.node(n).uses)
      if (auto it = built.find(opt); it != built.end())
        for (VarId u : g.node(it->second).uses) {
          // The name as the IR writes it: a local `f/x` of the variable
          // table is `x` there.
          StringRef name = g.vars.name(u);
          optimized.try_emplace(name.rsplit('/').second.empty()
                                    ? name.str()
                                    : name.rsplit('/').second.str(),
                                it->second);
        }
  }
  if (optimized.empty())
    return;
  // The program's files: the script and the local modules it imports.
  std::set<std::string> programFiles;
  module.walk([&](mlir::Operation *op) {
    if (llvm::isa<ir::FuncOp, ir::ClassOp>(op))
      if (SourcePoint p = sourcePoint(op); p.valid())
        programFiles.insert(p.file);
  });
  // The builds each optimized model variable may hold: the statement
  // that defines it, or (a model made by a helper, `model = build(cfg)`)
  // the builds its forwards run.
  std::map<std::string, ir::BuildOp> byId;
  module.walk([&](ir::BuildOp b) { byId[b.getId().str()] = b; });
  // User-class builds with their optimizer, in program order (the order
  // of the findings).
  std::vector<std::pair<mlir::Operation *, NodeId>> models;
  llvm::DenseSet<mlir::Operation *> seen;
  module.walk([&](mlir::Operation *op) {
    auto add = [&](ir::BuildOp b, NodeId opt) {
      if (b && b.getClsAttr() && seen.insert(b.getOperation()).second)
        models.push_back({b.getOperation(), opt});
    };
    if (auto b = llvm::dyn_cast<ir::BuildOp>(op))
      for (StringRef def : namesOf(op))
        if (auto it = optimized.find(def.str()); it != optimized.end())
          add(b, it->second);
    if (auto fw = llvm::dyn_cast<ir::ForwardOp>(op))
      if (auto it = optimized.find(fw.getModel().str()); it != optimized.end())
        for (mlir::Attribute id : fw.getBuilds())
          add(byId[llvm::cast<mlir::StringAttr>(id).str()], it->second);
  });
  AttributeIndex attributes;
  bool indexed = false;
  // Classes by name (the module's own lookupSymbol scans its ops: once per
  // build, that was quadratic in the number of classes).
  mlir::SymbolTable symbols(module);
  for (auto [op, optimizer] : models) {
    auto build = llvm::cast<ir::BuildOp>(op);
    auto cls = build.getClsAttr();
    auto classOp = symbols.lookup<ir::ClassOp>(cls.getValue());
    if (!classOp || reachesLayersDynamically(statementText(classOp)))
      continue;
    auto init = classOp.lookupSymbol<ir::FuncOp>("__init__");
    if (!init || !classOp.lookupSymbol<ir::FuncOp>("forward"))
      continue;
    if (!indexed) {
      for (const std::string &f : programFiles)
        attributes.addFile(f);
      indexed = true;
    }
    auto usedAnywhere = [&](StringRef attr) {
      return attributes.usedBeyondBuilds(attr);
    };
    std::vector<Layer> layers;
    init.walk([&](ir::BuildOp layer) {
      auto api = layer->getAttrOfType<mlir::StringAttr>("api");
      bool userModel = false;
      if (auto sub = layer.getClsAttr())
        if (auto c = symbols.lookup<ir::ClassOp>(sub.getValue()))
          userModel = c.getRole() == ir::ClassRole::Model;
      if (!userModel && !(api && hasParameters(api.getValue())))
        return;
      for (StringRef path : namesOf(layer.getOperation())) {
        if (path.consume_front("self.") && !path.contains('.') &&
            !path.contains('[') && !usedAnywhere(path))
          layers.push_back({path.str(),
                            api ? api.getValue().str() : cls.getValue().str(),
                            layer.getOperation()});
      }
    });
    for (const Layer &l : layers) {
      NodeId at = nodeOf(l.build);
      if (at == kNoNode)
        continue;
      out.push_back(
          {"detc-layer-never-run",
           at,
           "layer `self." + l.attr + "` (" + l.api + ") of `" +
               cls.getValue().str() +
               "` is built here, but nothing runs it: `" +
               cls.getValue().str() +
               ".forward` does not use it, nor does any other code; the "
               "optimizer built at line " +
               std::to_string(sourcePoint(g.node(optimizer).op).line) +
               " holds its parameters, which get no gradient and never "
               "change — remove the layer or run it in `forward`",
           {{optimizer, "the optimizer over the model's parameters"}}});
    }
  }
}

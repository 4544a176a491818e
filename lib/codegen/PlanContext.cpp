//===- PlanContext.cpp - What the rewrite planners share ------------------===//

#include "PlanContext.h"

#include <algorithm>
#include <memory>

#include "detc/base/FileIO.h"
#include "detc/codegen/PythonScan.h"
#include "detc/frontend/ASTDump.h"
#include "detc/ir/DetcOps.h"
#include "detc/ir/SourceSpans.h"
#include "StatementIndex.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;
using namespace mlir;

namespace detc::codegen {

std::optional<Span> PlanContext::spanOf(Operation *op) const {
  std::optional<ir::SourceSpan> s = ir::getSourceSpan(op->getLoc());
  if (!s || s->file != file.getName())
    return std::nullopt; // an op lowered from an imported module
  return Span{s->stmtBegin, s->stmtEnd, s->exprBegin, s->exprEnd};
}

ast::SourcePos PlanContext::posAt(uint32_t offset) const {
  unsigned line = edits.lineOf(offset);
  uint32_t start = offset;
  while (start > 0 && src[start - 1] != '\n')
    --start;
  return {line, offset - start, offset};
}

void PlanContext::error(Operation *op, const Twine &message) {
  report(frontend::Severity::Error, op, message);
}

void PlanContext::warning(Operation *op, const Twine &message) {
  report(frontend::Severity::Warning, op, message);
}

void PlanContext::note(Operation *op, const Twine &message) {
  report(frontend::Severity::Note, op, message);
}

void PlanContext::unrewritable(Operation *op, const Twine &message) {
  if (options.strict) {
    error(op, message);
    return;
  }
  report(frontend::Severity::Warning, op,
         message + "; the call is left as it is");
  leftNondeterministic.push_back(where(op));
}

/// `line` of the edited source as the user's (statements split onto lines
/// of their own keep the line the user wrote them on).
static unsigned toUserLine(unsigned line, const std::vector<unsigned> &user) {
  return line >= 1 && line <= user.size() && user[line - 1] ? user[line - 1]
                                                            : line;
}

unsigned PlanContext::userLine(Operation *op) const {
  unsigned line = analysis::sourcePoint(op).line;
  return spanOf(op) ? toUserLine(line, options.userLines) : line;
}

unsigned PlanContext::userLineAt(uint32_t offset) const {
  return toUserLine(edits.lineOf(offset), options.userLines);
}

std::string PlanContext::where(Operation *op) const {
  return (llvm::sys::path::filename(analysis::sourcePoint(op).file) + ":" +
          Twine(userLine(op)))
      .str();
}

void PlanContext::report(frontend::Severity severity, Operation *op,
                         const Twine &message) {
  std::optional<Span> s = spanOf(op);
  if (s) {
    diags.report(severity, &file, posAt(s->exprBegin), message.str());
    return;
  }
  // An op lowered from a module the script imports: the diagnostic names
  // that module's own file, line and column.
  analysis::SourcePoint p = analysis::sourcePoint(op);
  frontend::Diagnostic d;
  d.severity = severity;
  d.file = p.file.empty() ? file.getName().str() : p.file;
  d.pos = {p.line, p.column ? p.column - 1 : 0, 0};
  d.message = message.str();
  if (llvm::Expected<std::string> text = base::readInputFile(d.file)) {
    llvm::StringRef rest = *text;
    for (unsigned line = 1; line < p.line && !rest.empty(); ++line)
      rest = rest.split('\n').second;
    d.lineText = rest.split('\n').first.rtrim('\r').str();
  } else {
    llvm::consumeError(text.takeError());
  }
  diags.add(std::move(d));
}

void PlanContext::warning(uint32_t offset, const Twine &message) {
  diags.report(frontend::Severity::Warning, &file, posAt(offset),
               message.str());
}

/// `text` without blanks, line continuations and comments.
static std::string withoutBlanks(llvm::StringRef text) {
  std::string out;
  bool comment = false;
  for (char c : text) {
    if (c == '\n')
      comment = false;
    if (c == '#')
      comment = true; // (a `#` inside a string: dropped alike everywhere)
    if (!comment && c != ' ' && c != '\t' && c != '\n' && c != '\r' &&
        c != '\\')
      out += c;
  }
  return out;
}

/// The call starting at `offset` in `stmt`, or null.
static const ast::Call *callAt(const ast::Node *stmt, uint32_t offset) {
  std::vector<const ast::Node *> work{stmt};
  while (!work.empty()) {
    const ast::Node *n = work.back();
    work.pop_back();
    if (auto *c = llvm::dyn_cast<ast::Call>(n);
        c && c->getRange().begin.offset == offset)
      return c;
    ast::forEachChild(n, [&](llvm::StringRef, const ast::Node *c) {
      work.push_back(c);
    });
  }
  return nullptr;
}

/// A loader call's text without blanks and without the arguments that say
/// only how it loads, not what or in which order (torch.utils.data's
/// DataLoader: worker processes, pinned memory, prefetching, timeouts).
static std::string loaderText(llvm::StringRef src, const ast::Call *call) {
  static const llvm::StringRef howItLoads[] = {
      "num_workers",       "pin_memory",         "pin_memory_device",
      "timeout",           "prefetch_factor",    "persistent_workers",
      "multiprocessing_context"};
  auto textOf = [&](const ast::Node *n) {
    return withoutBlanks(
        src.slice(n->getRange().begin.offset, n->getRange().end.offset));
  };
  std::vector<std::string> args;
  for (const ast::Expr *a : call->args)
    args.push_back(textOf(a));
  for (const ast::Keyword *k : call->keywords)
    if (!k->value || !llvm::is_contained(howItLoads, k->arg))
      args.push_back((k->arg.empty() ? "**" : k->arg.str() + "=") +
                     (k->value ? textOf(k->value) : ""));
  return textOf(call->func) + "(" + llvm::join(args, ",") + ")";
}

unsigned PlanContext::streamSite(mlir::Operation *op, llvm::StringRef role) {
  return streamSite(op ? spanOf(op) : std::nullopt, role);
}

unsigned PlanContext::streamSite(std::optional<Span> s, llvm::StringRef role) {
  std::string key = role.str();
  if (s) {
    if (!statements)
      statements = std::make_shared<StatementIndex>(tree);
    // The defs and classes around the call, innermost last.
    llvm::SmallVector<llvm::StringRef, 4> scope;
    uint32_t scopeBegin = 0;
    const StmtPlace *place = statements->at(s->stmtBegin);
    for (const ast::Stmt *up = place ? place->parent : nullptr; up;) {
      if (auto *f = llvm::dyn_cast<ast::FunctionDef>(up)) {
        scope.push_back(f->name);
        if (!scopeBegin)
          scopeBegin = f->getRange().begin.offset;
      } else if (auto *c = llvm::dyn_cast<ast::ClassDef>(up)) {
        scope.push_back(c->name);
        if (!scopeBegin)
          scopeBegin = c->getRange().begin.offset;
      }
      const StmtPlace *outer = statements->of(up);
      up = outer ? outer->parent : nullptr;
    }
    std::reverse(scope.begin(), scope.end());
    std::string text = withoutBlanks(src.slice(s->exprBegin, s->exprEnd));
    std::string before = withoutBlanks(src.slice(scopeBegin, s->exprBegin));
    unsigned occurrence = 0;
    for (size_t at = before.find(text); !text.empty() &&
                                        at != std::string::npos;
         at = before.find(text, at + 1))
      ++occurrence;
    // A loader is named without how it loads: a script edited from
    // `num_workers=8` to 0 keeps its streams (mixup-cifar10's writes it in
    // the call: its loader's key changed, and with it every keyed draw of
    // its batches and examples — other weights).
    if (role == "loader" && place)
      if (const ast::Call *call = callAt(place->stmt, s->exprBegin))
        text = loaderText(src, call);
    key += "|" + llvm::join(scope, ".") + "|" + text + "|" +
           std::to_string(occurrence);
  }
  return 0x80000000u | unsigned(llvm::xxh3_64bits(key) & 0x7FFFFFFFu);
}

bool PlanContext::calleeWrappable(Operation *op) const {
  std::optional<Span> s = spanOf(op);
  return s && calleeEnd(src, s->exprBegin, s->exprEnd);
}

bool PlanContext::wrapCallee(Operation *op, const std::string &prefix,
                             StringRef what, StringRef note, StringRef suffix) {
  std::optional<Span> s = spanOf(op);
  std::optional<uint32_t> end =
      s ? calleeEnd(src, s->exprBegin, s->exprEnd) : std::nullopt;
  if (!end) {
    unrewritable(op, "cannot rewrite " + what +
                         ": detc rewrites it at a call written in this script "
                         "[detc-unrewritable]");
    return false;
  }
  edits.wrap(s->exprBegin, *end, prefix, suffix.str());
  edits.note(edits.lineOf(commentableLineEnd(src, s->stmtBegin, *end)), note);
  return true;
}

std::string PlanContext::generatorHandle(unsigned o, StringRef qualifier,
                                         StringRef moduleName) const {
  const analysis::GeneratorObject &obj = a.gens->objects()[o];
  if (obj.kind == analysis::GeneratorObject::Global)
    return "\"" + obj.library + "\"";
  const analysis::StatementGraph &g = a.graph;
  auto holds = [&](analysis::VarId v) {
    StringRef shown = g.displayName(v);
    return is_contained(a.gens->pointsTo(v), o) && !shown.starts_with("<") &&
           !shown.starts_with("$");
  };
  for (analysis::VarId v = 0; v < g.vars.size(); ++v)
    if (g.vars.name(v).starts_with(qualifier) && holds(v))
      return g.displayName(v);
  // A module variable (`@noise`): seen from the module's own loops and
  // from functions that do not bind a local of that name.
  if (moduleName.empty()) {
    for (analysis::VarId v = 0; v < g.vars.size(); ++v)
      if (g.vars.name(v).starts_with("@") && holds(v) &&
          g.vars.lookup((qualifier + g.displayName(v)).str()) == ~0u)
        return g.displayName(v);
    return "";
  }
  // An imported module's are named after it (`@engine.noise`): only its
  // own functions see them, by their name.
  std::string prefix = ("@" + moduleName + ".").str();
  for (analysis::VarId v = 0; v < g.vars.size(); ++v) {
    StringRef name = g.vars.name(v);
    if (name.consume_front(prefix) && holds(v) &&
        name.find_first_of("[") == StringRef::npos &&
        g.vars.lookup((qualifier + name).str()) == ~0u)
      return name.str();
  }
  return "";
}

void PlanContext::guardStatement(uint32_t begin, uint32_t end,
                                 std::string condition, std::string note) {
  StatementGuard &g = statementGuards[begin];
  g.end = end;
  if (!is_contained(g.conditions, condition))
    g.conditions.push_back(std::move(condition));
  g.notes.push_back(std::move(note));
}

void PlanContext::flushGuards() {
  for (auto &[begin, g] : statementGuards) {
    edits.wrap(begin, g.end, "if " + llvm::join(g.conditions, " and ") + ": ",
               "");
    for (const std::string &note : g.notes)
      edits.note(edits.lineOf(begin), note);
  }
  statementGuards.clear();
}

unsigned PlanContext::leadingBlockEnd() const {
  unsigned after = 0;
  bool first = true;
  for (ast::Stmt *s : tree.body) {
    bool docstring = false;
    if (auto *e = dyn_cast<ast::ExprStmt>(s))
      if (auto *c = dyn_cast_or_null<ast::Constant>(e->value))
        docstring = first && c->kind == ast::ConstantKind::Str;
    bool future = false;
    if (auto *i = dyn_cast<ast::ImportFrom>(s))
      future = i->module == "__future__";
    first = false;
    if (!docstring && !future)
      break;
    after = edits.lineOf(commentableLineEnd(src, s->getRange().begin.offset,
                                            s->getRange().end.offset));
  }
  if (after == 0) // shebang and coding lines are comments on lines 1-2
    for (unsigned line = 1; line <= 2; ++line) {
      size_t start = line == 1 ? (src.starts_with("\xEF\xBB\xBF") ? 3 : 0)
                               : src.find('\n') + 1;
      if (start == 0 && line == 2)
        break;
      if (start < src.size() && src[start] == '#')
        after = line;
      else
        break;
    }
  return after;
}

/// The name the script imports an edited module under, for the runtime
/// (overlay.py): its dotted path from the script's folder (`engine`,
/// `util.engine`, a package's `util`), as Python finds it there; outside
/// that folder, from the top of the packages around it (`mmdet.engine`).
static std::string importName(StringRef script, StringRef module) {
  SmallString<256> dir(sys::path::parent_path(script)), path(module);
  sys::fs::make_absolute(dir);
  sys::fs::make_absolute(path);
  sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
  sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  std::vector<std::string> parts;
  if (sys::path::filename(path) != "__init__.py")
    parts.push_back(sys::path::stem(path).str());
  bool inside = StringRef(path).starts_with((dir + "/").str());
  for (SmallString<256> at(sys::path::parent_path(path));
       !at.empty() && at != dir; at = sys::path::parent_path(at)) {
    SmallString<256> init(at);
    sys::path::append(init, "__init__.py");
    // Outside the script's folder a package ends where `__init__.py`s do
    // (inside it, a folder without one is a namespace package).
    if (!inside && !parts.empty() && !sys::fs::exists(init))
      break;
    parts.insert(parts.begin(), sys::path::filename(at).str());
    if (sys::path::parent_path(at) == at)
      break;
  }
  return llvm::join(parts, ".");
}

/// An imported module's context: its parse (the ParseCache's entry, with
/// the boundary detc placed), its edits and its options (report lines
/// the user's: the boundary's line is detc's own).
struct PlanContext::ModulePlan {
  std::string path;
  std::string userSource;
  TransformOptions options;
  std::unique_ptr<EditList> edits;
  std::unique_ptr<PlanContext> ctx;
};

PlanContext *PlanContext::moduleContext(StringRef fileName) {
  if (owner)
    return owner->moduleContext(fileName);
  if (fileName == file.getName())
    return this;
  if (!options.modules)
    return nullptr;
  if (!modulePlans)
    modulePlans =
        std::make_shared<std::vector<std::unique_ptr<ModulePlan>>>();
  for (const std::unique_ptr<ModulePlan> &m : *modulePlans)
    if (m->path == fileName)
      return m->ctx.get();
  const frontend::ParseCache::Entry &entry =
      options.modules->get(fileName, diags);
  if (!entry.file || !entry.parsed || !entry.parsed->module)
    return nullptr;
  auto m = std::make_unique<ModulePlan>();
  m->path = fileName.str();
  StringRef bytes = entry.file->getBytes();
  auto user = options.moduleSources.find(m->path);
  m->userSource = user != options.moduleSources.end() ? user->second
                                                      : bytes.str();
  m->options = options;
  m->options.userSource.clear();
  m->options.userLines.clear();
  m->edits = std::make_unique<EditList>(bytes);
  // The lines detc put in before planning (the boundary): a line of the
  // parsed text that is not the user's next line is detc's own.
  SmallVector<StringRef> mine, users;
  bytes.split(mine, '\n');
  StringRef(m->userSource).split(users, '\n');
  for (size_t line = 0, u = 0; line < mine.size(); ++line) {
    if (u < users.size() && mine[line] == users[u]) {
      m->options.userLines.push_back(unsigned(++u));
      continue;
    }
    m->options.userLines.push_back(0);
    m->edits->markAdded(unsigned(line + 1));
  }
  m->ctx = std::make_unique<PlanContext>(*entry.file, *entry.parsed->module,
                                         module, a, m->options, diags,
                                         *m->edits);
  m->ctx->owner = this;
  // The lowering's name of the module (its body is `@"engine.<module>"`):
  // the prefix of its globals (`@engine.steps`), which is the name the
  // script imports it under.
  module.walk([&](ir::FuncOp f) {
    std::optional<ir::SourceSpan> at = ir::getSourceSpan(f->getLoc());
    StringRef name = f.getSymName();
    if (f.getKind() == ir::FuncKind::Module && at && at->file == fileName &&
        name.consume_back(".<module>"))
      m->ctx->moduleName = name.str();
  });
  if (m->ctx->moduleName.empty())
    m->ctx->moduleName = importName(file.getName(), fileName);
  modulePlans->push_back(std::move(m));
  return modulePlans->back()->ctx.get();
}

std::vector<EditedModule> PlanContext::finishModules() {
  std::vector<EditedModule> out;
  if (!modulePlans)
    return out;
  for (const std::unique_ptr<ModulePlan> &m : *modulePlans) {
    PlanContext &c = *m->ctx;
    c.flushGuards();
    if (c.edits.empty()) // only read (what a hint's nest changes there)
      continue;
    // The module's edits call the runtime the script's header imported
    // (the script runs first: it installs the edited module).
    c.edits.insertLines(c.leadingBlockEnd() + 1,
                        {formatv("import detc_runtime as {0}", kRuntimeAlias)},
                        "the runtime of the script that installs this "
                        "edited copy of the module");
    std::array<uint8_t, 32> digest =
        SHA256::hash(arrayRefFromStringRef(m->userSource));
    StringRef sep = StringRef(m->path).starts_with("/") ? "" : "/";
    out.push_back({m->path, c.moduleName, toHex(digest, /*LowerCase=*/true),
                   c.edits.apply(),
                   c.edits.diff(("a" + sep + m->path).str(),
                                ("b" + sep + m->path).str())});
  }
  return out;
}

std::optional<StringRef> PlanContext::indentAt(uint32_t offset) const {
  uint32_t start = offset;
  while (start > 0 && src[start - 1] != '\n')
    --start;
  StringRef indent = src.slice(start, offset);
  if (indent.find_first_not_of(" \t") != StringRef::npos)
    return std::nullopt;
  return indent;
}

} // namespace detc::codegen

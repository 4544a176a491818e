//===- VaccinePlan.cpp - In-situ crash recovery (--vaccinate) -------------===//
//
// DAiFU (SPEC §7, docs/vaccinate.md). Every body of a vaccinated function
// — the function's own, and each loop, `if`/`elif`/`else`, `with`, `try`/
// `except`/`else`/`finally` body written on its own lines — becomes a cell:
// a nested `def` whose statements are guarded by a resume index and which
// is called through the runtime's crash barrier. An exception stops at the
// innermost barrier with every enclosing frame still live (no `finally` or
// `with` exit has run); after a fix the barrier calls the cell again from
// the statement that raised. The cells share the function's variables as
// Python closures share them (`nonlocal`; `global` at module level), so
// shadowing, closures, defaults and comprehensions keep their meaning.
// `return`, `break` and `continue` crossing a cell become values the code
// after each call acts on.
//
// No user byte moves: the cell's `def` goes between the header's and the
// body's indentation (a body indented by 4 gets the `def` at +1 and the
// guards at +2), so only lines are inserted and jump keywords replaced.
//
//   for x in xs:                   for x in xs:
//       y = f(x)                    def _detc_cell_3(_detc_r):
//       if y: break                  nonlocal x, y
//                                    if _detc_r <= 0:
//                                        y = f(x)
//                                    if _detc_r <= 1:
//                                        if y: return _detc_rt.vaccine.BREAK
//                                   _detc_c = _detc_rt.vaccine.run(_detc_cell_3, 3)
//                                   if _detc_c is _detc_rt.vaccine.BREAK: break
//                                   ...
//
//===----------------------------------------------------------------------===//

#include "FunctionScope.h"
#include "PlanContext.h"
#include "detc/codegen/PythonScan.h"
#include "StatementIndex.h"

#include "detc/frontend/ASTDump.h"
#include "detc/ir/DetcOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <map>
#include <algorithm>
#include <set>

using namespace llvm;

namespace detc::codegen {

namespace {

constexpr StringLiteral kV = "_detc_rt.vaccine";

/// Calls that never draw random numbers: a statement made only of these
/// needs no RNG snapshot before it (docs/vaccinate.md, "RNG rewind").
bool drawFree(StringRef callee) {
  StringRef last = callee.rsplit('.').second;
  if (last.empty())
    last = callee;
  return StringSwitch<bool>(last)
      .Cases("print", "len", "range", "enumerate", "zip", "isinstance", true)
      .Cases("str", "int", "float", "bool", "format", "append", "extend", true)
      .Cases("item", "size", "zero_grad", "backward", "step", "to", true)
      .Cases("cuda", "cpu", "detach", "save", "state_dict", true)
      .Cases("load_state_dict", "update", "info", "write", "flush", true)
      .Cases("eq", "sum", "mean", "max", "min", "time", "perf_counter", true)
      .Cases("join", "exists", "makedirs", "train", "eval", "numel", true)
      .Cases("argmax", "view", "reshape", "add_", "mul_", "clone", true)
      .Default(false);
}

/// The dotted name of a callee (`a.b.c`), or empty.
std::string calleeName(const ast::Expr *e) {
  std::string out;
  while (auto *a = dyn_cast_or_null<ast::Attribute>(e)) {
    out = "." + a->attr.str() + out;
    e = a->value;
  }
  auto *n = dyn_cast_or_null<ast::Name>(e);
  return n ? n->id.str() + out : (out.empty() ? "" : "?" + out);
}

/// What surrounds the statements being planned.
struct CellScope {
  std::string fnName;  ///< "main", or "<module>".
  bool module = false; ///< Names are shared by `global`.
  std::vector<std::string> declarations; ///< `nonlocal ...`/`global ...`
};

/// What encloses a body within its function.
struct Enclosing {
  /// Type expressions of the enclosing `try` handlers (their source text);
  /// `handlesAll`: one of them catches every Exception.
  std::vector<std::string> handled;
  bool handlesAll = false;
  bool inLoopCell = false; ///< A loop body cell encloses it.
  /// The body is a block's directly at the module's top level (outside any
  /// def): its cell's call cannot `return` a code, and none can arise.
  bool atTop = false;
};

class Vaccinator {
public:
  Vaccinator(PlanContext &ctx, const std::vector<std::string> &chosen)
      : ctx(ctx), chosen(chosen) {}

  bool run() {
    collectModuleDefs();
    collectOpOffsets();
    std::vector<const ast::FunctionDef *> fns = selectFunctions();
    if (ctx.diags.hasErrors())
      return false;
    for (const ast::FunctionDef *fn : fns)
      vaccinateFunction(fn);
    if (chosen.empty())
      vaccinateModuleTop();
    if (ctx.diags.hasErrors())
      return false;
    for (auto &[line, lines] : pending)
      ctx.edits.insertNotedLines(line, merge(lines, ctx.edits.takeLines(line)));
    ctx.extraHeader.push_back(header());
    return true;
  }

private:
  // ---- Which functions --------------------------------------------------
  void collectModuleDefs() {
    for (const ast::Stmt *s : ctx.tree.body)
      if (auto *f = dyn_cast<ast::FunctionDef>(s))
        moduleDefs[f->name.str()] = f;
  }

  /// Module-level functions called by name (or handed to a process
  /// launcher: `mp.spawn(main_worker, ...)`) from `body`, not entering
  /// nested defs.
  void callsIn(ArrayRef<const ast::Node *> roots,
               SmallVectorImpl<StringRef> &out) {
    std::vector<const ast::Node *> work(roots.begin(), roots.end());
    while (!work.empty()) {
      const ast::Node *n = work.back();
      work.pop_back();
      if (isa<ast::FunctionDef, ast::ClassDef, ast::Lambda>(n))
        continue;
      if (auto *c = dyn_cast<ast::Call>(n)) {
        if (auto *f = dyn_cast<ast::Name>(c->func))
          out.push_back(f->id);
        std::string callee = calleeName(c->func);
        if (StringRef(callee).ends_with("spawn") ||
            StringRef(callee).ends_with("Process") ||
            StringRef(callee).ends_with("start_processes"))
          for (const ast::Expr *a : c->args)
            if (auto *name = dyn_cast<ast::Name>(a))
              out.push_back(name->id);
        for (const ast::Keyword *k : c->keywords)
          if (k->arg == "target")
            if (auto *name = dyn_cast<ast::Name>(k->value))
              out.push_back(name->id);
      }
      ast::forEachChild(n, [&](StringRef, const ast::Node *child) {
        if (child)
          work.push_back(child);
      });
    }
  }

  std::vector<const ast::FunctionDef *> selectFunctions() {
    std::vector<const ast::FunctionDef *> out;
    if (!chosen.empty()) {
      for (const std::string &name : chosen) {
        auto it = moduleDefs.find(name);
        if (it == moduleDefs.end()) {
          ctx.diags.error(&ctx.file, {1, 0, 0},
                          "--vaccinate: no function '" + name +
                              "' at the top level of the script");
          continue;
        }
        out.push_back(it->second);
      }
    } else {
      // The entry (what the top level calls) and every module-level
      // function it reaches by name.
      SmallVector<StringRef> names;
      std::vector<const ast::Node *> top;
      for (const ast::Stmt *s : ctx.tree.body)
        if (!isa<ast::FunctionDef>(s))
          top.push_back(s);
      callsIn(top, names);
      StringSet<> seen;
      while (!names.empty()) {
        StringRef name = names.pop_back_val();
        auto it = moduleDefs.find(name);
        if (it == moduleDefs.end() || !seen.insert(name).second)
          continue;
        out.push_back(it->second);
        std::vector<const ast::Node *> body(it->second->body.begin(),
                                            it->second->body.end());
        callsIn(body, names);
      }
    }
    llvm::sort(out, [](auto *x, auto *y) {
      return x->getRange().begin.offset < y->getRange().begin.offset;
    });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    // Generators and coroutines keep their frames across suspensions: left
    // as they are.
    llvm::erase_if(out, [&](const ast::FunctionDef *fn) {
      FunctionScope s = scopeOf(fn, ctx.tree);
      if (!fn->isAsync && !s.suspends)
        return false;
      ctx.diags.report(frontend::Severity::Note, &ctx.file, fn->getRange().begin,
                     "--vaccinate: '" + fn->name.str() + "' is " +
                         (fn->isAsync ? "async" : "a generator") +
                         "; left as it is (no crash barrier)");
      return true;
    });
    return out;
  }

  // ---- Cells ------------------------------------------------------------
  void vaccinateFunction(const ast::FunctionDef *fn) {
    vaccinated.insert(fn->name.str());
    FunctionScope s = scopeOf(fn, ctx.tree);
    CellScope scope;
    scope.fnName = fn->name.str();
    SmallVector<StringRef> shared(s.params.begin(), s.params.end());
    shared.append(s.locals.begin(), s.locals.end());
    shared.append(s.nonlocals.begin(), s.nonlocals.end());
    if (!shared.empty())
      scope.declarations.push_back("nonlocal " + join(shared, ", "));
    if (!s.globals.empty())
      scope.declarations.push_back("global " + join(s.globals, ", "));
    // `nonlocal x` needs a binding of x in the function; the function's
    // own statements all move into the cell, so bind them where no code
    // runs.
    std::string preamble;
    if (!s.locals.empty())
      preamble = "if False: " + join(s.locals, " = ") + " = None";
    std::optional<StringRef> h = ctx.indentAt(fn->getRange().begin.offset);
    if (!h) {
      ctx.diags.error(&ctx.file, fn->getRange().begin,
                      "--vaccinate: '" + fn->name.str() +
                          "' does not start its line");
      return;
    }
    makeCell(fn->body, *h, CellKind::Function, scope, Enclosing{}, preamble);
  }

  /// At module level, loops get cells (those outside any def, also inside
  /// `if __name__ == "__main__":` and other blocks), and so do runs of
  /// simple statements at column 0 (vaccinateTopStatements); the rest is
  /// listed in a warning.
  void vaccinateModuleTop() {
    FunctionScope s = scopeOf(nullptr, ctx.tree);
    CellScope scope;
    scope.fnName = "<module>";
    scope.module = true;
    if (!s.locals.empty())
      scope.declarations.push_back("global " + join(s.locals, ", "));
    std::vector<const ast::Stmt *> covered = vaccinateTopStatements(scope);
    std::vector<const ast::Stmt *> work(ctx.tree.body.rbegin(),
                                        ctx.tree.body.rend());
    std::vector<const ast::Stmt *> uncovered;
    while (!work.empty()) {
      const ast::Stmt *st = work.back();
      work.pop_back();
      if (isa<ast::FunctionDef, ast::ClassDef>(st))
        continue;
      if (isa<ast::For, ast::While>(st)) {
        visitStatement(st, scope, Enclosing{}, 0);
        continue;
      }
      // A block directly at the top level (`if __name__ == "__main__":`,
      // `if ddp:`, `with ...:`, `try:`): its bodies become cells, as a
      // function's blocks do.
      if (isa<ast::If, ast::With, ast::Try>(st) &&
          llvm::is_contained(ctx.tree.body, st) && bodiesCanBeCells(st)) {
        Enclosing top;
        top.atTop = true;
        visitStatement(st, scope, top, 0);
        continue;
      }
      bool block = false;
      ast::forEachBody(st, [&](ast::NodeList<ast::Stmt> b) {
        block = true;
        for (auto it = b.rbegin(); it != b.rend(); ++it)
          work.push_back(*it);
      });
      if (!block && mayFail(st) && !llvm::is_contained(covered, st))
        uncovered.push_back(st);
    }
    warnUncovered(uncovered);
  }

  /// Whether every body of the top-level block `st` (and of the blocks in
  /// them, down to defs) sits on lines of its own, indented by spaces, 3 or
  /// more past its header, and holds nothing a def refuses: `from m import
  /// *`, `global`, `nonlocal`.
  bool bodiesCanBeCells(const ast::Stmt *st) const {
    bool ok = true;
    std::vector<const ast::Stmt *> work{st};
    while (ok && !work.empty()) {
      const ast::Stmt *s = work.back();
      work.pop_back();
      if (isa<ast::FunctionDef, ast::ClassDef>(s))
        continue;
      if (auto *i = dyn_cast<ast::ImportFrom>(s))
        ok &= llvm::none_of(i->names, [](const ast::Alias *a) {
          return a->name == "*";
        });
      ok &= !isa<ast::Global, ast::Nonlocal>(s);
      std::optional<StringRef> h = ctx.indentAt(s->getRange().begin.offset);
      ast::forEachBody(s, [&](ast::NodeList<ast::Stmt> b) {
        if (b.empty())
          return;
        // An `elif`: a statement at its `if`'s indentation, whose own
        // bodies are checked.
        if (b.size() == 1 && isElif(b.front())) {
          work.push_back(b.front());
          return;
        }
        // makeCell's room: 3 spaces or more past the header (else it
        // refuses the script; here the block just stays as it is).
        std::optional<StringRef> in =
            ownLines(b) ? ctx.indentAt(b.front()->getRange().begin.offset)
                        : std::nullopt;
        ok &= h && in && in->starts_with(*h) && in->size() >= h->size() + 3 &&
              in->drop_front(h->size()).find_first_not_of(' ') ==
                  StringRef::npos;
        work.insert(work.end(), b.begin(), b.end());
      });
    }
    return ok;
  }

  /// Simple statements at the top level (`model = Net().to(device)`, the
  /// module's own `x = torch.randn(...)`): runs of them become cells too,
  /// without moving them — each statement's guard goes before it on its
  /// line, so its lines keep their bytes (a multi-line string too):
  ///
  ///     def _detc_cell_9(_detc_r):
  ///      global model, ...
  ///      if _detc_r <= 0: model = Net().to(device)
  ///     _detc_c = _detc_rt.vaccine.run(_detc_cell_9, 9)
  ///
  /// Left out (the warning lists them): a statement that shares a line
  /// with another, does not start its line, or has another planner's
  /// lines before it (a replay restore after a checkpoint) where the run
  /// would take them into its def. Returns the statements covered.
  std::vector<const ast::Stmt *>
  vaccinateTopStatements(const CellScope &scope) {
    std::vector<const ast::Stmt *> covered;
    std::vector<const ast::Stmt *> run;
    auto flush = [&] {
      if (!run.empty())
        makeTopCell(run, scope);
      covered.insert(covered.end(), run.begin(), run.end());
      run.clear();
    };
    const auto &body = ctx.tree.body;
    // detc's header goes before the first statement that is no docstring
    // or __future__ import, possibly on its line: no run starts there.
    const ast::Stmt *headerAt = nullptr;
    for (auto [i, st] : llvm::enumerate(body)) {
      auto *e = dyn_cast<ast::ExprStmt>(st);
      auto *c = e ? dyn_cast_or_null<ast::Constant>(e->value) : nullptr;
      auto *future = dyn_cast<ast::ImportFrom>(st);
      if (!(i == 0 && c && c->kind == ast::ConstantKind::Str) &&
          !(future && future->module == "__future__")) {
        headerAt = st;
        break;
      }
    }
    for (size_t i = 0; i < body.size(); ++i) {
      const ast::Stmt *st = body[i];
      unsigned first = ctx.edits.lineOf(st->getRange().begin.offset);
      unsigned last = ctx.edits.lineOf(st->getRange().end.offset - 1);
      bool alone =
          (i == 0 || ctx.edits.lineOf(body[i - 1]->getRange().end.offset -
                                      1) != first) &&
          (i + 1 == body.size() ||
           ctx.edits.lineOf(body[i + 1]->getRange().begin.offset) != last);
      std::optional<StringRef> indent =
          ctx.indentAt(st->getRange().begin.offset);
      bool simple = isa<ast::Assign, ast::AugAssign, ast::AnnAssign,
                        ast::ExprStmt, ast::Delete, ast::Assert>(st);
      // Lines other planners put inside the run would land inside its def.
      // (Also after it: a checkpoint's restore code continues it there.)
      bool clear = true;
      for (unsigned l = first; l <= last + 1; ++l)
        clear &= !ctx.edits.hasLinesBefore(l);
      if (!(simple && alone && indent && indent->empty() && clear &&
            mayFail(st) && st != headerAt)) {
        flush();
        continue;
      }
      run.push_back(st);
    }
    flush();
    return covered;
  }

  void makeTopCell(ArrayRef<const ast::Stmt *> run, const CellScope &scope) {
    unsigned site = ctx.newSite();
    std::string cell = formatv("_detc_cell_{0}", site).str();
    unsigned firstLine = ctx.edits.lineOf(run.front()->getRange().begin.offset);
    add(firstLine, "def " + cell + "(_detc_r):", Line::OpensBody);
    for (const std::string &decl : scope.declarations)
      add(firstLine, " " + decl, Line::OpensBody);
    std::string table;
    for (auto [k, st] : llvm::enumerate(run)) {
      unsigned line = ctx.edits.lineOf(st->getRange().begin.offset);
      table += formatv("{0},", line).str();
      ctx.edits.wrap(st->getRange().begin.offset, st->getRange().end.offset,
                     formatv(" if _detc_r <= {0}{1}: ", k,
                             maybeDraws(st)
                                 ? formatv(" and {0}.mark({1})", kV, k).str()
                                 : std::string())
                         .str(),
                     "");
      ctx.edits.note(line, "vaccinated (crash barrier)");
      visitStatement(st, scope, Enclosing{}, 0);
    }
    unsigned end = ctx.edits.lineOf(run.back()->getRange().end.offset - 1) + 1;
    add(end, formatv("_detc_c = {0}.run({1}, {2})", kV, cell, site).str(),
        Line::Closes, 1);
    sites.push_back(formatv("{0}: ({1}, \"block\", ({2}), False, ())", site,
                            pyString("<module>"), table)
                        .str());
  }

  /// Whether a top-level statement does something that can raise and no
  /// barrier covers: not an import (nothing to recover), a docstring,
  /// `pass`, `global`, a name bound to a constant or another name, or a
  /// call of a vaccinated function (`main()`: its body's cells are).
  bool mayFail(const ast::Stmt *st) const {
    if (isa<ast::Import, ast::ImportFrom, ast::Pass, ast::Global,
            ast::Nonlocal>(st))
      return false;
    auto plain = [&](const ast::Expr *e) {
      if (auto *c = dyn_cast_or_null<ast::Call>(e))
        if (auto *n = dyn_cast<ast::Name>(c->func))
          return vaccinated.count(n->id.str()) != 0 &&
                 llvm::all_of(c->args, [](const ast::Expr *a) {
                   return isa<ast::Constant, ast::Name>(a);
                 });
      return !e || isa<ast::Constant, ast::Name>(e);
    };
    if (auto *e = dyn_cast<ast::ExprStmt>(st))
      return !plain(e->value);
    if (auto *a = dyn_cast<ast::Assign>(st))
      return !plain(a->value) ||
             llvm::any_of(a->targets, [](const ast::Expr *t) {
               return !isa<ast::Name>(t);
             });
    return true;
  }

  /// The top level's statements that got no cell (on their header's line,
  /// sharing a line, before another planner's lines): said once, with their
  /// lines, so that a crash there is no surprise.
  void warnUncovered(const std::vector<const ast::Stmt *> &uncovered) {
    if (uncovered.empty())
      return;
    std::string lines;
    for (const ast::Stmt *st : llvm::ArrayRef(uncovered).take_front(12))
      lines += (lines.empty() ? "" : ", ") +
               std::to_string(ctx.userLineAt(st->getRange().begin.offset));
    if (uncovered.size() > 12)
      lines += ", ...";
    ctx.warning(uncovered.front()->getRange().begin.offset,
                formatv("--vaccinate: {0} statement(s) at the top level "
                        "outside any loop have no crash barrier (line {1}): "
                        "an exception there ends the run as it would "
                        "without detc; code in a function the script calls, "
                        "or in a loop, is covered",
                        uncovered.size(), lines)
                    .str());
  }

  enum class CellKind { Function, Loop, Block };

  /// Whether `body` sits on lines of its own (else it shares its header's
  /// line and stays part of the enclosing cell's statement).
  bool ownLines(ast::NodeList<ast::Stmt> body) const {
    return !body.empty() && ctx.indentAt(body.front()->getRange().begin.offset);
  }

  void makeCell(ast::NodeList<ast::Stmt> body, StringRef h, CellKind kind,
                const CellScope &scope, Enclosing enclosing,
                const std::string &preamble = "") {
    const ast::Stmt *first = body.front();
    StringRef b = *ctx.indentAt(first->getRange().begin.offset);
    if (!b.starts_with(h) ||
        b.drop_front(h.size()).find_first_not_of(' ') != StringRef::npos ||
        b.size() < h.size() + 3) {
      ctx.diags.error(&ctx.file, first->getRange().begin,
                      "--vaccinate: this block is indented by fewer than 3 "
                      "spaces more than its header (or with tabs); the "
                      "cell's `def` and guards go between the two levels. "
                      "Re-indent it with 4 spaces");
      return;
    }
    std::string d = (h + " ").str(), g = (h + "  ").str();
    // The statements inside the cell are in its def, whatever encloses it.
    bool atTop = enclosing.atTop;
    enclosing.atTop = false;
    unsigned site = ctx.newSite();
    std::string cell = formatv("_detc_cell_{0}", site).str();
    unsigned firstLine = ctx.edits.lineOf(first->getRange().begin.offset);
    if (!preamble.empty())
      add(firstLine, d + preamble, Line::OpensBody);
    add(firstLine, d + "def " + cell + "(_detc_r):", Line::OpensBody);
    for (const std::string &decl : scope.declarations)
      add(firstLine, g + decl, Line::OpensBody);
    if (kind == CellKind::Loop)
      enclosing.inLoopCell = true;
    // One guard per line that starts statements.
    std::vector<unsigned> lines;
    std::string raises; // guard indices of `raise` statements
    for (const ast::Stmt *st : body) {
      unsigned line = ctx.edits.lineOf(st->getRange().begin.offset);
      // A crash in `b` of `a; b` would run `a` again: each statement gets
      // a line (and a guard) of its own.
      if (!lines.empty() && lines.back() == line)
        ctx.needOwnLine(st->getRange().begin.offset);
      if (isa<ast::Raise>(st))
        raises += formatv("{0},", lines.size() - (lines.empty() || lines.back() != line ? 0 : 1)).str();
      if (lines.empty() || lines.back() != line) {
        unsigned k = lines.size();
        lines.push_back(line);
        add(line, g + formatv("if _detc_r <= {0}{1}:", k,
                              maybeDraws(st) ? formatv(" and {0}.mark({1})",
                                                       kV, k)
                                                 .str()
                                             : std::string())
                          .str(),
            Line::Opens);
      }
      // A fetch that raises fails this `for` statement, but a recovery
      // goes on with the same iterator: the loop keeps its position
      // (vaccine.fetches) instead of starting the epoch over.
      // (`range(...)` cannot fail while it iterates.)
      auto *loop = dyn_cast<ast::For>(st);
      auto *rangeCall = loop ? dyn_cast<ast::Call>(loop->iter) : nullptr;
      if (loop && !loop->isAsync &&
          !(rangeCall && calleeName(rangeCall->func) == "range"))
        ctx.edits.wrap(loop->iter->getRange().begin.offset,
                       loop->iter->getRange().end.offset,
                       formatv("{0}.fetches({1}, {2}, ", kV, site,
                               lines.size() - 1)
                           .str(),
                       ")");
      visitStatement(st, scope, enclosing, 0);
    }
    const ast::Stmt *last = body.back();
    unsigned end = ctx.edits.lineOf(last->getRange().end.offset - 1) + 1;
    std::string handled;
    if (enclosing.handlesAll)
      handled = formatv(", {0}.ALL", kV).str();
    else if (!enclosing.handled.empty())
      handled = ", lambda: (" + join(enclosing.handled, ", ") + ",)";
    size_t level = b.size();
    add(end,
        d + formatv("_detc_c = {0}.run({1}, {2}{3})", kV, cell, site, handled)
                .str(),
        Line::Closes, level);
    switch (kind) {
    case CellKind::Function:
      add(end, d + "if _detc_c is not None: return _detc_c.value",
          Line::Closes, level);
      break;
    case CellKind::Loop:
      add(end, d + formatv("if _detc_c is {0}.BREAK: break", kV).str(),
          Line::Closes, level);
      if (!scope.module)
        add(end,
            d + formatv("if _detc_c is not None and _detc_c is not "
                        "{0}.CONTINUE: return _detc_c",
                        kV)
                    .str(),
            Line::Closes, level);
      break;
    case CellKind::Block:
      if (!atTop)
        add(end, d + "if _detc_c is not None: return _detc_c", Line::Closes,
            level);
      break;
    }
    std::string table;
    for (unsigned line : lines)
      table += formatv("{0},", line).str();
    sites.push_back(formatv("{0}: ({1}, \"{2}\", ({3}), {4}, ({5}))", site,
                            pyString(scope.fnName),
                            kind == CellKind::Loop       ? "loop"
                            : kind == CellKind::Function ? "function"
                                                         : "block",
                            table, enclosing.inLoopCell ? "True" : "False",
                            raises)
                        .str());
  }

  /// Plans `st`, a statement inside a cell: its jumps that cross the cell
  /// become values, its bodies become cells. `loops`: loops between `st`
  /// and the cell's boundary (one-line loops are not cells).
  void visitStatement(const ast::Stmt *st, const CellScope &scope,
                      const Enclosing &enclosing, unsigned loops) {
    if (auto *r = dyn_cast<ast::Return>(st)) {
      if (scope.module)
        return;
      if (r->value)
        ctx.edits.wrap(r->value->getRange().begin.offset,
                       r->value->getRange().end.offset,
                       formatv("{0}.Ret((", kV).str(), "))");
      else
        ctx.edits.replace(st->getRange().begin.offset,
                          st->getRange().end.offset,
                          formatv("return {0}.RET_NONE", kV).str());
      return;
    }
    // A cell declares the function's variables nonlocal (global at module
    // level), and Python refuses an annotation of such a name ("annotated
    // name 'x' can't be nonlocal"): `x: T = v` becomes `x = v`, a bare
    // `x: T` becomes `pass`. Neither changes what runs: a function never
    // evaluates its locals' annotations, and a cell's names are not the
    // module's annotated globals.
    if (auto *a = dyn_cast<ast::AnnAssign>(st); a && a->simple) {
      if (a->value)
        ctx.edits.replace(a->target->getRange().end.offset,
                          a->value->getRange().begin.offset, " = ");
      else
        ctx.edits.replace(st->getRange().begin.offset,
                          st->getRange().end.offset, "pass");
      return;
    }
    if (isa<ast::Break, ast::Continue>(st)) {
      if (loops == 0)
        ctx.edits.replace(st->getRange().begin.offset,
                          st->getRange().end.offset,
                          formatv("return {0}.{1}", kV,
                                  isa<ast::Break>(st) ? "BREAK" : "CONTINUE")
                              .str());
      return;
    }
    std::optional<StringRef> h = ctx.indentAt(st->getRange().begin.offset);
    auto body = [&](ast::NodeList<ast::Stmt> b, CellKind kind,
                    const Enclosing &e, bool isLoopBody) {
      if (b.empty())
        return;
      if (h && ownLines(b)) {
        makeCell(b, *h, kind, scope, e);
        return;
      }
      for (const ast::Stmt *inner : b)
        visitStatement(inner, scope, e, loops + (isLoopBody ? 1 : 0));
    };
    if (auto *f = dyn_cast<ast::For>(st)) {
      body(f->body, CellKind::Loop, enclosing, true);
      body(f->orelse, CellKind::Block, enclosing, false);
    } else if (auto *w = dyn_cast<ast::While>(st)) {
      body(w->body, CellKind::Loop, enclosing, true);
      body(w->orelse, CellKind::Block, enclosing, false);
    } else if (auto *i = dyn_cast<ast::If>(st)) {
      body(i->body, CellKind::Block, enclosing, false);
      // `elif` is an If in orelse whose header has the same indentation.
      if (i->orelse.size() == 1 && isElif(i->orelse.front()))
        visitElif(cast<ast::If>(i->orelse.front()), *h, scope, enclosing,
                  loops);
      else
        body(i->orelse, CellKind::Block, enclosing, false);
    } else if (auto *w = dyn_cast<ast::With>(st)) {
      Enclosing inner = enclosing;
      // contextlib.suppress(E) swallows E at the `with`: the barrier
      // inside must let it through.
      for (const ast::WithItem *item : w->items)
        if (auto *c = dyn_cast<ast::Call>(item->contextExpr))
          if (StringRef(calleeName(c->func)).ends_with("suppress"))
            for (const ast::Expr *a : c->args)
              inner.handled.push_back(text(a));
      body(w->body, CellKind::Block, inner, false);
    } else if (auto *t = dyn_cast<ast::Try>(st)) {
      Enclosing inner = enclosing;
      for (const ast::ExceptHandler *hd : t->handlers) {
        std::string type = hd->type ? text(hd->type) : "";
        if (type.empty() || type == "Exception" || type == "BaseException")
          inner.handlesAll = true;
        else
          inner.handled.push_back(type);
      }
      body(t->body, CellKind::Block, inner, false);
      for (const ast::ExceptHandler *hd : t->handlers)
        body(hd->body, CellKind::Block, enclosing, false);
      body(t->orelse, CellKind::Block, enclosing, false);
      body(t->finalbody, CellKind::Block, enclosing, false);
    }
    // match/case bodies, defs and classes stay as they are: a crash there
    // retries the whole statement.
  }

  /// An If in orelse written `elif` (its node begins at the keyword), not
  /// `else:` and an `if` of its own.
  bool isElif(const ast::Stmt *s) const {
    return isa<ast::If>(s) &&
           ctx.src.substr(s->getRange().begin.offset).starts_with("elif");
  }

  void visitElif(const ast::If *e, StringRef h, const CellScope &scope,
                 const Enclosing &enclosing, unsigned loops) {
    auto body = [&](ast::NodeList<ast::Stmt> b) {
      if (b.empty())
        return;
      if (ownLines(b)) {
        makeCell(b, h, CellKind::Block, scope, enclosing);
        return;
      }
      for (const ast::Stmt *inner : b)
        visitStatement(inner, scope, enclosing, loops);
    };
    body(e->body);
    if (e->orelse.size() == 1 && isElif(e->orelse.front()))
      visitElif(cast<ast::If>(e->orelse.front()), h, scope, enclosing, loops);
    else
      body(e->orelse);
  }

  /// Where the IR's ops begin in this file: every op, and those that may
  /// draw random numbers — draws, model forwards, calls of the script's
  /// functions, data loading (the analysis' model of the program).
  void collectOpOffsets() {
    ctx.module.walk([&](mlir::Operation *op) {
      std::optional<Span> span = ctx.spanOf(op);
      if (!span)
        return;
      anyOp.push_back(span->exprBegin);
      if (isa<ir::DrawOp, ir::ForwardOp, ir::CallOp, ir::BatchesOp,
              ir::FetchOp, ir::LoadDataOp, ir::BuildOp, ir::ParallelOp>(op))
        drawOp.push_back(span->exprBegin);
    });
    llvm::sort(anyOp);
    llvm::sort(drawOp);
  }

  static bool anyIn(const std::vector<uint32_t> &offsets, uint32_t b,
                    uint32_t e) {
    auto it = llvm::lower_bound(offsets, b);
    return it != offsets.end() && *it < e;
  }

  /// Whether the statement's own code (not its bodies) may draw random
  /// numbers: then the barrier snapshots the generators before it, so
  /// that a retry draws the same numbers. The IR says so; code it did not
  /// model (no op there) may draw when it calls something not known to be
  /// free of draws.
  bool maybeDraws(const ast::Stmt *st) const {
    std::vector<const ast::Node *> work;
    auto header = [&](const ast::Node *n) {
      if (n)
        work.push_back(n);
    };
    if (auto *f = dyn_cast<ast::For>(st))
      header(f->iter);
    else if (auto *w = dyn_cast<ast::While>(st))
      header(w->test);
    else if (auto *i = dyn_cast<ast::If>(st))
      header(i->test);
    else if (auto *w = dyn_cast<ast::With>(st))
      for (const ast::WithItem *item : w->items)
        header(item->contextExpr);
    else if (isa<ast::Try, ast::FunctionDef, ast::ClassDef>(st))
      return false;
    else
      header(st);
    bool modelled = false;
    for (const ast::Node *n : work) {
      uint32_t b = n->getRange().begin.offset, e = n->getRange().end.offset;
      if (anyIn(drawOp, b, e))
        return true;
      modelled |= anyIn(anyOp, b, e);
    }
    if (modelled)
      return false;
    while (!work.empty()) {
      const ast::Node *n = work.back();
      work.pop_back();
      if (isa<ast::Lambda>(n))
        continue;
      if (auto *c = dyn_cast<ast::Call>(n))
        if (!drawFree(calleeName(c->func)))
          return true;
      ast::forEachChild(n, [&](StringRef, const ast::Node *child) {
        if (child)
          work.push_back(child);
      });
    }
    return false;
  }

  std::string text(const ast::Node *n) const {
    return ctx.src
        .slice(n->getRange().begin.offset, n->getRange().end.offset)
        .str();
  }


  /// A line this planner inserts: it opens a cell's statement (`def`,
  /// declarations, guard), or closes a cell whose body is indented by
  /// `level` (the call after the body).
  struct Line {
    std::string text;
    enum { Opens, OpensBody, Closes } role;
    size_t level = 0;
  };
  void add(unsigned line, std::string text, decltype(Line::role) role,
           size_t level = 0) {
    pending[line].push_back({std::move(text), role, level});
  }

  static size_t indentWidth(StringRef line) {
    return line.size() - line.ltrim(" \t").size();
  }

  /// Other planners' lines at this line continue the statement before it
  /// (restore code after a checkpoint) or begin the one after it, at that
  /// statement's indentation: each goes inside the cells closing here whose
  /// bodies it is indented into, and after a body's opening `def`.
  static std::vector<EditList::NotedLine>
  merge(std::vector<Line> mine, std::vector<EditList::NotedLine> theirs) {
    static constexpr StringLiteral kNote = "vaccinated (crash barrier)";
    // The cells closing here close before any opens (a top-level run's
    // cell is planned before the blocks that end where it begins).
    std::stable_partition(mine.begin(), mine.end(), [](const Line &l) {
      return l.role == Line::Closes;
    });
    std::vector<EditList::NotedLine> out;
    std::vector<bool> placed(theirs.size(), false);
    // A block another planner inserts (a restore: `if restoring(K):` and
    // the lines it guards, all with one note) goes where its first line's
    // level puts it, whole: split by the levels of its lines, its body
    // landed inside a closing cell and its header after it.
    auto placeTheirs = [&](size_t minLevel) {
      for (size_t i = 0; i < theirs.size();) {
        size_t end = i + 1;
        while (end < theirs.size() && theirs[end].second == theirs[i].second)
          ++end;
        if (!placed[i] && indentWidth(theirs[i].first) >= minLevel)
          for (size_t j = i; j < end; ++j) {
            out.push_back(theirs[j]);
            placed[j] = true;
          }
        i = end;
      }
    };
    bool opensBody = llvm::any_of(
        mine, [](const Line &l) { return l.role == Line::OpensBody; });
    size_t i = 0;
    for (; i < mine.size() && mine[i].role == Line::Closes; ++i) {
      if (i == 0 || mine[i - 1].level != mine[i].level)
        placeTheirs(mine[i].level);
      out.push_back({mine[i].text, kNote.str()});
    }
    if (!opensBody)
      placeTheirs(0);
    for (; i < mine.size(); ++i)
      out.push_back({mine[i].text, kNote.str()});
    placeTheirs(0);
    return out;
  }

  /// The runtime's table of cells, and which generators a snapshot holds.
  std::string header() const {
    std::string table;
    for (const std::string &s : sites)
      table += (table.empty() ? "" : ", ") + s;
    // Besides torch's: the library generators the script draws from.
    std::set<std::string> gens;
    ctx.module.walk([&](ir::DrawOp draw) {
      StringRef gen = draw.getGen();
      if (gen == "<numpy>" || gen == "<random>")
        gens.insert(gen.drop_front().drop_back().str());
    });
    std::string list;
    for (const std::string &g : gens)
      list += "\"" + g + "\", ";
    std::string command;
    for (const std::string &arg : ctx.options.retransform)
      command += pyString(arg) + ", ";
    std::array<uint8_t, 32> digest =
        SHA256::hash(arrayRefFromStringRef(ctx.options.userSource.empty()
                                               ? ctx.src
                                               : ctx.options.userSource));
    return formatv("{0}.enable({{{1}}, gens=({2}), script={3}, "
                   "source={4}, source_sha256=\"{5}\", retransform=({6}))",
                   kV, table, list,
                   pyString(sys::path::filename(ctx.file.getName())),
                   pyString(ctx.options.sourcePath),
                   toHex(digest, /*LowerCase=*/true), command)
        .str();
  }

  PlanContext &ctx;
  const std::vector<std::string> &chosen;
  std::map<std::string, const ast::FunctionDef *, std::less<>> moduleDefs;
  std::set<std::string> vaccinated; ///< Functions whose bodies are cells.
  std::map<unsigned, std::vector<Line>> pending;
  std::vector<std::string> sites;
  std::vector<uint32_t> anyOp, drawOp;
};

} // namespace

bool planVaccination(PlanContext &ctx) {
  if (!ctx.options.vaccinate)
    return true;
  return Vaccinator(ctx, *ctx.options.vaccinate).run();
}

} // namespace detc::codegen

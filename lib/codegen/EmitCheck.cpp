//===- EmitCheck.cpp - The emitted script must be Python ------------------===//
//
// Verify, don't trust: before `detc transform` writes (or prints) a script,
// it parses it with the same frontend that read the input, then checks the
// scope rules CPython's compiler enforces after parsing (an annotated
// nonlocal or global name, a nonlocal without a binding or at module
// level, a parameter declared global or nonlocal): the vaccinated cells
// declare names nonlocal, and `_iterations: 4` in a cell made a file that
// parsed but did not compile. Either is detc's bug, reported as one with
// exit status 3 — never an invalid file written with exit 0.
//
//===----------------------------------------------------------------------===//

#include "FunctionScope.h"

#include "detc/codegen/Transform.h"
#include "detc/frontend/ASTDump.h"
#include "detc/frontend/Diagnostics.h"
#include "detc/frontend/Parser.h"
#include "detc/frontend/SourceFile.h"

#include <map>

using namespace llvm;
namespace ast = detc::ast;

namespace {
/// The first scope error in `tree` (`line:col: message`, CPython's words).
class ScopeCheck {
public:
  explicit ScopeCheck(const ast::Module &tree) : tree(tree) {}

  std::optional<std::string> run() {
    check(tree.body, nullptr, {});
    return error;
  }

private:
  /// `fn`: the function whose body `body` is (null: the module);
  /// `outer`: the functions around it, innermost last.
  void check(ast::NodeList<ast::Stmt> body, const ast::FunctionDef *fn,
             std::vector<const ast::FunctionDef *> outer) {
    detc::codegen::FunctionScope scope = detc::codegen::scopeOf(fn, tree);
    std::vector<const ast::Node *> work(body.rbegin(), body.rend());
    std::vector<const ast::FunctionDef *> nested;
    while (!work.empty() && !error) {
      const ast::Node *n = work.back();
      work.pop_back();
      if (auto *f = dyn_cast<ast::FunctionDef>(n)) {
        nested.push_back(f);
        continue;
      }
      if (isa<ast::ClassDef, ast::Lambda>(n))
        continue; // their own scopes; detc emits no declarations there
      if (auto *nl = dyn_cast<ast::Nonlocal>(n)) {
        if (!fn)
          return fail(n, "nonlocal declaration not allowed at module level");
        for (StringRef name : nl->names)
          if (!boundAround(name, outer))
            return fail(n, "no binding for nonlocal '" + name.str() +
                               "' found");
      }
      if (auto *a = dyn_cast<ast::AnnAssign>(n); a && a->simple)
        if (auto *t = dyn_cast<ast::Name>(a->target)) {
          if (scope.nonlocals.contains(t->id))
            return fail(n, "annotated name '" + t->id.str() +
                               "' can't be nonlocal");
          if (scope.globals.contains(t->id))
            return fail(n, "annotated name '" + t->id.str() +
                               "' can't be global");
        }
      ast::forEachChild(n, [&](StringRef, const ast::Node *c) {
        if (c)
          work.push_back(c);
      });
    }
    for (StringRef p : scope.params)
      if (scope.nonlocals.contains(p) || scope.globals.contains(p))
        return fail(fn, "name '" + p.str() + "' is parameter and " +
                            (scope.globals.contains(p) ? "global"
                                                       : "nonlocal"));
    if (fn)
      outer.push_back(fn);
    for (const ast::FunctionDef *f : nested)
      if (!error)
        check(f->body, f, outer);
  }

  /// Whether a function around binds `name` (as CPython resolves nonlocal).
  bool boundAround(StringRef name,
                   const std::vector<const ast::FunctionDef *> &outer) {
    for (auto it = outer.rbegin(); it != outer.rend(); ++it) {
      // Each function's scope once: a vaccinated function's cells repeat
      // its whole name list in every `nonlocal`.
      auto [slot, fresh] = scopes.try_emplace(*it);
      if (fresh)
        slot->second = detc::codegen::scopeOf(*it, tree);
      const detc::codegen::FunctionScope &s = slot->second;
      if (s.globals.contains(name))
        return false;
      if (s.locals.contains(name) || s.nonlocals.contains(name) ||
          llvm::is_contained(s.params, name))
        return true;
    }
    return false;
  }

  void fail(const ast::Node *at, const std::string &message) {
    if (error)
      return;
    auto pos = at->getRange().begin;
    error =
        (Twine(pos.line) + ":" + Twine(pos.column + 1) + ": " + message).str();
  }

  const ast::Module &tree;
  std::map<const ast::FunctionDef *, detc::codegen::FunctionScope> scopes;
  std::optional<std::string> error;
};
} // namespace

std::optional<std::string>
detc::codegen::emittedSyntaxError(StringRef name, StringRef text) {
  frontend::DiagnosticEngine diags;
  std::unique_ptr<frontend::SourceFile> file =
      frontend::SourceFile::fromBytes(name, text.str(), diags);
  std::unique_ptr<frontend::ParsedModule> parsed =
      file ? frontend::parseModule(*file, diags) : nullptr;
  if (parsed && parsed->module && !diags.hasErrors())
    return ScopeCheck(*parsed->module).run();
  for (const frontend::Diagnostic &d : diags.getDiagnostics())
    if (d.severity == frontend::Severity::Error)
      return (Twine(d.pos.line) + ":" + Twine(d.pos.column) + ": " +
              d.message + (d.lineText.empty() ? "" : " in '" + d.lineText + "'"))
          .str();
  return std::string("it does not parse");
}

//===- AttributeNames.cpp - What a computed attribute name may be ---------===//

#include "AttributeNames.h"

#include "../Scopes.h"

#include "detc/frontend/ASTDump.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"

using namespace detc;
using namespace detc::frontend;
using namespace detc::frontend::pta;
using Names = std::optional<std::vector<NameChoice>>;

namespace {
/// How a function binds one local name: the values of `name = v` and the
/// iterables of `for name in xs`, or `followed = false` when some binding
/// is of another form (unpacking, `+=`, `with ... as`, a walrus, `del`, an
/// import, `global`/`nonlocal` here or in a nested function, ...).
/// `otherUses`: the name is read other than iterated (`for x in name`) or
/// subscripted (`name[:k]`, `name[i]`): a list it holds may be changed
/// there (`name.append(s)`, `f(name)`, `name[0] = s`, a closure).
struct Bindings {
  llvm::StringRef name;
  std::vector<const ast::Expr *> values, iterables;
  bool followed = true, otherUses = false;

  /// Whether `target` is exactly the name.
  bool isName(const ast::Expr *target) const {
    auto *n = llvm::dyn_cast<ast::Name>(target);
    return n && n->id == name;
  }

  void visit(const ast::Node *n, bool nested) {
    using namespace ast;
    if (!followed)
      return;
    switch (n->getKind()) {
    case NodeKind::Assign:
      if (!nested) {
        auto *a = llvm::cast<Assign>(n);
        for (const Expr *t : a->targets)
          if (isName(t))
            values.push_back(a->value);
          else
            visit(t, nested);
        visit(a->value, nested);
        return;
      }
      break;
    case NodeKind::AnnAssign:
      if (auto *a = llvm::cast<AnnAssign>(n); !nested && isName(a->target)) {
        if (!a->value) // `name: str` binds nothing
          return;
        values.push_back(a->value);
        visit(a->value, nested);
        return;
      }
      break;
    case NodeKind::For: {
      auto *f = llvm::cast<For>(n);
      if (!nested && isName(f->target))
        iterables.push_back(f->iter);
      else
        visit(f->target, nested);
      if (nested || !isName(f->iter)) // `for x in name`: a read
        visit(f->iter, nested);
      for (const Stmt *s : f->body)
        visit(s, nested);
      for (const Stmt *s : f->orelse)
        visit(s, nested);
      return;
    }
    case NodeKind::Subscript:
      if (auto *sub = llvm::cast<Subscript>(n);
          !nested && sub->ctx == ExprContext::Load && isName(sub->value)) {
        visit(sub->slice, nested); // `name[:k]`: a read
        return;
      }
      break;
    case NodeKind::Name:
      if (llvm::cast<Name>(n)->id != name)
        return;
      if (!nested && llvm::cast<Name>(n)->ctx != ExprContext::Load)
        followed = false;
      else
        otherUses = true;
      return;
    case NodeKind::NamedExpr:
      // Binds in the enclosing function, even from a comprehension.
      if (isName(llvm::cast<NamedExpr>(n)->target))
        followed = false;
      break;
    case NodeKind::Global:
      if (llvm::is_contained(llvm::cast<Global>(n)->names, name))
        followed = false;
      return;
    case NodeKind::Nonlocal:
      if (llvm::is_contained(llvm::cast<Nonlocal>(n)->names, name))
        followed = false;
      return;
    case NodeKind::Alias: {
      auto *a = llvm::cast<Alias>(n);
      if (!nested && (a->asname.empty() ? a->name.split('.').first
                                        : a->asname) == name)
        followed = false;
      return;
    }
    case NodeKind::ExceptHandler:
      if (!nested && llvm::cast<ExceptHandler>(n)->name == name)
        followed = false;
      break;
    case NodeKind::FunctionDef:
      if (!nested && llvm::cast<FunctionDef>(n)->name == name)
        followed = false;
      nested = true; // its body binds its own names (but `nonlocal`)
      break;
    case NodeKind::ClassDef:
      if (!nested && llvm::cast<ClassDef>(n)->name == name)
        followed = false;
      nested = true;
      break;
    case NodeKind::Lambda:
    case NodeKind::ListComp:
    case NodeKind::SetComp:
    case NodeKind::GeneratorExp:
    case NodeKind::DictComp:
      nested = true; // their targets are their own; a walrus is not
      break;
    case NodeKind::MatchAs:
    case NodeKind::MatchStar:
    case NodeKind::MatchMapping:
      followed = false; // a pattern may bind it: not followed
      return;
    default:
      break;
    }
    forEachChild(n, [&](llvm::StringRef, const Node *c) { visit(c, nested); });
  }
};

/// Reads the values of a name and what it iterates over.
class NameReader {
public:
  explicit NameReader(const ast::FunctionDef *def) : def(def) {}

  /// The strings `e` may be.
  Names valueOf(const ast::Expr *e, unsigned depth) {
    using namespace ast;
    if (depth > 8)
      return std::nullopt;
    if (auto *c = llvm::dyn_cast<Constant>(e)) {
      if (c->kind != ConstantKind::Str)
        return std::nullopt;
      return std::vector<NameChoice>{{c->value.str(), false}};
    }
    if (auto *j = llvm::dyn_cast<JoinedStr>(e))
      return joined(j);
    if (auto *b = llvm::dyn_cast<BinOp>(e)) {
      // `'models.' + name + '_model'`: the values of the left operand, each
      // the head of what the sum may be.
      if (b->op == BinOpKind::Add && !llvm::isa<Constant>(b->left)) {
        Names left = valueOf(b->left, depth + 1);
        if (!left)
          return std::nullopt;
        for (NameChoice &c : *left) {
          if (c.text.empty())
            return std::nullopt; // no head: any name
          c.prefix = true;
        }
        return left;
      }
      // `'layer' + str(i)`, `'layer%d' % i`: a constant head.
      auto *c = llvm::dyn_cast<Constant>(b->left);
      if (!c || c->kind != ConstantKind::Str)
        return std::nullopt;
      llvm::StringRef head = c->value;
      if (b->op == BinOpKind::Mod)
        head = head.take_until([](char ch) { return ch == '%'; });
      else if (b->op != BinOpKind::Add)
        return std::nullopt;
      return prefix(head);
    }
    if (auto *i = llvm::dyn_cast<IfExp>(e)) {
      Names a = valueOf(i->body, depth + 1), b = valueOf(i->orelse, depth + 1);
      if (!a || !b)
        return std::nullopt;
      a->insert(a->end(), b->begin(), b->end());
      return a;
    }
    if (auto *n = llvm::dyn_cast<Name>(e))
      return ofLocal(n->id, depth, /*elements=*/false);
    return std::nullopt;
  }

  /// The strings iterating `e` may give.
  Names elementsOf(const ast::Expr *e, unsigned depth) {
    using namespace ast;
    if (depth > 8)
      return std::nullopt;
    if (auto *s = llvm::dyn_cast<Sequence>(e)) {
      std::vector<NameChoice> out;
      for (const Expr *x : s->elts) {
        Names v = valueOf(x, depth + 1);
        if (!v)
          return std::nullopt;
        out.insert(out.end(), v->begin(), v->end());
      }
      return out;
    }
    // `names[:k]`, `names[::-1]`: some of names' elements.
    if (auto *s = llvm::dyn_cast<Subscript>(e);
        s && llvm::isa<Slice>(s->slice))
      return elementsOf(s->value, depth + 1);
    if (auto *n = llvm::dyn_cast<Name>(e))
      return ofLocal(n->id, depth, /*elements=*/true);
    return std::nullopt;
  }

private:
  Names joined(const ast::JoinedStr *j) {
    std::string head;
    for (const ast::Expr *v : j->values) {
      auto *c = llvm::dyn_cast<ast::Constant>(v);
      if (!c)
        return prefix(head);
      head += c->value.str();
    }
    return std::vector<NameChoice>{{head, false}};
  }

  static Names prefix(llvm::StringRef head) {
    // No head: any name.
    if (head.empty())
      return std::nullopt;
    return std::vector<NameChoice>{{head.str(), true}};
  }

  /// A local of the function, read through its bindings: their values
  /// (`elements`: what iterating them gives) or the elements of what its
  /// loops iterate.
  Names ofLocal(llvm::StringRef name, unsigned depth, bool elements) {
    if (!def)
      return std::nullopt;
    // `names = names[:k]`: a binding that reads the name gives some of
    // what its other bindings give (the least solution).
    std::pair<std::string, bool> key{name.str(), elements};
    if (llvm::is_contained(reading, key))
      return std::vector<NameChoice>{};
    reading.push_back(key);
    auto done = llvm::make_scope_exit([&] { reading.pop_back(); });
    for (llvm::StringRef p : getParamNames(def->args))
      if (p == name)
        return std::nullopt;
    Bindings b{name};
    for (const ast::Stmt *s : def->body)
      b.visit(s, /*nested=*/false);
    if (!b.followed || (b.values.empty() && b.iterables.empty()))
      return std::nullopt;
    // A list may have grown where the name was used otherwise; a tuple
    // cannot.
    if (elements && b.otherUses &&
        llvm::any_of(b.values, [](const ast::Expr *v) {
          return !llvm::isa<ast::Tuple>(v) && !llvm::isa<ast::Subscript>(v);
        }))
      return std::nullopt;
    if (elements && !b.iterables.empty())
      return std::nullopt; // the loop variable iterated: a string's chars
    std::vector<NameChoice> out;
    for (const ast::Expr *v : b.values) {
      Names n = elements ? elementsOf(v, depth + 1) : valueOf(v, depth + 1);
      if (!n)
        return std::nullopt;
      out.insert(out.end(), n->begin(), n->end());
    }
    for (const ast::Expr *xs : b.iterables) {
      Names n = elementsOf(xs, depth + 1);
      if (!n)
        return std::nullopt;
      out.insert(out.end(), n->begin(), n->end());
    }
    return out;
  }

  const ast::FunctionDef *def;
  std::vector<std::pair<std::string, bool>> reading;
};
} // namespace

Names detc::frontend::pta::possibleNames(const ast::Expr *e,
                                         const ast::FunctionDef *def) {
  return NameReader(def).valueOf(e, 0);
}

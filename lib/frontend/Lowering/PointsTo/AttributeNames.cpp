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
  /// `for a, name in xs`: xs, and the name's position in each item.
  std::vector<std::pair<const ast::Expr *, unsigned>> unpacked;
  bool followed = true, otherUses = false;
  /// Bound at a module's top level (not in the function asked about).
  bool atModule = false;

  /// The name's position in `target`, a tuple or list of plain names.
  std::optional<unsigned> positionIn(const ast::Expr *target) const {
    auto *seq = llvm::dyn_cast<ast::Sequence>(target);
    if (!seq)
      return std::nullopt;
    std::optional<unsigned> at;
    for (unsigned i = 0; i < seq->elts.size(); ++i) {
      if (!llvm::isa<ast::Name>(seq->elts[i]))
        return std::nullopt;
      if (isName(seq->elts[i]))
        at = i;
    }
    return at;
  }

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
      else if (std::optional<unsigned> at = nested ? std::nullopt
                                                    : positionIn(f->target))
        unpacked.push_back({f->iter, *at});
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
  NameReader(const ast::FunctionDef *def, const ast::Module *module)
      : def(def), module(module) {}

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
      // `base + "." + name` with both sides known exactly: every sum.
      if (b->op == BinOpKind::Add)
        if (Names sums = product(b, depth))
          return sums;
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
  /// `a + b` when both operands are known and `a` exactly: each sum (at
  /// most 256 of them).
  Names product(const ast::BinOp *b, unsigned depth) {
    Names left = valueOf(b->left, depth + 1);
    if (!left || llvm::any_of(*left, [](const NameChoice &c) {
          return c.prefix;
        }))
      return std::nullopt;
    Names right = valueOf(b->right, depth + 1);
    if (!right || left->size() * right->size() > 256)
      return std::nullopt;
    std::vector<NameChoice> out;
    for (const NameChoice &l : *left)
      for (const NameChoice &r : *right)
        out.push_back({l.text + r.text, r.prefix});
    return out;
  }

  /// The expressions at `position` of the items iterating `xs` gives, when
  /// the source shows them all: a display of displays, or a name bound to
  /// one (`for base, names in ALL_MODULES`).
  std::optional<std::vector<const ast::Expr *>>
  itemsAt(const ast::Expr *xs, unsigned position, unsigned depth) {
    if (depth > 8)
      return std::nullopt;
    if (auto *seq = llvm::dyn_cast<ast::Sequence>(xs)) {
      std::vector<const ast::Expr *> out;
      for (const ast::Expr *item : seq->elts) {
        auto *tuple = llvm::dyn_cast<ast::Sequence>(item);
        if (!tuple || tuple->elts.size() <= position ||
            llvm::any_of(tuple->elts, [](const ast::Expr *x) {
              return llvm::isa<ast::Starred>(x);
            }))
          return std::nullopt;
        out.push_back(tuple->elts[position]);
      }
      return out;
    }
    auto *n = llvm::dyn_cast<ast::Name>(xs);
    std::optional<Bindings> b = n ? bindingsOf(n->id) : std::nullopt;
    // Only a name bound to displays (a list may grow where it is used
    // otherwise; a tuple cannot).
    if (!b || !b->iterables.empty() || !b->unpacked.empty() ||
        b->values.empty())
      return std::nullopt;
    // A module's list named as a constant (`ALL_MODULES`, Python's
    // convention for what is not changed) is taken as written though the
    // module's functions read it.
    bool constant = b->atModule && llvm::all_of(n->id, [](char c) {
      return llvm::isUpper(c) || llvm::isDigit(c) || c == '_';
    });
    std::vector<const ast::Expr *> out;
    for (const ast::Expr *v : b->values) {
      if (b->otherUses && !llvm::isa<ast::Tuple>(v) && !constant)
        return std::nullopt;
      std::optional<std::vector<const ast::Expr *>> at =
          itemsAt(v, position, depth + 1);
      if (!at)
        return std::nullopt;
      out.insert(out.end(), at->begin(), at->end());
    }
    return out;
  }

  /// How the function (or, for a name it does not bind, the module) binds
  /// `name`; nullopt when neither is followed.
  std::optional<Bindings> bindingsOf(llvm::StringRef name) {
    if (def) {
      for (llvm::StringRef p : getParamNames(def->args))
        if (p == name)
          return std::nullopt;
      Bindings b{name};
      for (const ast::Stmt *s : def->body)
        b.visit(s, /*nested=*/false);
      if (!b.followed)
        return std::nullopt;
      if (!b.values.empty() || !b.iterables.empty() || !b.unpacked.empty())
        return b;
    }
    if (!module)
      return std::nullopt;
    // A module's name, bound at its top level only (a function's `global`
    // statement or a walrus stops it).
    Bindings b{name};
    b.atModule = true;
    for (const ast::Stmt *s : module->body)
      b.visit(s, /*nested=*/false);
    if (!b.followed ||
        (b.values.empty() && b.iterables.empty() && b.unpacked.empty()))
      return std::nullopt;
    return b;
  }

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
    std::optional<Bindings> found = bindingsOf(name);
    if (!found)
      return std::nullopt;
    Bindings &b = *found;
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
    for (auto [xs, position] : b.unpacked) {
      std::optional<std::vector<const ast::Expr *>> items =
          itemsAt(xs, position, depth + 1);
      if (!items)
        return std::nullopt;
      for (const ast::Expr *item : *items) {
        Names n = elements ? elementsOf(item, depth + 1)
                           : valueOf(item, depth + 1);
        if (!n)
          return std::nullopt;
        out.insert(out.end(), n->begin(), n->end());
      }
    }
    return out;
  }

  const ast::FunctionDef *def;
  const ast::Module *module;
  std::vector<std::pair<std::string, bool>> reading;
};
} // namespace

Names detc::frontend::pta::possibleNames(const ast::Expr *e,
                                         const ast::FunctionDef *def,
                                         const ast::Module *module) {
  return NameReader(def, module).valueOf(e, 0);
}

bool detc::frontend::pta::isDottedName(llvm::StringRef s) {
  return llvm::all_of(s, [](char c) {
    return c == '.' || c == '_' || llvm::isAlnum(c);
  });
}

//===- AST.h - Python abstract syntax tree with exact source ranges -------===//
//
// The node set and field names follow CPython's `ast` module (3.11). Every
// node has a SourceRange with 1-based lines, 0-based UTF-8 byte columns (as
// CPython's col_offset) and byte offsets into the original file, which later
// stages use to rewrite the source text in place.
//
// Nodes live in an ASTContext arena and are trivially destructible: lists are
// ArrayRefs and strings are StringRefs into the same arena.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_FRONTEND_AST_H
#define DETC_FRONTEND_AST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Casting.h"

#include <cstdint>
#include <type_traits>

namespace detc::ast {

/// A position in a source file.
struct SourcePos {
  uint32_t line = 0;   ///< 1-based line.
  uint32_t column = 0; ///< 0-based UTF-8 byte column within the line.
  uint32_t offset = 0; ///< Byte offset from the start of the file.
};

/// Where a range ends: only its offset is kept, the line and column are
/// the file's to tell (SourceFile::getPosOfByte; only AST dumps ask). Eight
/// bytes less for every node, of which a script has one per 6 bytes.
struct SourceEnd {
  uint32_t offset = 0; ///< Byte offset from the start of the file.
  SourceEnd() = default;
  SourceEnd(const SourcePos &pos) : offset(pos.offset) {}
};

/// A half-open range [begin, end).
struct SourceRange {
  SourcePos begin;
  SourceEnd end;
};

enum class NodeKind : uint8_t {
#define NODE(K) K,
#include "detc/frontend/ASTNodes.def"
};

/// The CPython class name of a kind ("FunctionDef", "Call", ...). Async
/// variants (AsyncFunctionDef, ...) are a flag on the node, see pythonName().
llvm::StringRef getKindName(NodeKind kind);

class Node {
public:
  NodeKind getKind() const { return kind; }
  const SourceRange &getRange() const { return range; }
  SourceRange &getRange() { return range; }
  void setRange(SourceRange r) { range = r; }
  /// Name of the node as CPython's ast module calls it (handles async forms).
  llvm::StringRef pythonName() const;

protected:
  explicit Node(NodeKind kind) : kind(kind) {}

  /// An analysis' note on the node (Expr::getPointsToNode): a map from
  /// expressions to nodes took 12 bytes per byte of script, this slot
  /// none — the node's first fields end on a 4-byte boundary and
  /// subclasses start on an 8-byte one.
  mutable uint32_t annotation = ~0u;

private:
  // The kind last: it leaves three bytes of tail padding that subclasses
  // fill (Expr's context and flags, a BinOp's operator, If's isElif)
  // instead of padding of their own.
  SourceRange range;
  NodeKind kind;
};

template <typename T> using NodeList = llvm::ArrayRef<T *>;

class Stmt : public Node {
public:
  static bool classof(const Node *n) {
    return n->getKind() >= NodeKind::FunctionDef &&
           n->getKind() <= NodeKind::TypeAlias;
  }

protected:
  using Node::Node;
};

enum class ExprContext : uint8_t { Load, Store, Del };

class Expr : public Node {
public:
  ExprContext ctx = ExprContext::Load;
  /// True when the source wrote this expression inside parentheses; used to
  /// give CPython's answers for things like `(yield)` and `(a) = 1`.
  bool parenthesized = false;

  /// The expression's node in the points-to result that annotated this AST
  /// (ASTContext::getAnnotator), ~0u for none.
  uint32_t getPointsToNode() const { return annotation; }
  void setPointsToNode(uint32_t node) const { annotation = node; }

  static bool classof(const Node *n) {
    return n->getKind() >= NodeKind::BoolOp && n->getKind() <= NodeKind::Slice;
  }

protected:
  using Node::Node;
};

class Pattern : public Node {
public:
  static bool classof(const Node *n) {
    return n->getKind() >= NodeKind::MatchValue &&
           n->getKind() <= NodeKind::MatchOr;
  }

protected:
  using Node::Node;
};

#define DETC_AST_CLASSOF(K)                                                    \
  static bool classof(const Node *n) { return n->getKind() == NodeKind::K; }

// ---- Auxiliary nodes -------------------------------------------------------

class Arg : public Node {
public:
  Arg() : Node(NodeKind::Arg) {}
  llvm::StringRef arg;
  Expr *annotation = nullptr;
  DETC_AST_CLASSOF(Arg)
};

/// Parameters of a def or lambda. Has no source range of its own in CPython.
class Arguments : public Node {
public:
  Arguments() : Node(NodeKind::Arguments) {}
  NodeList<Arg> posonlyargs, args;
  Arg *vararg = nullptr;
  NodeList<Arg> kwonlyargs;
  NodeList<Expr> kwDefaults; ///< Parallel to kwonlyargs; null = no default.
  Arg *kwarg = nullptr;
  NodeList<Expr> defaults; ///< For the last len(defaults) positional params.
  DETC_AST_CLASSOF(Arguments)
};

class Keyword : public Node {
public:
  Keyword() : Node(NodeKind::Keyword) {}
  llvm::StringRef arg; ///< Empty for `**mapping`.
  Expr *value = nullptr;
  DETC_AST_CLASSOF(Keyword)
};

class Alias : public Node {
public:
  Alias() : Node(NodeKind::Alias) {}
  llvm::StringRef name;   ///< Dotted module name, or `*`.
  llvm::StringRef asname; ///< Empty when absent.
  DETC_AST_CLASSOF(Alias)
};

class WithItem : public Node {
public:
  WithItem() : Node(NodeKind::WithItem) {}
  Expr *contextExpr = nullptr;
  Expr *optionalVars = nullptr;
  DETC_AST_CLASSOF(WithItem)
};

class ExceptHandler : public Node {
public:
  ExceptHandler() : Node(NodeKind::ExceptHandler) {}
  Expr *type = nullptr;
  llvm::StringRef name;
  NodeList<Stmt> body;
  DETC_AST_CLASSOF(ExceptHandler)
};

class Comprehension : public Node {
public:
  Comprehension() : Node(NodeKind::Comprehension) {}
  bool isAsync = false;
  Expr *target = nullptr;
  Expr *iter = nullptr;
  NodeList<Expr> ifs;
  DETC_AST_CLASSOF(Comprehension)
};

class MatchCase : public Node {
public:
  MatchCase() : Node(NodeKind::MatchCase) {}
  Pattern *pattern = nullptr;
  Expr *guard = nullptr;
  NodeList<Stmt> body;
  DETC_AST_CLASSOF(MatchCase)
};

/// Type parameters (PEP 695; defaults: PEP 696). Like the alias's value,
/// bounds and defaults are evaluated lazily.
class TypeVar : public Node {
public:
  TypeVar() : Node(NodeKind::TypeVar) {}
  llvm::StringRef name;
  Expr *bound = nullptr;
  Expr *defaultValue = nullptr;
  DETC_AST_CLASSOF(TypeVar)
};

class ParamSpec : public Node {
public:
  ParamSpec() : Node(NodeKind::ParamSpec) {}
  llvm::StringRef name;
  Expr *defaultValue = nullptr;
  DETC_AST_CLASSOF(ParamSpec)
};

class TypeVarTuple : public Node {
public:
  TypeVarTuple() : Node(NodeKind::TypeVarTuple) {}
  llvm::StringRef name;
  Expr *defaultValue = nullptr;
  DETC_AST_CLASSOF(TypeVarTuple)
};

class Module : public Node {
public:
  Module() : Node(NodeKind::Module) {}
  NodeList<Stmt> body;
  DETC_AST_CLASSOF(Module)
};

// ---- Statements ------------------------------------------------------------

class FunctionDef : public Stmt {
public:
  FunctionDef() : Stmt(NodeKind::FunctionDef) {}
  bool isAsync = false;
  llvm::StringRef name;
  Arguments *args = nullptr;
  NodeList<Stmt> body;
  NodeList<Expr> decoratorList;
  Expr *returns = nullptr;
  NodeList<Node> typeParams; ///< PEP 695 `def f[T](...)`.
  DETC_AST_CLASSOF(FunctionDef)
};

class ClassDef : public Stmt {
public:
  ClassDef() : Stmt(NodeKind::ClassDef) {}
  llvm::StringRef name;
  NodeList<Expr> bases;
  NodeList<Keyword> keywords;
  NodeList<Stmt> body;
  NodeList<Expr> decoratorList;
  NodeList<Node> typeParams; ///< PEP 695 `class C[T]`.
  DETC_AST_CLASSOF(ClassDef)
};

class Return : public Stmt {
public:
  Return() : Stmt(NodeKind::Return) {}
  Expr *value = nullptr;
  DETC_AST_CLASSOF(Return)
};

class Delete : public Stmt {
public:
  Delete() : Stmt(NodeKind::Delete) {}
  NodeList<Expr> targets;
  DETC_AST_CLASSOF(Delete)
};

class Assign : public Stmt {
public:
  Assign() : Stmt(NodeKind::Assign) {}
  NodeList<Expr> targets; ///< `a = b = v` has two targets.
  Expr *value = nullptr;
  DETC_AST_CLASSOF(Assign)
};

enum class BinOpKind : uint8_t {
  Add, Sub, Mult, MatMult, Div, Mod, Pow, LShift, RShift, BitOr, BitXor,
  BitAnd, FloorDiv
};
llvm::StringRef getBinOpName(BinOpKind op);   ///< "Add", ...
llvm::StringRef getBinOpSymbol(BinOpKind op); ///< "+", ...

class AugAssign : public Stmt {
public:
  AugAssign() : Stmt(NodeKind::AugAssign) {}
  BinOpKind op = BinOpKind::Add;
  Expr *target = nullptr;
  Expr *value = nullptr;
  DETC_AST_CLASSOF(AugAssign)
};

class AnnAssign : public Stmt {
public:
  AnnAssign() : Stmt(NodeKind::AnnAssign) {}
  bool simple = false; ///< Target is a plain, unparenthesized name.
  Expr *target = nullptr;
  Expr *annotation = nullptr;
  Expr *value = nullptr;
  DETC_AST_CLASSOF(AnnAssign)
};

class For : public Stmt {
public:
  For() : Stmt(NodeKind::For) {}
  bool isAsync = false;
  Expr *target = nullptr;
  Expr *iter = nullptr;
  NodeList<Stmt> body, orelse;
  DETC_AST_CLASSOF(For)
};

class While : public Stmt {
public:
  While() : Stmt(NodeKind::While) {}
  Expr *test = nullptr;
  NodeList<Stmt> body, orelse;
  DETC_AST_CLASSOF(While)
};

class If : public Stmt {
public:
  If() : Stmt(NodeKind::If) {}
  bool isElif = false; ///< Written `elif` (in its parent's orelse).
  Expr *test = nullptr;
  NodeList<Stmt> body, orelse; ///< `elif` is a nested If in orelse.
  DETC_AST_CLASSOF(If)
};

class With : public Stmt {
public:
  With() : Stmt(NodeKind::With) {}
  bool isAsync = false;
  NodeList<WithItem> items;
  NodeList<Stmt> body;
  DETC_AST_CLASSOF(With)
};

class Match : public Stmt {
public:
  Match() : Stmt(NodeKind::Match) {}
  Expr *subject = nullptr;
  NodeList<MatchCase> cases;
  DETC_AST_CLASSOF(Match)
};

class Raise : public Stmt {
public:
  Raise() : Stmt(NodeKind::Raise) {}
  Expr *exc = nullptr;
  Expr *cause = nullptr;
  DETC_AST_CLASSOF(Raise)
};

class Try : public Stmt {
public:
  Try() : Stmt(NodeKind::Try) {}
  bool isStar = false; ///< `except*` (TryStar in CPython).
  NodeList<Stmt> body;
  NodeList<ExceptHandler> handlers;
  NodeList<Stmt> orelse, finalbody;
  DETC_AST_CLASSOF(Try)
};

class Assert : public Stmt {
public:
  Assert() : Stmt(NodeKind::Assert) {}
  Expr *test = nullptr;
  Expr *msg = nullptr;
  DETC_AST_CLASSOF(Assert)
};

class Import : public Stmt {
public:
  Import() : Stmt(NodeKind::Import) {}
  NodeList<Alias> names;
  DETC_AST_CLASSOF(Import)
};

class ImportFrom : public Stmt {
public:
  ImportFrom() : Stmt(NodeKind::ImportFrom) {}
  unsigned level = 0; ///< Number of leading dots.
  llvm::StringRef module; ///< Empty for `from . import x`.
  NodeList<Alias> names;
  DETC_AST_CLASSOF(ImportFrom)
};

class Global : public Stmt {
public:
  Global() : Stmt(NodeKind::Global) {}
  llvm::ArrayRef<llvm::StringRef> names;
  DETC_AST_CLASSOF(Global)
};

class Nonlocal : public Stmt {
public:
  Nonlocal() : Stmt(NodeKind::Nonlocal) {}
  llvm::ArrayRef<llvm::StringRef> names;
  DETC_AST_CLASSOF(Nonlocal)
};

/// An expression statement (CPython's `Expr` statement node).
class ExprStmt : public Stmt {
public:
  ExprStmt() : Stmt(NodeKind::ExprStmt) {}
  Expr *value = nullptr;
  DETC_AST_CLASSOF(ExprStmt)
};

class Pass : public Stmt {
public:
  Pass() : Stmt(NodeKind::Pass) {}
  DETC_AST_CLASSOF(Pass)
};

class Break : public Stmt {
public:
  Break() : Stmt(NodeKind::Break) {}
  DETC_AST_CLASSOF(Break)
};

class Continue : public Stmt {
public:
  Continue() : Stmt(NodeKind::Continue) {}
  DETC_AST_CLASSOF(Continue)
};

/// `type X[T] = value` (PEP 695). The value is evaluated lazily, when the
/// alias's `__value__` is read; defining it runs nothing.
class TypeAlias : public Stmt {
public:
  TypeAlias() : Stmt(NodeKind::TypeAlias) {}
  Expr *name = nullptr; ///< A Name in Store context.
  NodeList<Node> typeParams; ///< TypeVar, ParamSpec, TypeVarTuple.
  Expr *value = nullptr;
  DETC_AST_CLASSOF(TypeAlias)
};

// ---- Expressions -----------------------------------------------------------

enum class BoolOpKind : uint8_t { And, Or };
enum class UnaryOpKind : uint8_t { Invert, Not, UAdd, USub };
enum class CmpOpKind : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };
llvm::StringRef getUnaryOpName(UnaryOpKind op);
llvm::StringRef getCmpOpName(CmpOpKind op);

/// Appends the names an assignment or loop target binds: `i`, `(x, y)`,
/// `[a, *rest]` (attributes and subscripts bind no name). Iterative: a
/// deeply nested target cannot overflow the stack.
void appendBoundNames(const Expr *target,
                      llvm::SmallVectorImpl<llvm::StringRef> &out);

class FunctionDef;
/// Whether `def` is decorated `@property` or `@cached_property` (also
/// `@functools.cached_property`): reading the attribute runs it.
bool isPropertyGetter(const FunctionDef *def);
/// Whether `def` is decorated with the plain name `name` (`@staticmethod`,
/// `@classmethod`): how a call binds its first parameter.
bool hasNamedDecorator(const FunctionDef *def, llvm::StringRef name);

class BoolOp : public Expr {
public:
  BoolOp() : Expr(NodeKind::BoolOp) {}
  BoolOpKind op = BoolOpKind::And;
  NodeList<Expr> values;
  DETC_AST_CLASSOF(BoolOp)
};

class NamedExpr : public Expr {
public:
  NamedExpr() : Expr(NodeKind::NamedExpr) {}
  Expr *target = nullptr;
  Expr *value = nullptr;
  DETC_AST_CLASSOF(NamedExpr)
};

class BinOp : public Expr {
public:
  BinOp() : Expr(NodeKind::BinOp) {}
  BinOpKind op = BinOpKind::Add;
  Expr *left = nullptr;
  Expr *right = nullptr;
  DETC_AST_CLASSOF(BinOp)
};

class UnaryOp : public Expr {
public:
  UnaryOp() : Expr(NodeKind::UnaryOp) {}
  UnaryOpKind op = UnaryOpKind::Not;
  Expr *operand = nullptr;
  DETC_AST_CLASSOF(UnaryOp)
};

class Lambda : public Expr {
public:
  Lambda() : Expr(NodeKind::Lambda) {}
  Arguments *args = nullptr;
  Expr *body = nullptr;
  DETC_AST_CLASSOF(Lambda)
};

class IfExp : public Expr {
public:
  IfExp() : Expr(NodeKind::IfExp) {}
  Expr *test = nullptr;
  Expr *body = nullptr;
  Expr *orelse = nullptr;
  DETC_AST_CLASSOF(IfExp)
};

class Dict : public Expr {
public:
  Dict() : Expr(NodeKind::Dict) {}
  NodeList<Expr> keys; ///< Null key = `**mapping` entry.
  NodeList<Expr> values;
  DETC_AST_CLASSOF(Dict)
};

class Set : public Expr {
public:
  Set() : Expr(NodeKind::Set) {}
  NodeList<Expr> elts;
  DETC_AST_CLASSOF(Set)
};

/// ListComp, SetComp and GeneratorExp share a shape.
class Comp : public Expr {
public:
  explicit Comp(NodeKind k) : Expr(k) {}
  Expr *elt = nullptr;
  NodeList<Comprehension> generators;
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::ListComp ||
           n->getKind() == NodeKind::SetComp ||
           n->getKind() == NodeKind::GeneratorExp;
  }
};

class ListComp : public Comp {
public:
  ListComp() : Comp(NodeKind::ListComp) {}
  DETC_AST_CLASSOF(ListComp)
};

class SetComp : public Comp {
public:
  SetComp() : Comp(NodeKind::SetComp) {}
  DETC_AST_CLASSOF(SetComp)
};

class GeneratorExp : public Comp {
public:
  GeneratorExp() : Comp(NodeKind::GeneratorExp) {}
  DETC_AST_CLASSOF(GeneratorExp)
};

class DictComp : public Expr {
public:
  DictComp() : Expr(NodeKind::DictComp) {}
  Expr *key = nullptr;
  Expr *value = nullptr;
  NodeList<Comprehension> generators;
  DETC_AST_CLASSOF(DictComp)
};

class Await : public Expr {
public:
  Await() : Expr(NodeKind::Await) {}
  Expr *value = nullptr;
  DETC_AST_CLASSOF(Await)
};

class Yield : public Expr {
public:
  Yield() : Expr(NodeKind::Yield) {}
  Expr *value = nullptr;
  DETC_AST_CLASSOF(Yield)
};

class YieldFrom : public Expr {
public:
  YieldFrom() : Expr(NodeKind::YieldFrom) {}
  Expr *value = nullptr;
  DETC_AST_CLASSOF(YieldFrom)
};

class Compare : public Expr {
public:
  Compare() : Expr(NodeKind::Compare) {}
  Expr *left = nullptr;
  llvm::ArrayRef<CmpOpKind> ops;
  NodeList<Expr> comparators;
  DETC_AST_CLASSOF(Compare)
};

class Call : public Expr {
public:
  Call() : Expr(NodeKind::Call) {}
  Expr *func = nullptr;
  NodeList<Expr> args;
  NodeList<Keyword> keywords;
  DETC_AST_CLASSOF(Call)
};

class FormattedValue : public Expr {
public:
  FormattedValue() : Expr(NodeKind::FormattedValue) {}
  Expr *value = nullptr;
  int conversion = -1; ///< -1, 's', 'r' or 'a'.
  Expr *formatSpec = nullptr; ///< A JoinedStr, or null.
  DETC_AST_CLASSOF(FormattedValue)
};

class JoinedStr : public Expr {
public:
  JoinedStr() : Expr(NodeKind::JoinedStr) {}
  NodeList<Expr> values; ///< Constant (str) and FormattedValue parts.
  DETC_AST_CLASSOF(JoinedStr)
};

enum class ConstantKind : uint8_t {
  None, True, False, Ellipsis, Int, Float, Complex, Str, Bytes
};

class Constant : public Expr {
public:
  Constant() : Expr(NodeKind::Constant) {}
  ConstantKind kind = ConstantKind::None;
  /// Numbers: the literal as written (underscores kept). Str/Bytes: the
  /// decoded value (UTF-8 for str; raw bytes for bytes).
  llvm::StringRef value;
  /// CPython's `kind` field: "u" for u-prefixed strings, else empty.
  bool uPrefix = false;
  DETC_AST_CLASSOF(Constant)
};

class Attribute : public Expr {
public:
  Attribute() : Expr(NodeKind::Attribute) {}
  Expr *value = nullptr;
  llvm::StringRef attr;
  DETC_AST_CLASSOF(Attribute)
};

class Subscript : public Expr {
public:
  Subscript() : Expr(NodeKind::Subscript) {}
  Expr *value = nullptr;
  Expr *slice = nullptr;
  DETC_AST_CLASSOF(Subscript)
};

class Starred : public Expr {
public:
  Starred() : Expr(NodeKind::Starred) {}
  Expr *value = nullptr;
  DETC_AST_CLASSOF(Starred)
};

class Name : public Expr {
public:
  Name() : Expr(NodeKind::Name) {}
  llvm::StringRef id;
  DETC_AST_CLASSOF(Name)
};

/// List and Tuple displays share a shape.
class Sequence : public Expr {
public:
  explicit Sequence(NodeKind k) : Expr(k) {}
  NodeList<Expr> elts;
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::List || n->getKind() == NodeKind::Tuple;
  }
};

class List : public Sequence {
public:
  List() : Sequence(NodeKind::List) {}
  DETC_AST_CLASSOF(List)
};

class Tuple : public Sequence {
public:
  Tuple() : Sequence(NodeKind::Tuple) {}
  DETC_AST_CLASSOF(Tuple)
};

class Slice : public Expr {
public:
  Slice() : Expr(NodeKind::Slice) {}
  Expr *lower = nullptr;
  Expr *upper = nullptr;
  Expr *step = nullptr;
  DETC_AST_CLASSOF(Slice)
};

// ---- Patterns --------------------------------------------------------------

class MatchValue : public Pattern {
public:
  MatchValue() : Pattern(NodeKind::MatchValue) {}
  Expr *value = nullptr;
  DETC_AST_CLASSOF(MatchValue)
};

class MatchSingleton : public Pattern {
public:
  MatchSingleton() : Pattern(NodeKind::MatchSingleton) {}
  ConstantKind value = ConstantKind::None; ///< None, True or False.
  DETC_AST_CLASSOF(MatchSingleton)
};

class MatchSequence : public Pattern {
public:
  MatchSequence() : Pattern(NodeKind::MatchSequence) {}
  NodeList<Pattern> patterns;
  DETC_AST_CLASSOF(MatchSequence)
};

class MatchMapping : public Pattern {
public:
  MatchMapping() : Pattern(NodeKind::MatchMapping) {}
  NodeList<Expr> keys;
  NodeList<Pattern> patterns;
  llvm::StringRef rest;
  DETC_AST_CLASSOF(MatchMapping)
};

class MatchClass : public Pattern {
public:
  MatchClass() : Pattern(NodeKind::MatchClass) {}
  Expr *cls = nullptr;
  NodeList<Pattern> patterns;
  llvm::ArrayRef<llvm::StringRef> kwdAttrs;
  NodeList<Pattern> kwdPatterns;
  DETC_AST_CLASSOF(MatchClass)
};

class MatchStar : public Pattern {
public:
  MatchStar() : Pattern(NodeKind::MatchStar) {}
  llvm::StringRef name; ///< Empty for `*_`.
  DETC_AST_CLASSOF(MatchStar)
};

class MatchAs : public Pattern {
public:
  MatchAs() : Pattern(NodeKind::MatchAs) {}
  Pattern *pattern = nullptr;
  llvm::StringRef name; ///< Empty for the wildcard `_`.
  DETC_AST_CLASSOF(MatchAs)
};

class MatchOr : public Pattern {
public:
  MatchOr() : Pattern(NodeKind::MatchOr) {}
  NodeList<Pattern> patterns;
  DETC_AST_CLASSOF(MatchOr)
};

#undef DETC_AST_CLASSOF

/// Owns every node, list and string of one parsed file.
class ASTContext {
public:
  template <typename T, typename... Args> T *create(Args &&...args) {
    static_assert(std::is_trivially_destructible_v<T>,
                  "AST nodes are never destroyed individually");
    return new (allocator.Allocate<T>()) T(std::forward<Args>(args)...);
  }

  template <typename T> llvm::ArrayRef<T> copy(llvm::ArrayRef<T> items) {
    static_assert(std::is_trivially_destructible_v<T>);
    if (items.empty())
      return {};
    T *mem = allocator.Allocate<T>(items.size());
    std::uninitialized_copy(items.begin(), items.end(), mem);
    return {mem, items.size()};
  }

  llvm::StringRef save(llvm::StringRef s) {
    if (s.empty())
      return {};
    char *mem = allocator.Allocate<char>(s.size());
    std::memcpy(mem, s.data(), s.size());
    return {mem, s.size()};
  }

  size_t getBytesAllocated() const { return allocator.getBytesAllocated(); }

  /// Which analysis result the nodes' annotations (Node::annotation) belong
  /// to: an id that result never shares (0: none yet).
  uint64_t getAnnotator() const { return annotator; }
  void setAnnotator(uint64_t id) const { annotator = id; }

private:
  llvm::BumpPtrAllocator allocator;
  mutable uint64_t annotator = 0;
};

} // namespace detc::ast

#endif // DETC_FRONTEND_AST_H

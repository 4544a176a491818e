//===- ASTDump.cpp - Field walker, text and JSON dumps --------------------===//
//
// One function (visitFields) knows the fields of every node kind, in
// CPython's order and with CPython's names; the text dump, the JSON dump and
// forEachChild are all views of it.
//
//===----------------------------------------------------------------------===//

#include "detc/frontend/ASTDump.h"
#include "detc/frontend/SourceFile.h"

#include "llvm/Support/JSON.h"

using namespace detc::ast;
using llvm::StringRef;

namespace {

class FieldSink {
public:
  virtual ~FieldSink() = default;
  virtual void node(StringRef field, const Node *n) = 0;
  virtual void beginList(StringRef field) = 0;
  virtual void endList() = 0;
  virtual void str(StringRef field, StringRef value) = 0;
  virtual void integer(StringRef field, int64_t value) = 0;
  virtual void null(StringRef field) = 0;

  template <typename T> void nodes(StringRef field, NodeList<T> list) {
    beginList(field);
    for (T *n : list)
      node("", n);
    endList();
  }
  void strs(StringRef field, llvm::ArrayRef<StringRef> list) {
    beginList(field);
    for (StringRef s : list)
      str("", s);
    endList();
  }
  void optStr(StringRef field, StringRef value) {
    if (value.empty())
      null(field);
    else
      str(field, value);
  }
};

StringRef constantKindName(ConstantKind k) {
  switch (k) {
  case ConstantKind::None: return "None";
  case ConstantKind::True: return "True";
  case ConstantKind::False: return "False";
  case ConstantKind::Ellipsis: return "Ellipsis";
  case ConstantKind::Int: return "int";
  case ConstantKind::Float: return "float";
  case ConstantKind::Complex: return "complex";
  case ConstantKind::Str: return "str";
  case ConstantKind::Bytes: return "bytes";
  }
  return "?";
}

StringRef ctxName(ExprContext c) {
  return c == ExprContext::Load ? "Load"
         : c == ExprContext::Store ? "Store"
                                   : "Del";
}

void visitFields(const Node *n, FieldSink &s) {
  using llvm::cast;
  switch (n->getKind()) {
  case NodeKind::Module:
    s.nodes("body", cast<Module>(n)->body);
    break;
  case NodeKind::FunctionDef: {
    auto *f = cast<FunctionDef>(n);
    s.str("name", f->name);
    s.node("args", f->args);
    s.nodes("body", f->body);
    s.nodes("decorator_list", f->decoratorList);
    s.node("returns", f->returns);
    s.nodes("type_params", f->typeParams);
    break;
  }
  case NodeKind::ClassDef: {
    auto *c = cast<ClassDef>(n);
    s.str("name", c->name);
    s.nodes("bases", c->bases);
    s.nodes("keywords", c->keywords);
    s.nodes("body", c->body);
    s.nodes("decorator_list", c->decoratorList);
    s.nodes("type_params", c->typeParams);
    break;
  }
  case NodeKind::Return:
    s.node("value", cast<Return>(n)->value);
    break;
  case NodeKind::TypeAlias: {
    auto *a = cast<TypeAlias>(n);
    s.node("name", a->name);
    s.nodes("type_params", a->typeParams);
    s.node("value", a->value);
    break;
  }
  case NodeKind::TypeVar: {
    auto *t = cast<TypeVar>(n);
    s.str("name", t->name);
    s.node("bound", t->bound);
    s.node("default_value", t->defaultValue);
    break;
  }
  case NodeKind::ParamSpec:
    s.str("name", cast<ParamSpec>(n)->name);
    s.node("default_value", cast<ParamSpec>(n)->defaultValue);
    break;
  case NodeKind::TypeVarTuple:
    s.str("name", cast<TypeVarTuple>(n)->name);
    s.node("default_value", cast<TypeVarTuple>(n)->defaultValue);
    break;
  case NodeKind::Delete:
    s.nodes("targets", cast<Delete>(n)->targets);
    break;
  case NodeKind::Assign:
    s.nodes("targets", cast<Assign>(n)->targets);
    s.node("value", cast<Assign>(n)->value);
    break;
  case NodeKind::AugAssign: {
    auto *a = cast<AugAssign>(n);
    s.node("target", a->target);
    s.str("op", getBinOpName(a->op));
    s.node("value", a->value);
    break;
  }
  case NodeKind::AnnAssign: {
    auto *a = cast<AnnAssign>(n);
    s.node("target", a->target);
    s.node("annotation", a->annotation);
    s.node("value", a->value);
    s.integer("simple", a->simple);
    break;
  }
  case NodeKind::For: {
    auto *f = cast<For>(n);
    s.node("target", f->target);
    s.node("iter", f->iter);
    s.nodes("body", f->body);
    s.nodes("orelse", f->orelse);
    break;
  }
  case NodeKind::While:
    s.node("test", cast<While>(n)->test);
    s.nodes("body", cast<While>(n)->body);
    s.nodes("orelse", cast<While>(n)->orelse);
    break;
  case NodeKind::If:
    s.node("test", cast<If>(n)->test);
    s.nodes("body", cast<If>(n)->body);
    s.nodes("orelse", cast<If>(n)->orelse);
    break;
  case NodeKind::With:
    s.nodes("items", cast<With>(n)->items);
    s.nodes("body", cast<With>(n)->body);
    break;
  case NodeKind::Match:
    s.node("subject", cast<Match>(n)->subject);
    s.nodes("cases", cast<Match>(n)->cases);
    break;
  case NodeKind::Raise:
    s.node("exc", cast<Raise>(n)->exc);
    s.node("cause", cast<Raise>(n)->cause);
    break;
  case NodeKind::Try: {
    auto *t = cast<Try>(n);
    s.nodes("body", t->body);
    s.nodes("handlers", t->handlers);
    s.nodes("orelse", t->orelse);
    s.nodes("finalbody", t->finalbody);
    break;
  }
  case NodeKind::Assert:
    s.node("test", cast<Assert>(n)->test);
    s.node("msg", cast<Assert>(n)->msg);
    break;
  case NodeKind::Import:
    s.nodes("names", cast<Import>(n)->names);
    break;
  case NodeKind::ImportFrom: {
    auto *i = cast<ImportFrom>(n);
    s.optStr("module", i->module);
    s.nodes("names", i->names);
    s.integer("level", i->level);
    break;
  }
  case NodeKind::Global:
    s.strs("names", cast<Global>(n)->names);
    break;
  case NodeKind::Nonlocal:
    s.strs("names", cast<Nonlocal>(n)->names);
    break;
  case NodeKind::ExprStmt:
    s.node("value", cast<ExprStmt>(n)->value);
    break;
  case NodeKind::Pass:
  case NodeKind::Break:
  case NodeKind::Continue:
    break;
  case NodeKind::BoolOp:
    s.str("op", cast<BoolOp>(n)->op == BoolOpKind::And ? "And" : "Or");
    s.nodes("values", cast<BoolOp>(n)->values);
    break;
  case NodeKind::NamedExpr:
    s.node("target", cast<NamedExpr>(n)->target);
    s.node("value", cast<NamedExpr>(n)->value);
    break;
  case NodeKind::BinOp:
    s.node("left", cast<BinOp>(n)->left);
    s.str("op", getBinOpName(cast<BinOp>(n)->op));
    s.node("right", cast<BinOp>(n)->right);
    break;
  case NodeKind::UnaryOp:
    s.str("op", getUnaryOpName(cast<UnaryOp>(n)->op));
    s.node("operand", cast<UnaryOp>(n)->operand);
    break;
  case NodeKind::Lambda:
    s.node("args", cast<Lambda>(n)->args);
    s.node("body", cast<Lambda>(n)->body);
    break;
  case NodeKind::IfExp:
    s.node("test", cast<IfExp>(n)->test);
    s.node("body", cast<IfExp>(n)->body);
    s.node("orelse", cast<IfExp>(n)->orelse);
    break;
  case NodeKind::Dict:
    s.nodes("keys", cast<Dict>(n)->keys);
    s.nodes("values", cast<Dict>(n)->values);
    break;
  case NodeKind::Set:
    s.nodes("elts", cast<Set>(n)->elts);
    break;
  case NodeKind::ListComp:
  case NodeKind::SetComp:
  case NodeKind::GeneratorExp:
    s.node("elt", cast<Comp>(n)->elt);
    s.nodes("generators", cast<Comp>(n)->generators);
    break;
  case NodeKind::DictComp:
    s.node("key", cast<DictComp>(n)->key);
    s.node("value", cast<DictComp>(n)->value);
    s.nodes("generators", cast<DictComp>(n)->generators);
    break;
  case NodeKind::Await:
    s.node("value", cast<Await>(n)->value);
    break;
  case NodeKind::Yield:
    s.node("value", cast<Yield>(n)->value);
    break;
  case NodeKind::YieldFrom:
    s.node("value", cast<YieldFrom>(n)->value);
    break;
  case NodeKind::Compare: {
    auto *c = cast<Compare>(n);
    s.node("left", c->left);
    s.beginList("ops");
    for (CmpOpKind op : c->ops)
      s.str("", getCmpOpName(op));
    s.endList();
    s.nodes("comparators", c->comparators);
    break;
  }
  case NodeKind::Call:
    s.node("func", cast<Call>(n)->func);
    s.nodes("args", cast<Call>(n)->args);
    s.nodes("keywords", cast<Call>(n)->keywords);
    break;
  case NodeKind::FormattedValue: {
    auto *f = cast<FormattedValue>(n);
    s.node("value", f->value);
    s.integer("conversion", f->conversion);
    s.node("format_spec", f->formatSpec);
    break;
  }
  case NodeKind::JoinedStr:
    s.nodes("values", cast<JoinedStr>(n)->values);
    break;
  case NodeKind::Constant: {
    auto *c = cast<Constant>(n);
    s.str("kind", constantKindName(c->kind));
    if (c->kind >= ConstantKind::Int)
      s.str("value", c->value);
    break;
  }
  case NodeKind::Attribute:
    s.node("value", cast<Attribute>(n)->value);
    s.str("attr", cast<Attribute>(n)->attr);
    s.str("ctx", ctxName(cast<Expr>(n)->ctx));
    break;
  case NodeKind::Subscript:
    s.node("value", cast<Subscript>(n)->value);
    s.node("slice", cast<Subscript>(n)->slice);
    s.str("ctx", ctxName(cast<Expr>(n)->ctx));
    break;
  case NodeKind::Starred:
    s.node("value", cast<Starred>(n)->value);
    s.str("ctx", ctxName(cast<Expr>(n)->ctx));
    break;
  case NodeKind::Name:
    s.str("id", cast<Name>(n)->id);
    s.str("ctx", ctxName(cast<Expr>(n)->ctx));
    break;
  case NodeKind::List:
  case NodeKind::Tuple:
    s.nodes("elts", cast<Sequence>(n)->elts);
    s.str("ctx", ctxName(cast<Expr>(n)->ctx));
    break;
  case NodeKind::Slice:
    s.node("lower", cast<Slice>(n)->lower);
    s.node("upper", cast<Slice>(n)->upper);
    s.node("step", cast<Slice>(n)->step);
    break;
  case NodeKind::MatchValue:
    s.node("value", cast<MatchValue>(n)->value);
    break;
  case NodeKind::MatchSingleton:
    s.str("value", constantKindName(cast<MatchSingleton>(n)->value));
    break;
  case NodeKind::MatchSequence:
    s.nodes("patterns", cast<MatchSequence>(n)->patterns);
    break;
  case NodeKind::MatchMapping:
    s.nodes("keys", cast<MatchMapping>(n)->keys);
    s.nodes("patterns", cast<MatchMapping>(n)->patterns);
    s.optStr("rest", cast<MatchMapping>(n)->rest);
    break;
  case NodeKind::MatchClass: {
    auto *c = cast<MatchClass>(n);
    s.node("cls", c->cls);
    s.nodes("patterns", c->patterns);
    s.strs("kwd_attrs", c->kwdAttrs);
    s.nodes("kwd_patterns", c->kwdPatterns);
    break;
  }
  case NodeKind::MatchStar:
    s.optStr("name", cast<MatchStar>(n)->name);
    break;
  case NodeKind::MatchAs:
    s.node("pattern", cast<MatchAs>(n)->pattern);
    s.optStr("name", cast<MatchAs>(n)->name);
    break;
  case NodeKind::MatchOr:
    s.nodes("patterns", cast<MatchOr>(n)->patterns);
    break;
  case NodeKind::Arguments: {
    auto *a = cast<Arguments>(n);
    s.nodes("posonlyargs", a->posonlyargs);
    s.nodes("args", a->args);
    s.node("vararg", a->vararg);
    s.nodes("kwonlyargs", a->kwonlyargs);
    s.nodes("kw_defaults", a->kwDefaults);
    s.node("kwarg", a->kwarg);
    s.nodes("defaults", a->defaults);
    break;
  }
  case NodeKind::Arg:
    s.str("arg", cast<Arg>(n)->arg);
    s.node("annotation", cast<Arg>(n)->annotation);
    break;
  case NodeKind::Keyword:
    s.optStr("arg", cast<Keyword>(n)->arg);
    s.node("value", cast<Keyword>(n)->value);
    break;
  case NodeKind::Alias:
    s.str("name", cast<Alias>(n)->name);
    s.optStr("asname", cast<Alias>(n)->asname);
    break;
  case NodeKind::WithItem:
    s.node("context_expr", cast<WithItem>(n)->contextExpr);
    s.node("optional_vars", cast<WithItem>(n)->optionalVars);
    break;
  case NodeKind::MatchCase:
    s.node("pattern", cast<MatchCase>(n)->pattern);
    s.node("guard", cast<MatchCase>(n)->guard);
    s.nodes("body", cast<MatchCase>(n)->body);
    break;
  case NodeKind::ExceptHandler:
    s.node("type", cast<ExceptHandler>(n)->type);
    s.optStr("name", cast<ExceptHandler>(n)->name);
    s.nodes("body", cast<ExceptHandler>(n)->body);
    break;
  case NodeKind::Comprehension: {
    auto *c = cast<Comprehension>(n);
    s.node("target", c->target);
    s.node("iter", c->iter);
    s.nodes("ifs", c->ifs);
    s.integer("is_async", c->isAsync);
    break;
  }
  }
}

/// Nodes CPython gives no position (they have no lineno attribute).
bool hasPosition(const Node *n) {
  switch (n->getKind()) {
  case NodeKind::Module:
  case NodeKind::Arguments:
  case NodeKind::WithItem:
  case NodeKind::MatchCase:
  case NodeKind::Comprehension:
    return false;
  default:
    return true;
  }
}

class ChildSink : public FieldSink {
public:
  explicit ChildSink(llvm::function_ref<void(StringRef, const Node *)> fn)
      : fn(fn) {}
  void node(StringRef field, const Node *n) override {
    if (n)
      fn(field.empty() ? listField : field, n);
  }
  void beginList(StringRef field) override { listField = field; }
  void endList() override { listField = ""; }
  void str(StringRef, StringRef) override {}
  void integer(StringRef, int64_t) override {}
  void null(StringRef) override {}

private:
  llvm::function_ref<void(StringRef, const Node *)> fn;
  StringRef listField;
};

class TextSink : public FieldSink {
public:
  TextSink(const detc::frontend::SourceFile &file, llvm::raw_ostream &os)
      : file(file), os(os) {}

  void dump(const Node *n, StringRef field) {
    StringRef savedListField = listField;
    os.indent(depth * 2);
    if (!field.empty())
      os << field << ": ";
    os << n->pythonName();
    if (hasPosition(n)) {
      const SourceRange &r = n->getRange();
      SourcePos end = file.getPosOfByte(r.end.offset);
      os << " <" << r.begin.line << ":" << r.begin.column + 1 << "-" << end.line
         << ":" << end.column + 1 << ">";
    }
    // Scalars go on the node's line, children below.
    scalars.clear();
    collectingScalars = true;
    visitFields(n, *this);
    collectingScalars = false;
    os << scalars << "\n";
    ++depth;
    visitFields(n, *this);
    --depth;
    listField = savedListField;
  }

  void node(StringRef field, const Node *n) override {
    if (collectingScalars || !n)
      return;
    dump(n, field.empty() ? listField : field);
  }
  void beginList(StringRef field) override {
    listField = field;
    if (collectingScalars)
      inScalarList = true, listSep = " " + field.str() + "=[";
  }
  void endList() override {
    listField = "";
    if (collectingScalars && inScalarList && listSep.empty())
      scalars += "]";
    inScalarList = false;
    listSep.clear();
  }
  void str(StringRef field, StringRef value) override {
    if (!collectingScalars)
      return;
    std::string quoted;
    llvm::raw_string_ostream q(quoted);
    q << "'";
    q.write_escaped(value);
    q << "'";
    if (inScalarList) {
      scalars += listSep.empty() ? ", " : listSep;
      listSep.clear();
      scalars += q.str();
      return;
    }
    bool bare = field == "op" || field == "ctx" || field == "kind";
    scalars += " " + field.str() + "=" + (bare ? value.str() : q.str());
  }
  void integer(StringRef field, int64_t value) override {
    if (!collectingScalars || (field == "conversion" && value == -1))
      return;
    if (field == "conversion")
      scalars += " conversion='" + std::string(1, char(value)) + "'";
    else
      scalars += " " + field.str() + "=" + std::to_string(value);
  }
  void null(StringRef) override {}

private:
  const detc::frontend::SourceFile &file;
  llvm::raw_ostream &os;
  unsigned depth = 0;
  bool collectingScalars = false, inScalarList = false;
  std::string scalars, listSep;
  StringRef listField;
};

class JSONSink : public FieldSink {
public:
  JSONSink(const detc::frontend::SourceFile &file, llvm::json::OStream &j)
      : file(file), j(j) {}

  void dump(const Node *n) {
    j.objectBegin();
    j.attribute("_type", n->pythonName());
    visitFields(n, *this);
    if (hasPosition(n)) {
      const SourceRange &r = n->getRange();
      SourcePos end = file.getPosOfByte(r.end.offset);
      j.attribute("lineno", r.begin.line);
      j.attribute("col_offset", r.begin.column);
      j.attribute("end_lineno", end.line);
      j.attribute("end_col_offset", end.column);
      j.attribute("offset", r.begin.offset);
      j.attribute("end_offset", r.end.offset);
    }
    j.objectEnd();
  }

  void node(StringRef field, const Node *n) override {
    if (!field.empty())
      j.attributeBegin(field);
    if (n)
      dump(n);
    else
      j.value(nullptr);
    if (!field.empty())
      j.attributeEnd();
  }
  void beginList(StringRef field) override {
    j.attributeBegin(field);
    j.arrayBegin();
  }
  void endList() override {
    j.arrayEnd();
    j.attributeEnd();
  }
  void str(StringRef field, StringRef value) override {
    // Decoded bytes may not be UTF-8; JSON strings must be.
    std::string v = llvm::json::isUTF8(value) ? value.str()
                                              : llvm::json::fixUTF8(value);
    if (field.empty())
      j.value(v);
    else
      j.attribute(field, v);
  }
  void integer(StringRef field, int64_t value) override {
    j.attribute(field, value);
  }
  void null(StringRef field) override { j.attribute(field, nullptr); }

private:
  const detc::frontend::SourceFile &file;
  llvm::json::OStream &j;
};

} // namespace

void detc::ast::dumpText(const Node *node,
                         const detc::frontend::SourceFile &file,
                         llvm::raw_ostream &os) {
  TextSink sink(file, os);
  sink.dump(node, "");
}

void detc::ast::dumpJSON(const Node *node,
                         const detc::frontend::SourceFile &file,
                         llvm::raw_ostream &os) {
  llvm::json::OStream j(os);
  JSONSink sink(file, j);
  sink.dump(node);
  os << "\n";
}

void detc::ast::forEachChild(
    const Node *node,
    llvm::function_ref<void(llvm::StringRef, const Node *)> fn) {
  ChildSink sink(fn);
  visitFields(node, sink);
}

void detc::ast::forEachBody(const Stmt *s,
                            llvm::function_ref<void(NodeList<Stmt>)> f) {
  if (auto *x = llvm::dyn_cast<For>(s)) {
    f(x->body);
    f(x->orelse);
  } else if (auto *x = llvm::dyn_cast<While>(s)) {
    f(x->body);
    f(x->orelse);
  } else if (auto *x = llvm::dyn_cast<If>(s)) {
    f(x->body);
    f(x->orelse);
  } else if (auto *x = llvm::dyn_cast<With>(s)) {
    f(x->body);
  } else if (auto *x = llvm::dyn_cast<Try>(s)) {
    f(x->body);
    for (const ExceptHandler *h : x->handlers)
      f(h->body);
    f(x->orelse);
    f(x->finalbody);
  } else if (auto *x = llvm::dyn_cast<FunctionDef>(s)) {
    f(x->body);
  } else if (auto *x = llvm::dyn_cast<ClassDef>(s)) {
    f(x->body);
  }
}

static bool isDunderName(const detc::ast::Expr *e) {
  const auto *n = llvm::dyn_cast_or_null<detc::ast::Name>(e);
  return n && n->id == "__name__";
}

static bool isMainString(const detc::ast::Expr *e) {
  const auto *c = llvm::dyn_cast_or_null<detc::ast::Constant>(e);
  return c && c->kind == detc::ast::ConstantKind::Str && c->value == "__main__";
}

bool detc::ast::isMainGuard(const Stmt *s) {
  const auto *branch = llvm::dyn_cast_or_null<If>(s);
  if (!branch)
    return false;
  const auto *test = llvm::dyn_cast_or_null<Compare>(branch->test);
  if (!test || test->ops.size() != 1 || test->ops[0] != CmpOpKind::Eq ||
      test->comparators.size() != 1)
    return false;
  const Expr *left = test->left, *right = test->comparators[0];
  return (isDunderName(left) && isMainString(right)) ||
         (isMainString(left) && isDunderName(right));
}

std::vector<detc::ast::Stmt *>
detc::ast::runningBody(const Module &module, bool isProgram) {
  std::vector<Stmt *> stmts;
  for (Stmt *s : module.body) {
    if (isProgram || !isMainGuard(s)) {
      stmts.push_back(s);
      continue;
    }
    auto *guard = llvm::cast<If>(s);
    stmts.insert(stmts.end(), guard->orelse.begin(), guard->orelse.end());
  }
  return stmts;
}

//===- AST.cpp - Names of AST kinds and operators -------------------------===//

#include "detc/frontend/AST.h"

using namespace detc::ast;

llvm::StringRef detc::ast::getKindName(NodeKind kind) {
  switch (kind) {
#define NODE(K)                                                                \
  case NodeKind::K:                                                            \
    return #K;
#include "detc/frontend/ASTNodes.def"
  }
  return "?";
}

llvm::StringRef Node::pythonName() const {
  switch (getKind()) {
  case NodeKind::FunctionDef:
    return llvm::cast<FunctionDef>(this)->isAsync ? "AsyncFunctionDef"
                                                  : "FunctionDef";
  case NodeKind::For:
    return llvm::cast<For>(this)->isAsync ? "AsyncFor" : "For";
  case NodeKind::With:
    return llvm::cast<With>(this)->isAsync ? "AsyncWith" : "With";
  case NodeKind::Try:
    return llvm::cast<Try>(this)->isStar ? "TryStar" : "Try";
  case NodeKind::ExprStmt:
    return "Expr";
  case NodeKind::Arguments:
    return "arguments";
  case NodeKind::Arg:
    return "arg";
  case NodeKind::Keyword:
    return "keyword";
  case NodeKind::Alias:
    return "alias";
  case NodeKind::WithItem:
    return "withitem";
  case NodeKind::MatchCase:
    return "match_case";
  case NodeKind::Comprehension:
    return "comprehension";
  default:
    return getKindName(getKind());
  }
}

llvm::StringRef detc::ast::getBinOpName(BinOpKind op) {
  static const char *names[] = {"Add",    "Sub",    "Mult",   "MatMult",
                                "Div",    "Mod",    "Pow",    "LShift",
                                "RShift", "BitOr",  "BitXor", "BitAnd",
                                "FloorDiv"};
  return names[static_cast<int>(op)];
}

llvm::StringRef detc::ast::getBinOpSymbol(BinOpKind op) {
  static const char *syms[] = {"+",  "-", "*", "@", "/", "%", "**",
                               "<<", ">>", "|", "^", "&", "//"};
  return syms[static_cast<int>(op)];
}

llvm::StringRef detc::ast::getUnaryOpName(UnaryOpKind op) {
  static const char *names[] = {"Invert", "Not", "UAdd", "USub"};
  return names[static_cast<int>(op)];
}

llvm::StringRef detc::ast::getCmpOpName(CmpOpKind op) {
  static const char *names[] = {"Eq", "NotEq", "Lt", "LtE", "Gt",
                                "GtE", "Is", "IsNot", "In", "NotIn"};
  return names[static_cast<int>(op)];
}

void detc::ast::appendBoundNames(const Expr *target,
                                 llvm::SmallVectorImpl<llvm::StringRef> &out) {
  llvm::SmallVector<const Expr *, 4> work{target};
  while (!work.empty()) {
    const Expr *x = work.pop_back_val();
    if (auto *n = llvm::dyn_cast_or_null<Name>(x))
      out.push_back(n->id);
    else if (auto *seq = llvm::dyn_cast_or_null<Sequence>(x))
      work.append(seq->elts.rbegin(), seq->elts.rend());
    else if (auto *st = llvm::dyn_cast_or_null<Starred>(x))
      work.push_back(st->value);
  }
}

bool detc::ast::hasNamedDecorator(const FunctionDef *def,
                                  llvm::StringRef name) {
  return def && llvm::any_of(def->decoratorList, [name](const Expr *d) {
           auto *n = llvm::dyn_cast<Name>(d);
           return n && n->id == name;
         });
}

bool detc::ast::isPropertyGetter(const FunctionDef *def) {
  return def && llvm::any_of(def->decoratorList, [](const Expr *d) {
           llvm::StringRef name;
           if (auto *n = llvm::dyn_cast<Name>(d))
             name = n->id;
           else if (auto *a = llvm::dyn_cast<Attribute>(d))
             name = a->attr;
           return name == "property" || name == "cached_property";
         });
}

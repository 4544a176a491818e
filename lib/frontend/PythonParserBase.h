//===- PythonParserBase.h - Base of the generated Python parser -----------===//
//
// Bounds the parser's recursion by the stack it actually uses, so that
// pathological input (thousands of nested unary operators, lambdas or
// conditional expressions) produces a diagnostic instead of a stack overflow.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_PYTHONPARSERBASE_H
#define DETC_LIB_FRONTEND_PYTHONPARSERBASE_H

#include "antlr4-runtime.h"

namespace detc::frontend {

/// Thrown (and caught by the parse driver) when nesting exceeds the stack
/// budget. It is not a RecognitionException, so generated rules do not try to
/// recover from it.
struct NestingTooDeep {
  antlr4::Token *at;
};

/// Measures stack use from a base address recorded at construction.
class StackBudget {
public:
  explicit StackBudget(size_t bytes);
  bool exceeded() const;

private:
  const char *base;
  size_t budget;
};

class PythonParserBase : public antlr4::Parser {
public:
  explicit PythonParserBase(antlr4::TokenStream *input) : Parser(input) {}

  /// Must be set before parsing; the driver owns the budget.
  void setStackBudget(const StackBudget *b) { budget = b; }

  void enterRule(antlr4::ParserRuleContext *localctx, size_t state,
                 size_t ruleIndex) override;
  void enterRecursionRule(antlr4::ParserRuleContext *localctx, size_t state,
                          size_t ruleIndex, int precedence) override;

private:
  void checkDepth();
  const StackBudget *budget = nullptr;
};

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_PYTHONPARSERBASE_H

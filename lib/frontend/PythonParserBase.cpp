//===- PythonParserBase.cpp - Base of the generated Python parser ---------===//

#include "PythonParserBase.h"

namespace detc::frontend {

StackBudget::StackBudget(size_t bytes) : budget(bytes) {
  char here;
  base = &here;
}

bool StackBudget::exceeded() const {
  char here;
  // The stack grows downwards on every platform we build for.
  return static_cast<size_t>(base - &here) > budget;
}

void PythonParserBase::checkDepth() {
  if (budget && budget->exceeded())
    throw NestingTooDeep{getCurrentToken()};
}

void PythonParserBase::enterRule(antlr4::ParserRuleContext *localctx,
                                 size_t state, size_t ruleIndex) {
  checkDepth();
  Parser::enterRule(localctx, state, ruleIndex);
}

void PythonParserBase::enterRecursionRule(antlr4::ParserRuleContext *localctx,
                                          size_t state, size_t ruleIndex,
                                          int precedence) {
  checkDepth();
  Parser::enterRecursionRule(localctx, state, ruleIndex, precedence);
}

} // namespace detc::frontend

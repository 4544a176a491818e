//===- DetcDialect.cpp - The detc dialect ---------------------------------===//

#include "detc/ir/DetcDialect.h"
#include "detc/ir/DetcOps.h"
#include "detc/ir/SourceSpans.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace detc::ir;

#include "detc/ir/DetcOpsDialect.cpp.inc"
#include "detc/ir/DetcEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "detc/ir/DetcAttrs.cpp.inc"

void DetcDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "detc/ir/DetcOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "detc/ir/DetcAttrs.cpp.inc"
      >();
  sourceSpans = std::make_unique<SourceSpanStore>(getContext());
}

LogicalResult
SourceSpanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       StringAttr file, unsigned line, unsigned column,
                       uint32_t stmtBegin, uint32_t stmtEnd,
                       uint32_t exprBegin, uint32_t exprEnd) {
  if (!file || file.getValue().empty() || line == 0)
    return emitError() << "a source position needs a file and a line";
  if (stmtBegin > stmtEnd || exprBegin > exprEnd)
    return emitError() << "source range ends before it begins";
  if (exprBegin < stmtBegin || exprEnd > stmtEnd)
    return emitError() << "expression range [" << exprBegin << ":" << exprEnd
                       << "] is not inside its statement [" << stmtBegin
                       << ":" << stmtEnd << "]";
  return success();
}

Attribute SourceSpanAttr::parse(AsmParser &parser, Type) {
  std::string file;
  unsigned line = 0, column = 0;
  uint32_t stmtBegin = 0, stmtEnd = 0, exprBegin = 0, exprEnd = 0;
  llvm::SMLoc at = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseString(&file) || parser.parseColon() ||
      parser.parseInteger(line) || parser.parseColon() ||
      parser.parseInteger(column) || parser.parseComma() ||
      parser.parseKeyword("stmt") || parser.parseInteger(stmtBegin) ||
      parser.parseKeyword("to") || parser.parseInteger(stmtEnd) ||
      parser.parseComma() || parser.parseKeyword("expr") ||
      parser.parseInteger(exprBegin) || parser.parseKeyword("to") ||
      parser.parseInteger(exprEnd) || parser.parseGreater())
    return {};
  return parser.getChecked<SourceSpanAttr>(
      at, parser.getContext(), StringAttr::get(parser.getContext(), file),
      line, column, stmtBegin, stmtEnd, exprBegin, exprEnd);
}

void SourceSpanAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printString(getFile().getValue());
  printer << ":" << getLine() << ":" << getColumn() << ", stmt "
          << getStmtBegin() << " to " << getStmtEnd() << ", expr "
          << getExprBegin() << " to " << getExprEnd() << ">";
}

std::optional<SourcePosition> detc::ir::getSourcePosition(Location loc) {
  if (std::optional<SourceSpan> span = getSourceSpan(loc))
    return SourcePosition{span->file.getValue(), span->line, span->column};
  std::optional<SourcePosition> found;
  loc->walk([&](Location l) {
    if (auto fl = dyn_cast<FileLineColLoc>(l)) {
      found = SourcePosition{fl.getFilename().getValue(), fl.getLine(),
                             fl.getColumn()};
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

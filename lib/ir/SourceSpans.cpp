//===- SourceSpans.cpp - Where lowered ops come from in the source --------===//

#include "detc/ir/SourceSpans.h"
#include "detc/ir/DetcDialect.h"

#include "mlir/IR/Operation.h"

using namespace mlir;
using namespace detc::ir;

MLIR_DEFINE_EXPLICIT_TYPE_ID(detc::ir::PackedSourceSpan)

Location SourceSpanRegion::get(const SourceSpan &span) {
  if (used == spans.size())
    spans.emplace_back();
  PackedSourceSpan *slot = &spans[used++];
  *slot = {span.line,    span.column,    span.stmtBegin,
           span.stmtEnd, span.exprBegin, span.exprEnd};
  if (span.file != lastFile) {
    lastFile = span.file;
    lastFallback = FileLineColLoc::get(span.file, 0, 0);
  }
  return OpaqueLoc::get(reinterpret_cast<uintptr_t>(slot),
                        TypeID::get<PackedSourceSpan>(), lastFallback);
}

SourceSpanRegion &SourceSpanStore::newRegion() {
  std::lock_guard<std::mutex> lock(mutex);
  return regions.emplace_back(ctx);
}

SourceSpanRegion &detc::ir::newSourceSpanRegion(MLIRContext *ctx) {
  return ctx->getOrLoadDialect<DetcDialect>()->getSourceSpans().newRegion();
}

std::optional<SourceSpan> detc::ir::getSourceSpan(Location loc) {
  if (auto opaque = dyn_cast<OpaqueLoc>(loc)) {
    auto file = dyn_cast<FileLineColLoc>(opaque.getFallbackLocation());
    if (opaque.getUnderlyingTypeID() != TypeID::get<PackedSourceSpan>() ||
        !file)
      return std::nullopt;
    const auto &p = *reinterpret_cast<const PackedSourceSpan *>(
        opaque.getUnderlyingLocation());
    return SourceSpan{file.getFilename(), p.line,      p.column, p.stmtBegin,
                      p.stmtEnd,          p.exprBegin, p.exprEnd};
  }
  auto fused = dyn_cast<FusedLoc>(loc);
  auto attr =
      fused ? dyn_cast_or_null<SourceSpanAttr>(fused.getMetadata()) : nullptr;
  if (!attr)
    return std::nullopt;
  return SourceSpan{attr.getFile(),      attr.getLine(),    attr.getColumn(),
                    attr.getStmtBegin(), attr.getStmtEnd(), attr.getExprBegin(),
                    attr.getExprEnd()};
}

void detc::ir::materializeSourceSpans(Operation *root) {
  root->walk([](Operation *op) {
    if (!isa<OpaqueLoc>(op->getLoc()))
      return;
    std::optional<SourceSpan> s = getSourceSpan(op->getLoc());
    if (!s)
      return;
    MLIRContext *ctx = op->getContext();
    auto attr =
        SourceSpanAttr::get(ctx, s->file, s->line, s->column, s->stmtBegin,
                            s->stmtEnd, s->exprBegin, s->exprEnd);
    op->setLoc(FusedLoc::get(ctx, {UnknownLoc::get(ctx)}, attr));
  });
}

//===- SourceSpans.h - Where lowered ops come from in the source -*- C++
//-*-===//
//
// Every op lowered from Python carries its source span: the file, the
// line:column of the expression it stands for and the byte ranges of that
// expression and of its statement. In IR read from text the span is a
// `#detc.src` attribute fused into the location. The lowering stores it
// outside the context instead: the op's location is an OpaqueLoc pointing
// at the span (MLIR's way for a front end to hand its own location objects
// to the IR). A uniqued span inside a uniqued FusedLoc cost two hash-table
// entries and two storages per op, a fifth of the lowered module's memory;
// this costs one of each and a 24-byte span (the file is the OpaqueLoc's
// fallback location, which is what printing an unmaterialized op shows).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_IR_SOURCESPANS_H
#define DETC_IR_SOURCESPANS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/TypeID.h"

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>

namespace mlir {
class Operation;
} // namespace mlir

namespace detc::ir {

/// The fields of a `#detc.src` attribute (DetcAttrs.td).
struct SourceSpan {
  mlir::StringAttr file;
  unsigned line = 0, column = 0;
  uint32_t stmtBegin = 0, stmtEnd = 0, exprBegin = 0, exprEnd = 0;
};

/// A span as a region stores it: the file is the OpaqueLoc's fallback
/// location (`FileLineColLoc(file, 0, 0)`, one per file), so an op's span
/// takes 24 bytes.
struct PackedSourceSpan {
  uint32_t line = 0, column = 0;
  uint32_t stmtBegin = 0, stmtEnd = 0, exprBegin = 0, exprEnd = 0;
};

/// The spans one lowering made. A lowering that throws a pass's IR away
/// restarts its region: the next pass's spans overwrite the old ones, so
/// their OpaqueLocs (keyed by the span's address) are found again instead
/// of growing the context with every pass.
class SourceSpanRegion {
public:
  explicit SourceSpanRegion(mlir::MLIRContext *ctx) : ctx(ctx) {}
  /// A location for `span`, valid while the context lives (until the next
  /// restart()).
  mlir::Location get(const SourceSpan &span);
  /// Every location this region made is dead: their spans may be reused.
  void restart() { used = 0; }

private:
  mlir::MLIRContext *ctx;
  std::deque<PackedSourceSpan> spans; ///< A deque: addresses never move.
  size_t used = 0;
  /// The fallback location of the last file asked for.
  mlir::StringAttr lastFile;
  mlir::LocationAttr lastFallback;
};

/// The regions of every lowering into a context (owned by the detc
/// dialect, so spans live as long as the IR pointing at them).
class SourceSpanStore {
public:
  explicit SourceSpanStore(mlir::MLIRContext *ctx) : ctx(ctx) {}
  SourceSpanRegion &newRegion();

private:
  mlir::MLIRContext *ctx;
  std::mutex mutex;
  std::deque<SourceSpanRegion> regions;
};

/// The region for a new lowering into `ctx` (loads the detc dialect).
SourceSpanRegion &newSourceSpanRegion(mlir::MLIRContext *ctx);

/// The span of a location: a lowered op's, or the `#detc.src` of IR read
/// from text; none for other locations.
std::optional<SourceSpan> getSourceSpan(mlir::Location loc);

/// Gives every op under `root` whose span lives outside the context the
/// `#detc.src` form instead, so that printing shows it (an OpaqueLoc
/// prints only its fallback) and the text parses back to the same spans.
void materializeSourceSpans(mlir::Operation *root);

} // namespace detc::ir

MLIR_DECLARE_EXPLICIT_TYPE_ID(detc::ir::PackedSourceSpan)

#endif // DETC_IR_SOURCESPANS_H

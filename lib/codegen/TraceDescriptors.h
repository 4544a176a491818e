//===- TraceDescriptors.h - What a traced call is ---------------*- C++ -*-===//
//
// The names a trace gives the calls it wraps, by role (TraceDescriptors.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_CODEGEN_TRACEDESCRIPTORS_H
#define DETC_LIB_CODEGEN_TRACEDESCRIPTORS_H

#include "detc/codegen/SourceEdits.h"
#include "detc/ir/DetcOps.h"

#include "llvm/ADT/StringMap.h"

#include <string>
#include <utility>
#include <vector>

namespace detc::codegen {

/// `loss`, `forward:layer` (the runtime adds the class) or `forward:model`.
std::string forwardDescriptor(ir::ForwardOp fw,
                              const llvm::StringMap<ir::BuildOp> &builds);

/// The loss `call`'s result goes into in the same function (`nll`), or "".
std::string lossFed(mlir::Operation *call,
                    const llvm::StringMap<ir::BuildOp> &builds);

/// A plain dotted name (`net`, `self.model`).
bool isDottedName(llvm::StringRef text);

/// Calls in a loop of code detc could not read: (callee begin, its text).
std::vector<std::pair<uint32_t, std::string>>
unreadCallees(mlir::Operation *op, llvm::StringRef src,
              const EditList &edits);

} // namespace detc::codegen

#endif // DETC_LIB_CODEGEN_TRACEDESCRIPTORS_H

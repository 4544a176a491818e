//===- GeneratorShapes.h - What a generator does with its input -*- C++ -*-===//
//
// A restart re-enters a training loop at a saved minibatch by positioning
// the loader the loop iterates. When the loop iterates a generator of the
// program wrapped around the loader (DeiT's, DETR's and MAE's
// `metric_logger.log_every(data_loader, print_freq, header)`), that works
// only if the generator yields the loader's items unchanged, once each, in
// order: then which items come depends on the loader alone, and the
// generator's own state (timers, meters) only prints.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_CODEGEN_GENERATORSHAPES_H
#define DETC_CODEGEN_GENERATORSHAPES_H

#include "detc/frontend/AST.h"

#include <optional>

namespace detc::codegen {

/// The parameter of `def` whose items it yields once each, in order,
/// whatever else it does: a loop `for obj in PARAM:` at the top level of
/// its body whose body yields `obj` at its own top level before rebinding
/// it, no `else`, no `break` or `return` in that loop (one of a loop
/// nested in it may end that loop only), and no other `yield` or `yield
/// from` in the function. None for any other function.
std::optional<llvm::StringRef>
passedThroughParameter(const ast::FunctionDef &def);

} // namespace detc::codegen

#endif // DETC_CODEGEN_GENERATORSHAPES_H

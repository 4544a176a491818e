//===- Passes.h - Analysis test passes ----------------------------*- C++ -*-===//

#ifndef DETC_ANALYSIS_PASSES_H
#define DETC_ANALYSIS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace detc::analysis {

#define GEN_PASS_DECL
#include "detc/analysis/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "detc/analysis/Passes.h.inc"

} // namespace detc::analysis

#endif // DETC_ANALYSIS_PASSES_H

//===- ModuleModes.h - Dropout evaluation mode switches off -*- C++ -*-===//
//
// Part of building the statement graph (ModuleModes.cpp says how).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_ANALYSIS_MODULEMODES_H
#define DETC_LIB_ANALYSIS_MODULEMODES_H

#include "detc/analysis/StatementGraph.h"

namespace detc::analysis {

/// Turns the dropout-module draws of forwards that certainly run in
/// evaluation mode into plain statements.
void switchOffEvalDropout(StatementGraph &g);

} // namespace detc::analysis

#endif // DETC_LIB_ANALYSIS_MODULEMODES_H

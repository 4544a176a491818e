//===- RandomPrograms.h - Random detc modules for property tests -*- C++ -*-===//
//
// Generates detc modules (as dialect text) with the shapes the analyses must
// handle: nested loops (for/while, break/continue), branches, nested
// data-parallel regions, helper functions called inside and outside
// regions (generators passed as arguments), generator aliasing through
// copies and attributes, reseeds, expensive work (grad/update) and user
// checkpoints. Deterministic for a given seed.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_UNITTESTS_ANALYSIS_RANDOMPROGRAMS_H
#define DETC_UNITTESTS_ANALYSIS_RANDOMPROGRAMS_H

#include <cstdint>
#include <string>

namespace detc::testing {

struct RandomProgramOptions {
  unsigned maxDepth = 4;      ///< Nesting of loops, branches, regions.
  unsigned maxStatements = 5; ///< Per block.
  unsigned helpers = 2;       ///< Helper functions.
  unsigned checkpoints = 2;   ///< At most this many checkpoint statements.
  unsigned budget = 25;       ///< Statements per function, roughly.
};

std::string randomProgram(uint64_t seed,
                          const RandomProgramOptions &options = {});

} // namespace detc::testing

#endif // DETC_UNITTESTS_ANALYSIS_RANDOMPROGRAMS_H

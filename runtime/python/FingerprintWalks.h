//===- FingerprintWalks.h - the fingerprint's walks in C++ ------*- C++ -*-===//
//
// What fingerprint.py does per value of a checkpoint, done in the core:
// each walk costs the checkpoint it records microseconds per tensor or per
// variable in Python (bench/fingerprint_cost.py).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_RUNTIME_PYTHON_FINGERPRINTWALKS_H
#define DETC_RUNTIME_PYTHON_FINGERPRINTWALKS_H

#include <pybind11/pybind11.h>

namespace detc::runtime {

/// _core.digest_setup and digest_walk: the texts of a saved state's
/// digest (StateDigest.cpp).
void registerStateDigest(pybind11::module &m);

/// _core.frame_generators: the generator objects a frame's variables
/// hold (FrameGenerators.cpp).
void registerFrameGenerators(pybind11::module &m);

} // namespace detc::runtime

#endif // DETC_RUNTIME_PYTHON_FINGERPRINTWALKS_H

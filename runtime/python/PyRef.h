//===- PyRef.h - an owned reference for the core's C API code ---*- C++ -*-===//
//
// The fingerprint's walks (StateDigest.cpp, FrameGenerators.cpp) use the
// CPython API directly, where pybind11's objects would cost them a third.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_RUNTIME_PYTHON_PYREF_H
#define DETC_RUNTIME_PYTHON_PYREF_H

#include <Python.h>

namespace detc::runtime {

/// Owns one reference (nullptr: a Python error is set).
struct PyRef {
  PyObject *p;
  explicit PyRef(PyObject *p) : p(p) {}
  PyRef(const PyRef &) = delete;
  PyRef &operator=(const PyRef &) = delete;
  ~PyRef() { Py_XDECREF(p); }
  explicit operator bool() const { return p != nullptr; }
};

} // namespace detc::runtime

#endif // DETC_RUNTIME_PYTHON_PYREF_H

//===- FrameGenerators.cpp - generators a frame's variables hold ----------===//
//
// A checkpoint's fingerprint digests the generator objects bound to the
// variables of the checkpointing function and of its module, and to their
// attributes one level down (a dataset's `self.rng`): after a restore the
// same variables must digest alike (fingerprint.py, named_generators).
// A script's module has dozens of variables, most of them modules,
// functions, classes and numbers; checked in Python that scan was half of
// a small checkpoint's fingerprint. Here it finds the generators, and
// fingerprint.py digests what it found (rarely more than one or two).
//
//===----------------------------------------------------------------------===//

#include "FingerprintWalks.h"
#include "PyRef.h"

namespace py = pybind11;
using namespace detc::runtime;

namespace {

// An object's attributes looked at, at most (a dataset with a large
// __dict__ of plain fields costs no more than this).
constexpr Py_ssize_t kMaxAttributes = 64;

struct Scan {
  PyObject *found;       // {path: generator}, first binding kept
  PyObject *generators;  // tuple of generator types
  PyObject *skipped;     // frozenset of types that hold no generator
  PyObject *opaque;      // tuple: values whose attributes are not read
  PyObject *dictName;    // "__dict__"
  PyObject *samplerName; // "_detc_sampler"

  int isGenerator(PyObject *v) {
    return PyObject_IsInstance(v, generators);
  }

  bool variable(PyObject *name, PyObject *value) {
    int skip = PySet_Contains(skipped, reinterpret_cast<PyObject *>(
                                           Py_TYPE(value)));
    if (skip)
      return skip > 0;
    if (!PyUnicode_Check(name))
      return true; // (frame variables are str; a module's dict may not be)
    if (PyUnicode_GetLength(name) >= 2 &&
        PyUnicode_READ_CHAR(name, 0) == '_' &&
        PyUnicode_READ_CHAR(name, 1) == '_')
      return true;
    if (PyModule_Check(value) || PyType_Check(value) ||
        PyFunction_Check(value))
      return true;
    int gen = isGenerator(value);
    if (gen < 0)
      return false;
    if (gen)
      return PyDict_SetDefault(found, name, value) != nullptr;
    PyRef attrs(PyObject_GetAttr(value, dictName));
    if (!attrs) {
      if (!PyErr_ExceptionMatches(PyExc_AttributeError))
        return false;
      PyErr_Clear();
      return true;
    }
    if (!PyDict_Check(attrs.p))
      return true;
    int isOpaque = PyObject_IsInstance(value, opaque);
    if (isOpaque)
      return isOpaque > 0;
    // A keyed loader's generator is detc's own (data.py): saved and
    // checked with each position of the loader.
    int keyed = PyDict_Contains(attrs.p, samplerName);
    if (keyed)
      return keyed > 0;
    // A copy of the items, as Python's list(attrs.items()) was: reading
    // an attribute below runs no code, but a generator's __instancecheck__
    // could.
    PyRef items(PyDict_Items(attrs.p));
    if (!items)
      return false;
    Py_ssize_t n = PyList_GET_SIZE(items.p);
    for (Py_ssize_t i = 0; i < n && i < kMaxAttributes; ++i) {
      PyObject *pair = PyList_GET_ITEM(items.p, i);
      PyObject *attr = PyTuple_GET_ITEM(pair, 0);
      PyObject *inner = PyTuple_GET_ITEM(pair, 1);
      int innerGen = isGenerator(inner);
      if (innerGen < 0)
        return false;
      if (!innerGen)
        continue;
      PyRef path(PyUnicode_FromFormat("%U.%S", name, attr));
      if (!path || !PyDict_SetDefault(found, path.p, inner))
        return false;
    }
    return true;
  }

  bool scope(PyObject *variables) {
    PyRef items(PyDict_Items(variables));
    if (!items)
      return false;
    Py_ssize_t n = PyList_GET_SIZE(items.p);
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject *pair = PyList_GET_ITEM(items.p, i);
      if (!variable(PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1)))
        return false;
    }
    return true;
  }
};

} // namespace

void detc::runtime::registerFrameGenerators(py::module &m) {
  m.def(
      "frame_generators",
      [](py::list scopes, py::tuple generators, py::frozenset skipped,
         py::tuple opaque) {
        py::dict found;
        py::str dictName("__dict__"), samplerName("_detc_sampler");
        Scan scan{found.ptr(),  generators.ptr(),  skipped.ptr(),
                  opaque.ptr(), dictName.ptr(), samplerName.ptr()};
        for (py::handle variables : scopes) {
          if (!PyDict_Check(variables.ptr()))
            throw py::type_error("frame_generators: a scope is no dict");
          if (!scan.scope(variables.ptr()))
            throw py::error_already_set();
        }
        return found;
      },
      py::arg("scopes"), py::arg("generators"), py::arg("skipped"),
      py::arg("opaque"),
      "{path: generator} of the values of `scopes` (dicts of variables, "
      "the first binding of a path kept) that are instances of "
      "`generators`, and of their attributes one level down; values of a "
      "type in `skipped`, modules, classes, functions, dunder names and "
      "the attributes of `opaque` instances and of keyed loaders are "
      "passed over.");
}

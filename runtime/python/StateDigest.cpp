//===- StateDigest.cpp - the fingerprint's walk over saved state ----------===//
//
// fingerprint.digest() turns a checkpoint's state (state dicts: dicts of
// tensors and scalars, lists of them) into a list of short texts, one per
// scalar, tensor and container boundary, and hashes them. Done in Python
// it cost ~3 µs per tensor, most of it interpreter overhead around a 1 µs
// hash: a small checkpoint's fingerprint was a tenth of its write
// (bench/fingerprint_cost.py). Here the containers, scalars and CPU
// tensors are walked in C++; every other value (a tensor on a GPU or not
// contiguous, a numpy array, a module, a generator, a loader position) is
// handed back to fingerprint.py's `_walk_other`, which appends its texts
// the way it always did. The texts are the ones the Python walk made, byte
// for byte, so fingerprints written by an earlier detc verify unchanged
// (runtime/python/tests: a reference walk in Python over many shapes).
//
//===----------------------------------------------------------------------===//

#include "FingerprintWalks.h"
#include "PyRef.h"

#include "detc/runtime/TensorMemory.h"

#include <cinttypes>
#include <cstdio>
#include <string>

namespace py = pybind11;
using namespace detc::runtime;

namespace {

/// What the walk needs from fingerprint.py, given once (digest_setup).
struct Setup {
  PyObject *tensorType = nullptr;    // torch.Tensor (isinstance)
  PyObject *parameterType = nullptr; // torch.nn.Parameter (exact)
  PyObject *strided = nullptr;       // torch.strided
  PyObject *dtypeNames = nullptr;    // {dtype: name}, filled by dtypeName
  PyObject *dtypeName = nullptr;     // dtype -> name (fills dtypeNames)
  PyObject *walkOther = nullptr;     // (value, full, parts, depth, seen)
  PyObject *keyDigest = nullptr;     // (key, full) -> text
  size_t windows = 0, window = 0;    // memorySampleHash's sample
  // Interned attribute names.
  PyObject *isCpu, *layout, *isContiguous, *dtype, *shape, *numel,
      *elementSize, *dataPtr, *items;
};

Setup setup;

// Python's _walk gives "..." to containers nested deeper than this.
constexpr long kMaxDepth = 8;

bool isScalar(PyObject *v) {
  PyTypeObject *t = Py_TYPE(v);
  return t == &PyBool_Type || t == &PyLong_Type || t == &PyFloat_Type ||
         t == &PyComplex_Type || t == &PyUnicode_Type || t == &PyBytes_Type ||
         v == Py_None;
}

/// Appends `text` (a new reference, or nullptr on error) to `parts`.
bool appendNew(PyObject *parts, PyObject *text) {
  if (!text)
    return false;
  int rc = PyList_Append(parts, text);
  Py_DECREF(text);
  return rc == 0;
}

class Walk {
public:
  Walk(PyObject *parts, PyObject *seen, bool full)
      : parts(parts), seen(seen), full(full) {}

  /// fingerprint.py's _walk(value, full, parts, depth, seen).
  bool walk(PyObject *v, long depth) {
    if (isScalar(v))
      return appendNew(parts, PyObject_Repr(v));
    PyRef id(PyLong_FromVoidPtr(v));
    if (!id)
      return false;
    if (depth > kMaxDepth) {
      return appendNew(parts, PyUnicode_FromString("..."));
    }
    int inSeen = PySet_Contains(seen, id.p);
    if (inSeen < 0)
      return false;
    if (inSeen)
      return appendNew(parts, PyUnicode_FromString("..."));
    if (PyDict_Check(v))
      return container(v, id.p, depth, true);
    if (PyList_Check(v) || PyTuple_Check(v))
      return container(v, id.p, depth, false);
    int isTensor = PyObject_IsInstance(v, setup.tensorType);
    if (isTensor < 0)
      return false;
    if (isTensor)
      return tensor(v, depth);
    return other(v, depth);
  }

private:
  PyObject *parts, *seen;
  bool full;

  /// _entry: an element of a container of `depth`.
  bool entry(PyObject *v, long depth) {
    if (isScalar(v))
      return appendNew(parts, PyObject_Repr(v));
    PyTypeObject *t = Py_TYPE(v);
    if (reinterpret_cast<PyObject *>(t) == setup.tensorType ||
        reinterpret_cast<PyObject *>(t) == setup.parameterType)
      return tensor(v, depth);
    return walk(v, depth + 1);
  }

  bool container(PyObject *v, PyObject *id, long depth, bool isDict) {
    if (PySet_Add(seen, id) < 0)
      return false;
    bool ok = isDict ? dictBody(v, depth) : sequenceBody(v, depth);
    if (!ok)
      return false;
    return PySet_Discard(seen, id) >= 0;
  }

  bool dictBody(PyObject *v, long depth) {
    if (!appendNew(parts, PyUnicode_FromString("{")))
      return false;
    if (PyDict_CheckExact(v)) {
      // Borrowed references: nothing below changes the dict.
      Py_ssize_t at = 0;
      PyObject *key, *value;
      while (PyDict_Next(v, &at, &key, &value))
        if (!item(key, value, depth))
          return false;
    } else {
      // A subclass (a state dict's OrderedDict) iterates in its own order.
      PyRef items(PyObject_CallMethodNoArgs(v, setup.items));
      if (!items)
        return false;
      PyRef it(PyObject_GetIter(items.p));
      if (!it)
        return false;
      while (PyObject *pair = PyIter_Next(it.p)) {
        PyRef owned(pair);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
          PyErr_SetString(PyExc_TypeError, "items() gave no pair");
          return false;
        }
        if (!item(PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1),
                  depth))
          return false;
      }
      if (PyErr_Occurred())
        return false;
    }
    return appendNew(parts, PyUnicode_FromString("}"));
  }

  bool item(PyObject *key, PyObject *value, long depth) {
    Py_INCREF(key);
    Py_INCREF(value);
    PyRef k(key), v(value);
    if (isScalar(key)) {
      if (!appendNew(parts, PyObject_Repr(key)))
        return false;
    } else if (!appendNew(parts, PyObject_CallFunctionObjArgs(
                                     setup.keyDigest, key,
                                     full ? Py_True : Py_False, nullptr))) {
      return false;
    }
    return entry(value, depth);
  }

  bool sequenceBody(PyObject *v, long depth) {
    if (!appendNew(parts, PyUnicode_FromString("[")))
      return false;
    if (PyList_CheckExact(v) || PyTuple_CheckExact(v)) {
      PyRef fast(PySequence_Fast(v, "not a sequence"));
      if (!fast)
        return false;
      // An entry's walk may call Python code that resizes a list: index
      // and size are read again each time.
      for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast.p); ++i) {
        PyObject *e = PySequence_Fast_GET_ITEM(fast.p, i);
        Py_INCREF(e);
        PyRef owned(e);
        if (!entry(e, depth))
          return false;
      }
    } else {
      // A subclass (a namedtuple, torch.Size) iterates as it says.
      PyRef it(PyObject_GetIter(v));
      if (!it)
        return false;
      while (PyObject *e = PyIter_Next(it.p)) {
        PyRef owned(e);
        if (!entry(e, depth))
          return false;
      }
      if (PyErr_Occurred())
        return false;
    }
    return appendNew(parts, PyUnicode_FromString("]"));
  }

  /// Anything else, as fingerprint.py's _walk_other says.
  bool other(PyObject *v, long depth) {
    PyRef depthObj(PyLong_FromLong(depth));
    if (!depthObj)
      return false;
    PyRef r(PyObject_CallFunctionObjArgs(setup.walkOther, v,
                                       full ? Py_True : Py_False, parts,
                                       depthObj.p, seen, nullptr));
    return bool(r);
  }

  /// _add_tensor of a dense contiguous CPU tensor: "<dtype><shape>:<hash>"
  /// as _tensor_digest writes it; any other tensor goes to _walk_other.
  bool tensor(PyObject *t, long depth) {
    PyRef cpu(PyObject_GetAttr(t, setup.isCpu));
    if (!cpu)
      return false;
    PyRef layout(PyObject_GetAttr(t, setup.layout));
    if (!layout)
      return false;
    if (cpu.p != Py_True || layout.p != setup.strided)
      return other(t, depth);
    PyRef contiguous(PyObject_CallMethodNoArgs(t, setup.isContiguous));
    if (!contiguous)
      return false;
    if (contiguous.p != Py_True)
      return other(t, depth);
    std::string text;
    if (!dtypeName(t, text) || !shapeText(t, text))
      return false;
    unsigned long long size = 0, address = 0;
    if (!sizeAndAddress(t, size, address))
      return false;
    uint64_t h = 0;
    if (size != 0) {
      const void *data = reinterpret_cast<const void *>(address);
      if (!full) {
        h = memorySampleHash(data, size, setup.windows, setup.window);
      } else if (size < (1u << 18)) {
        h = memoryHash(data, size);
      } else {
        Py_BEGIN_ALLOW_THREADS h = memoryHash(data, size);
        Py_END_ALLOW_THREADS
      }
    }
    char hex[24];
    std::snprintf(hex, sizeof hex, ":%016" PRIx64, h);
    text += hex;
    return appendNew(parts,
                     PyUnicode_FromStringAndSize(text.data(), text.size()));
  }

  static bool dtypeName(PyObject *t, std::string &text) {
    PyRef dtype(PyObject_GetAttr(t, setup.dtype));
    if (!dtype)
      return false;
    PyObject *name = PyDict_GetItemWithError(setup.dtypeNames, dtype.p);
    PyRef made(nullptr);
    if (!name) {
      if (PyErr_Occurred())
        return false;
      made.p =
          PyObject_CallFunctionObjArgs(setup.dtypeName, dtype.p, nullptr);
      if (!made)
        return false;
      name = made.p;
    }
    Py_ssize_t n = 0;
    const char *utf8 = PyUnicode_AsUTF8AndSize(name, &n);
    if (!utf8)
      return false;
    text.assign(utf8, size_t(n));
    return true;
  }

  /// `tuple(t.shape)`'s repr: "()", "(3,)", "(2, 3)".
  static bool shapeText(PyObject *t, std::string &text) {
    PyRef shape(PyObject_GetAttr(t, setup.shape));
    if (!shape)
      return false;
    if (!PyTuple_Check(shape.p)) {
      PyErr_SetString(PyExc_TypeError, "a tensor's shape is no tuple");
      return false;
    }
    Py_ssize_t dims = PyTuple_GET_SIZE(shape.p);
    text += '(';
    for (Py_ssize_t i = 0; i < dims; ++i) {
      long long d = PyLong_AsLongLong(PyTuple_GET_ITEM(shape.p, i));
      if (d == -1 && PyErr_Occurred())
        return false;
      if (i)
        text += ", ";
      text += std::to_string(d);
    }
    text += dims == 1 ? ",)" : ")";
    return true;
  }

  static bool sizeAndAddress(PyObject *t, unsigned long long &size,
                             unsigned long long &address) {
    PyRef numel(PyObject_CallMethodNoArgs(t, setup.numel));
    PyRef element(numel ? PyObject_CallMethodNoArgs(t, setup.elementSize)
                      : nullptr);
    PyRef ptr(element ? PyObject_CallMethodNoArgs(t, setup.dataPtr) : nullptr);
    if (!ptr)
      return false;
    size = PyLong_AsUnsignedLongLong(numel.p) *
           PyLong_AsUnsignedLongLong(element.p);
    address = PyLong_AsUnsignedLongLong(ptr.p);
    return !PyErr_Occurred();
  }
};

PyObject *intern(const char *name) {
  PyObject *s = PyUnicode_InternFromString(name);
  if (!s)
    throw py::error_already_set();
  return s;
}

} // namespace

void detc::runtime::registerStateDigest(py::module &m) {
  m.def(
      "digest_setup",
      [](py::object tensorType, py::object parameterType, py::object strided,
         py::dict dtypeNames, py::object dtypeName, py::object walkOther,
         py::object keyDigest, size_t windows, size_t window) {
        // Kept for the process's life, as the module that gives them is.
        setup.tensorType = tensorType.release().ptr();
        setup.parameterType = parameterType.release().ptr();
        setup.strided = strided.release().ptr();
        setup.dtypeNames = dtypeNames.release().ptr();
        setup.dtypeName = dtypeName.release().ptr();
        setup.walkOther = walkOther.release().ptr();
        setup.keyDigest = keyDigest.release().ptr();
        setup.windows = windows;
        setup.window = window;
        setup.isCpu = intern("is_cpu");
        setup.layout = intern("layout");
        setup.isContiguous = intern("is_contiguous");
        setup.dtype = intern("dtype");
        setup.shape = intern("shape");
        setup.numel = intern("numel");
        setup.elementSize = intern("element_size");
        setup.dataPtr = intern("data_ptr");
        setup.items = intern("items");
      },
      py::arg("tensor_type"), py::arg("parameter_type"), py::arg("strided"),
      py::arg("dtype_names"), py::arg("dtype_name"), py::arg("walk_other"),
      py::arg("key_digest"), py::arg("windows"), py::arg("window"),
      "What digest_walk needs from fingerprint.py (once per process).");
  m.def(
      "digest_walk",
      [](py::handle value, py::list parts, long depth, py::set seen,
         bool full) {
        if (!setup.walkOther)
          throw py::value_error("digest_walk before digest_setup");
        Walk walk(parts.ptr(), seen.ptr(), full);
        if (!walk.walk(value.ptr(), depth))
          throw py::error_already_set();
      },
      py::arg("value"), py::arg("parts"), py::arg("depth"), py::arg("seen"),
      py::arg("full"),
      "Appends fingerprint.py's digest texts of `value` to `parts`.");
}

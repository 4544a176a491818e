//===- CoreModule.cpp - detc_runtime._core: the C++ core for Python -------===//
//
// The per-example RNG runtime as a Python extension. Every fill writes into
// a caller-owned buffer (a numpy array, or a CPU torch tensor's `.numpy()`
// view, which shares its storage): no copies, no allocation per call beyond
// a scratch buffer for transforms that take more than one 32-bit value per
// output. The GIL is released while filling.
//
// Row fills are the batch primitive: row r of `out` (shape (B, ...)) comes
// from stream (seed, site, epoch, keys[r]) starting at value offsets[r], and
// offsets[r] is advanced past what the row consumed. So what an example
// gets depends on its key and on how many values its stream already gave,
// never on the row it sits in or on the batch size.
//
//===----------------------------------------------------------------------===//

#include "detc/runtime/BackgroundFileHash.h"
#include "detc/runtime/Base64.h"
#include "detc/runtime/Distributions.h"
#include "detc/runtime/FileHash.h"
#include "detc/runtime/OutputTarget.h"
#include "detc/runtime/Philox.h"
#include "detc/runtime/TensorMemory.h"
#include "FingerprintWalks.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace detc::runtime;

namespace {

[[noreturn]] void fail(const std::string &message) {
  throw py::value_error(message);
}

/// (base64 text, XXH3-64) of `size` bytes: a generator state saved in a
/// fingerprint and its digest, in one pass.
py::tuple stateEncode(const void *data, size_t size) {
  // Written straight into an ASCII str: no UTF-8 decoding of a copy.
  size_t letters = base64Size(size);
  py::object text = py::reinterpret_steal<py::object>(
      PyUnicode_New(py::ssize_t(letters), 127));
  if (!text)
    throw py::error_already_set();
  auto *chars = static_cast<char *>(PyUnicode_DATA(text.ptr()));
  base64Encode(data, size, chars);
  return py::make_tuple(text, memoryHash(data, size));
}

enum class Kind { Uniform, Normal, Bernoulli, Integers };

Kind parseKind(const std::string &kind) {
  if (kind == "uniform")
    return Kind::Uniform;
  if (kind == "normal")
    return Kind::Normal;
  if (kind == "bernoulli")
    return Kind::Bernoulli;
  if (kind == "integers")
    return Kind::Integers;
  fail("unknown distribution '" + kind + "'");
}

/// Values one output of `kind` takes from the stream for a row of n
/// outputs, when that is fixed (Integers: rejection makes it vary).
uint64_t fixedValuesFor(Kind kind, bool isDouble, uint64_t n) {
  switch (kind) {
  case Kind::Uniform:
    return isDouble ? 2 * n : n;
  case Kind::Normal:
    return 4 * ((n + 1) / 2);
  case Kind::Bernoulli:
    return n;
  case Kind::Integers:
    return 0;
  }
  return 0;
}

/// Outputs transformed per step (a fixed scratch of two values each).
constexpr uint64_t kChunk = 2048;

struct RowSpec {
  Kind kind;
  double a, b;
};

/// Fills one row of n outputs of type T from `s` (already at the row's
/// offset) using `scratch` for the raw values; returns values consumed.
template <typename T>
uint64_t fillRow(const RowSpec &spec, Stream &s, T *out, uint64_t n,
                 uint32_t *scratch) {
  constexpr bool isDouble = sizeof(T) == 8 && !std::is_integral_v<T>;
  uint64_t start = s.position();
  uint64_t need = fixedValuesFor(spec.kind, isDouble, n);
  if (!s.has(need ? need : n))
    fail("a per-example stream is exhausted (more than 2^34 values)");
  switch (spec.kind) {
  case Kind::Uniform: {
    // Chunks through a fixed scratch buffer: no allocation proportional to
    // the row, and the raw values stay in cache for the transform.
    double span = spec.b - spec.a;
    uint64_t per = isDouble ? 2 : 1, pos = start;
    for (uint64_t i = 0; i < n; i += kChunk) {
      uint64_t m = std::min<uint64_t>(kChunk, n - i);
      s.fill(pos, scratch, m * per);
      pos += m * per;
      for (uint64_t j = 0; j < m; ++j) {
        double u = isDouble ? uniformDouble(scratch[2 * j], scratch[2 * j + 1])
                            : double(uniformFloat(scratch[j]));
        out[i + j] = T(spec.a + span * u);
      }
    }
    s.seek(start + need);
    return need;
  }
  case Kind::Normal:
    // Pairs in order, as normals() takes them; scaled in double so a
    // float output is rounded once.
    if constexpr (std::is_floating_point_v<T>) {
      double mean = spec.a, std = spec.b;
      transformedNormals(s, out, n,
                         [=](double z) { return T(mean + std * z); });
    } else {
      fail("normal: the output must be floating point");
    }
    return s.position() - start;
  case Kind::Bernoulli: {
    uint32_t threshold = bernoulliThreshold(spec.a);
    T success = T(spec.b);
    for (uint64_t i = 0; i < n; i += kChunk) {
      uint64_t m = std::min<uint64_t>(kChunk, n - i);
      s.fill(start + i, scratch, m);
      for (uint64_t j = 0; j < m; ++j)
        out[i + j] = bernoulli(scratch[j], threshold) ? success : T(0);
    }
    s.seek(start + need);
    return need;
  }
  case Kind::Integers: {
    int64_t low = int64_t(spec.a), high = int64_t(spec.b);
    uint64_t range = uint64_t(high - low);
    for (uint64_t i = 0; i < n; ++i)
      out[i] = T(low + int64_t(boundedInt(s, uint32_t(range))));
    return s.position() - start;
  }
  }
  return 0;
}

template <typename T>
void fillRowsTyped(const RowSpec &spec, T *data, uint64_t rows, uint64_t perRow,
                   uint64_t seed, uint32_t site, uint32_t epoch,
                   const int64_t *keys, uint64_t *offsets) {
  // Not zero-filled: a call drawing a few values must not pay for 16 KB.
  std::unique_ptr<uint32_t[]> scratch(new uint32_t[2 * kChunk]);
  for (uint64_t r = 0; r < rows; ++r) {
    Stream s({seed, site, epoch, uint32_t(keys[r])}, offsets[r]);
    offsets[r] += fillRow(spec, s, data + r * perRow, perRow, scratch.get());
  }
}

void fillRows(const std::string &kindName, py::array out, uint64_t seed,
              uint32_t site, uint32_t epoch, py::array_t<int64_t> keys,
              py::array_t<uint64_t> offsets, double a, double b) {
  RowSpec spec{parseKind(kindName), a, b};
  if (!(out.flags() & py::array::c_style))
    fail("the output buffer must be C-contiguous");
  if (!out.writeable())
    fail("the output buffer is read-only");
  if (keys.ndim() != 1 || offsets.ndim() != 1 ||
      keys.shape(0) != offsets.shape(0))
    fail("keys and offsets must be 1-D and of the same length");
  if (!(offsets.flags() & py::array::c_style) || !offsets.writeable())
    fail("offsets must be a writeable C-contiguous uint64 array");
  uint64_t rows = uint64_t(keys.shape(0));
  uint64_t total = uint64_t(out.size());
  if (out.ndim() == 0 || uint64_t(out.shape(0)) != rows)
    fail("the output's first dimension (" +
         std::to_string(out.ndim() ? out.shape(0) : 0) +
         ") must equal the number of example keys (" + std::to_string(rows) +
         ")");
  for (uint64_t r = 0; r < rows; ++r)
    if (keys.at(r) < 0 || keys.at(r) > int64_t(UINT32_MAX))
      fail("example key " + std::to_string(keys.at(r)) +
           " is outside [0, 2^32)");
  if (spec.kind == Kind::Integers &&
      !(spec.b > spec.a && spec.b - spec.a < 4294967296.0))
    fail("integers: need low < high and high - low < 2^32");
  uint64_t perRow = rows ? total / rows : 0;
  const int64_t *k = keys.data();
  uint64_t *o = offsets.mutable_data();
  void *data = out.mutable_data();
  py::dtype dt = out.dtype();
  auto run = [&](auto *typed) {
    py::gil_scoped_release release;
    fillRowsTyped(spec, typed, rows, perRow, seed, site, epoch, k, o);
  };
  char code = dt.kind();
  size_t size = dt.itemsize();
  if (code == 'f' && size == 4)
    run(static_cast<float *>(data));
  else if (code == 'f' && size == 8)
    run(static_cast<double *>(data));
  else if (code == 'i' && size == 8 && spec.kind == Kind::Integers)
    run(static_cast<int64_t *>(data));
  else if (code == 'i' && size == 4 && spec.kind == Kind::Integers)
    run(static_cast<int32_t *>(data));
  else if ((code == 'u' || code == 'b') && size == 1 &&
           spec.kind == Kind::Bernoulli)
    run(static_cast<uint8_t *>(data));
  else
    fail("unsupported output dtype for '" + kindName + "'");
}

py::array_t<uint32_t> streamValues(uint64_t seed, uint32_t site, uint32_t epoch,
                                   uint32_t example, uint64_t offset,
                                   uint64_t count) {
  Stream s({seed, site, epoch, example});
  if (offset > Stream::kCapacity || !Stream({}, offset).has(count))
    fail("values past the end of the stream (2^34)");
  py::array_t<uint32_t> out(count);
  s.fill(offset, out.mutable_data(), count);
  return out;
}

/// The same values as a tuple of Python ints: the example scope reseeds a
/// library generator from a few of them per example, and a tuple is
/// several times cheaper to make than an array and its tolist().
py::tuple streamWords(uint64_t seed, uint32_t site, uint32_t epoch,
                      uint32_t example, uint64_t offset, uint64_t count) {
  if (count > 64)
    fail("stream_words returns at most 64 values");
  if (offset > Stream::kCapacity || !Stream({}, offset).has(count))
    fail("values past the end of the stream (2^34)");
  uint32_t values[64];
  Stream({seed, site, epoch, example}).fill(offset, values, count);
  py::tuple out(count);
  for (uint64_t i = 0; i < count; ++i)
    out[i] = py::int_(values[i]);
  return out;
}

py::array_t<int64_t> keyedPermutation(uint64_t n, uint64_t seed, uint32_t site,
                                      uint32_t epoch) {
  if (n > UINT32_MAX)
    fail("permutations hold at most 2^32 - 1 elements");
  std::vector<uint32_t> perm(n);
  {
    py::gil_scoped_release release;
    // Example word all ones: a permutation's stream is never an example's.
    Stream s({seed, site, epoch, UINT32_MAX});
    permutation(s, perm.data(), uint32_t(n));
  }
  py::array_t<int64_t> out(n);
  int64_t *o = out.mutable_data();
  for (uint64_t i = 0; i < n; ++i)
    o[i] = perm[i];
  return out;
}

double keyedBeta(uint64_t seed, uint32_t site, uint32_t epoch, uint32_t example,
                 py::array_t<uint64_t> offset, double a, double b) {
  if (offset.size() != 1 || !offset.writeable())
    fail("offset must be a writeable one-element uint64 array");
  if (!(a > 0) || !(b > 0))
    fail("beta: both parameters must be positive");
  Stream s({seed, site, epoch, example}, offset.at(0));
  double v = beta(s, a, b);
  offset.mutable_at(0) = s.position();
  return v;
}

} // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "detc's per-example RNG runtime: Philox4x32-10 keyed streams "
            "and exact transforms (see docs/runtime.md)";
  m.def(
      "philox4x32_10",
      [](std::array<uint32_t, 4> counter, std::array<uint32_t, 2> key) {
        return philox4x32_10(counter, key);
      },
      py::arg("counter"), py::arg("key"), "One Philox4x32-10 block.");
  m.def("stream_values", &streamValues, py::arg("seed"), py::arg("site"),
        py::arg("epoch"), py::arg("example"), py::arg("offset"),
        py::arg("count"),
        "Values offset .. offset+count-1 of stream (seed, site, epoch, "
        "example) as uint32.");
  m.def("stream_words", &streamWords, py::arg("seed"), py::arg("site"),
        py::arg("epoch"), py::arg("example"), py::arg("offset"),
        py::arg("count"), "stream_values as a tuple of ints (count <= 64).");
  m.def(
      "stream_u64",
      [](uint64_t seed, uint32_t site, uint32_t epoch, uint32_t example) {
        uint32_t w[2];
        Stream({seed, site, epoch, example}).fill(0, w, 2);
        return uint64_t(w[0]) | uint64_t(w[1]) << 32;
      },
      "Values 0 and 1 of stream (seed, site, epoch, example) as one 64-bit "
      "int, low word first: the example scope's torch seed in one call.");
  m.def("fill_rows", &fillRows, py::arg("kind"), py::arg("out"),
        py::arg("seed"), py::arg("site"), py::arg("epoch"), py::arg("keys"),
        py::arg("offsets"), py::arg("a") = 0.0, py::arg("b") = 1.0,
        "Fill row r of `out` from stream (seed, site, epoch, keys[r]) at "
        "offsets[r], advancing offsets. kind: uniform (a=low, b=high), "
        "normal (a=mean, b=std), bernoulli (a=p, b=value on success, else "
        "0), integers (a=low, b=high, exclusive).");
  m.def("permutation", &keyedPermutation, py::arg("n"), py::arg("seed"),
        py::arg("site"), py::arg("epoch"),
        "The permutation of range(n) keyed by (seed, site, epoch).");
  m.def("beta", &keyedBeta, py::arg("seed"), py::arg("site"), py::arg("epoch"),
        py::arg("example"), py::arg("offset"), py::arg("a"), py::arg("b"),
        "One Beta(a, b) draw; advances offset[0].");
  m.def(
      "output_target",
      [](const std::string &path,
         const std::vector<std::pair<std::string, std::string>> &protect) {
        OutputTarget t = classifyOutput(path, protect);
        const char *action = "refuse";
        switch (t.action) {
        case OutputAction::Create:
          action = "create";
          break;
        case OutputAction::Replace:
          action = "replace";
          break;
        case OutputAction::WriteThrough:
          action = "through";
          break;
        case OutputAction::Refuse:
          break;
        }
        return py::make_tuple(action, t.path, t.mode, t.viaDescriptor);
      },
      py::arg("path"), py::arg("protect"),
      "What writing to `path` may do, by the rule detc's own outputs follow "
      "(OutputTarget.h): (action, path or refusal, mode, via a descriptor); "
      "action is create, replace, through or refuse. `protect`: (path, "
      "what it is) of the files never to be written.");
  m.def(
      "file_xxh3",
      [](const std::string &path, bool mapped) {
        FileHash h;
        {
          py::gil_scoped_release release;
          h = xxh3FileHash(path, mapped);
        }
        if (h.error) {
          errno = h.error;
          PyErr_SetFromErrnoWithFilename(PyExc_OSError, path.c_str());
          throw py::error_already_set();
        }
        return py::make_tuple(h.size, h.hex);
      },
      py::arg("path"), py::arg("mapped") = false,
      "(size, XXH3-128 hex) of a file's bytes (checkpoint ties). mapped: "
      "read it through a mapping (only a file no other process may "
      "truncate meanwhile).");
  // A commit hashes its checkpoint while the training thread builds the
  // sidecar's body (BackgroundFileHash.h).
  py::class_<FileHashJob, std::shared_ptr<FileHashJob>>(m, "PendingFileHash")
      .def(
          "result",
          [](FileHashJob &job, const std::string &path) {
            FileHash h;
            {
              py::gil_scoped_release release;
              h = job.wait();
            }
            if (h.error) {
              errno = h.error;
              PyErr_SetFromErrnoWithFilename(PyExc_OSError, path.c_str());
              throw py::error_already_set();
            }
            return py::make_tuple(h.size, h.hex);
          },
          py::arg("path"),
          "(size, XXH3-128 hex), as file_xxh3 gives; waits for the worker. "
          "`path`: the name an OSError gives.");
  m.def(
      "file_xxh3_start",
      [](const std::string &path, bool mapped) {
        return FileHashJob::start(path, mapped);
      },
      py::arg("path"), py::arg("mapped") = false,
      "Starts hashing a file as file_xxh3 does, on a worker thread; the "
      "PendingFileHash's result() gives what file_xxh3 would.");
  // The caller (trace.py) passes a contiguous CPU tensor it holds: its
  // data_ptr() and size. Small tensors are read with the GIL held
  // (releasing it costs more than reading them).
  m.def(
      "memory_all_finite",
      [](uintptr_t address, size_t count, int kind) {
        if (kind < 0 || kind > int(FloatKind::BFloat16))
          fail("memory_all_finite: unknown element kind");
        const void *data = reinterpret_cast<const void *>(address);
        if (count < (1u << 16))
          return allFinite(data, count, FloatKind(kind));
        py::gil_scoped_release release;
        return allFinite(data, count, FloatKind(kind));
      },
      py::arg("address"), py::arg("count"), py::arg("kind"),
      "Whether the `count` floating elements at `address` are all finite; "
      "kind: 0 float32, 1 float64, 2 float16, 3 bfloat16.");
  m.def(
      "memory_range",
      [](uintptr_t address, size_t count, int kind) -> py::object {
        if (kind < 0 || kind > int(FloatKind::BFloat16))
          fail("memory_range: unknown element kind");
        const void *data = reinterpret_cast<const void *>(address);
        ValueRange r;
        if (count < (1u << 16)) {
          r = valueRange(data, count, FloatKind(kind));
        } else {
          py::gil_scoped_release release;
          r = valueRange(data, count, FloatKind(kind));
        }
        if (r.empty)
          return py::make_tuple(r.finite, py::none(), py::none());
        return py::make_tuple(r.finite, r.lo, r.hi);
      },
      py::arg("address"), py::arg("count"), py::arg("kind"),
      "(finite, least, greatest) of the `count` floating elements at "
      "`address`; least and greatest are None when an element is not "
      "finite or there are none. kind: as memory_all_finite.");
  m.def(
      "memory_hash",
      [](uintptr_t address, size_t size) {
        const void *data = reinterpret_cast<const void *>(address);
        if (size < (1u << 18))
          return memoryHash(data, size);
        py::gil_scoped_release release;
        return memoryHash(data, size);
      },
      py::arg("address"), py::arg("size"),
      "XXH3-64 of the `size` bytes at `address`.");
  m.def(
      "buffer_hash",
      [](py::buffer data) {
        py::buffer_info info = data.request();
        if (info.ndim > 1)
          fail("buffer_hash: a buffer of one dimension only");
        return memoryHash(info.ptr, size_t(info.size) * size_t(info.itemsize));
      },
      py::arg("data"),
      "XXH3-64 of the bytes of a one-dimensional buffer (bytes, a numpy "
      "vector).");
  // A fingerprint saves each global generator's state (a few KB) as base64
  // and compares digests of it: one pass over the bytes for both.
  m.def(
      "state_encode",
      [](py::buffer data) {
        py::buffer_info info = data.request();
        py::ssize_t stride = info.itemsize;
        for (size_t d = info.shape.size(); d-- > 0; stride *= info.shape[d])
          if (info.shape[d] > 1 && info.strides[d] != stride)
            fail("state_encode: the buffer is not contiguous");
        return stateEncode(info.ptr,
                           size_t(info.size) * size_t(info.itemsize));
      },
      py::arg("data"),
      "(base64 text, XXH3-64) of a contiguous buffer's bytes (bytes, a "
      "numpy array, a CPU tensor's .numpy()).");
  // torch's generator states are uint8 CPU tensors: read at their
  // data_ptr(), which skips the numpy view a third of the cost went to.
  m.def(
      "state_encode_at",
      [](uintptr_t address, size_t size) {
        return stateEncode(reinterpret_cast<const void *>(address), size);
      },
      py::arg("address"), py::arg("size"),
      "state_encode of the `size` bytes at `address` (a contiguous CPU "
      "tensor the caller holds).");
  m.def(
      "memory_sample_hash",
      [](uintptr_t address, size_t size, size_t windows, size_t window) {
        const void *data = reinterpret_cast<const void *>(address);
        return memorySampleHash(data, size, windows, window);
      },
      py::arg("address"), py::arg("size"), py::arg("windows"),
      py::arg("window"),
      "XXH3-64 of `windows` evenly spaced windows of `window` bytes of the "
      "`size` bytes at `address` (all of them when they fit), seeded with "
      "the size.");
  m.def(
      "memory_hash_seeded",
      [](uintptr_t address, size_t size, uint64_t seed) {
        const void *data = reinterpret_cast<const void *>(address);
        return memoryHashWithSeed(data, size, seed);
      },
      py::arg("address"), py::arg("size"), py::arg("seed"),
      "XXH3-64 of the `size` bytes at `address` seeded with `seed`: "
      "memory_sample_hash's value of a tensor of `seed` bytes, from its "
      "windows gathered into one buffer (fingerprint.py, tensors on a "
      "GPU).");
  registerStateDigest(m);
  registerFrameGenerators(m);
}

//===- TraceStream.h - Reading traces one record at a time ------*- C++ -*-===//
//
// Traces are JSON lines (docs/traincheck.md). Each line is parsed by
// simdjson into a DOM that lives until the next line (the parser reuses
// its buffers), so reading a trace allocates nothing per record; the
// walker reads the few fields it needs through Record.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_INVARIANTS_TRACESTREAM_H
#define DETC_LIB_INVARIANTS_TRACESTREAM_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <simdjson.h>

#include <optional>
#include <string>

namespace detc::invariants {

/// A JSON object of a trace record (or nested in one), valid until the
/// next record is read.
class Record {
public:
  explicit Record(simdjson::dom::object o) : o(o) {}
  /// A nested object (an argument's summary, a parameter of `state`).
  static std::optional<Record> of(simdjson::dom::element e);

  bool has(llvm::StringRef key) const;
  std::optional<llvm::StringRef> str(llvm::StringRef key) const;
  std::optional<int64_t> integer(llvm::StringRef key) const;
  std::optional<bool> boolean(llvm::StringRef key) const;
  /// A number, integer or not, as a double.
  std::optional<double> number(llvm::StringRef key) const;
  std::optional<simdjson::dom::array> array(llvm::StringRef key) const;
  std::optional<Record> object(llvm::StringRef key) const;
  /// A scalar attribute as text (`true`, `3`, `"x"` -> `x`, `null`); ""
  /// when absent or not a scalar.
  std::string scalar(llvm::StringRef key) const;
  /// The value as compact JSON text; "" when absent.
  std::string text(llvm::StringRef key) const;

private:
  std::optional<simdjson::dom::element> get(llvm::StringRef key) const;
  simdjson::dom::object o;
};

/// The longest trace record (one line) read: records are a few hundred
/// bytes; a longer line is an endless or wrong file.
constexpr size_t kMaxRecordBytes = size_t(64) << 20;

/// The first line of `path` (at most 1 MiB of it; "" when unreadable):
/// a trace's `meta` record, read without reading on through an endless
/// file.
std::string firstLine(const std::string &path);

/// Calls `fn(record, line)` for each JSON-lines record of `path`, reading
/// one line at a time. A line that is not a JSON object, or a trace of
/// another format version, is an error naming `path:line`.
llvm::Error
forEachRecord(const std::string &path,
              llvm::function_ref<void(const Record &, unsigned)> fn);

} // namespace detc::invariants

#endif // DETC_LIB_INVARIANTS_TRACESTREAM_H

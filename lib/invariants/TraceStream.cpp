//===- TraceStream.cpp - Reading traces one record at a time --------------===//

#include "TraceStream.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace detc::invariants {

static std::string_view view(StringRef s) { return {s.data(), s.size()}; }

std::optional<Record> Record::of(simdjson::dom::element e) {
  simdjson::dom::object o;
  if (e.get_object().get(o))
    return std::nullopt;
  return Record(o);
}

std::optional<simdjson::dom::element> Record::get(StringRef key) const {
  simdjson::dom::element e;
  if (o.at_key(view(key)).get(e))
    return std::nullopt;
  return e;
}

bool Record::has(StringRef key) const { return get(key).has_value(); }

std::optional<StringRef> Record::str(StringRef key) const {
  std::string_view s;
  if (auto e = get(key); e && !e->get_string().get(s))
    return StringRef(s.data(), s.size());
  return std::nullopt;
}

std::optional<int64_t> Record::integer(StringRef key) const {
  int64_t i;
  if (auto e = get(key); e && !e->get_int64().get(i))
    return i;
  return std::nullopt;
}

std::optional<bool> Record::boolean(StringRef key) const {
  bool b;
  if (auto e = get(key); e && !e->get_bool().get(b))
    return b;
  return std::nullopt;
}

std::optional<double> Record::number(StringRef key) const {
  double d;
  if (auto e = get(key); e && !e->get_double().get(d))
    return d;
  return std::nullopt;
}

std::optional<simdjson::dom::array> Record::array(StringRef key) const {
  simdjson::dom::array a;
  if (auto e = get(key); e && !e->get_array().get(a))
    return a;
  return std::nullopt;
}

std::optional<Record> Record::object(StringRef key) const {
  if (auto e = get(key))
    return of(*e);
  return std::nullopt;
}

std::string Record::scalar(StringRef key) const {
  std::optional<simdjson::dom::element> e = get(key);
  if (!e)
    return "";
  bool b;
  int64_t i;
  std::string_view s;
  if (!e->get_bool().get(b))
    return b ? "true" : "false";
  if (!e->get_int64().get(i))
    return std::to_string(i);
  if (!e->get_string().get(s))
    return std::string(s);
  if (e->is_null())
    return "null";
  return "";
}

std::string Record::text(StringRef key) const {
  std::optional<simdjson::dom::element> e = get(key);
  return e ? simdjson::to_string(*e) : "";
}

std::string firstLine(const std::string &path) {
  std::string line;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return line;
  char buffer[1 << 16];
  while (line.size() < (size_t(1) << 20)) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    StringRef chunk(buffer, size_t(n));
    size_t nl = chunk.find('\n');
    line.append(chunk.data(), std::min(chunk.size(), nl));
    if (nl != StringRef::npos)
      break;
  }
  ::close(fd);
  return line;
}

Error forEachRecord(const std::string &path,
                    function_ref<void(const Record &, unsigned)> fn) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return createStringError(inconvertibleErrorCode(),
                             "%s: cannot open the trace: %s", path.c_str(),
                             std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    return createStringError(inconvertibleErrorCode(),
                             "%s: it is a directory, not a trace (name the "
                             "trace files: DIR/*.jsonl)",
                             path.c_str());
  }
  simdjson::dom::parser parser;
  std::string line;
  unsigned number = 0;
  Error error = Error::success();
  auto flush = [&]() -> bool {
    ++number;
    StringRef text = StringRef(line).trim();
    if (text.empty())
      return true;
    // The line's own buffer carries simdjson's padding (reserved below),
    // so the parser reads it in place.
    simdjson::dom::element doc;
    if (simdjson::error_code code =
            parser.parse(text.data(), text.size(), false).get(doc)) {
      error = createStringError(inconvertibleErrorCode(),
                                "%s:%u: not a trace record: %s", path.c_str(),
                                number, simdjson::error_message(code));
      return false;
    }
    std::optional<Record> record = Record::of(doc);
    if (!record) {
      error = createStringError(inconvertibleErrorCode(),
                                "%s:%u: not a trace record (a JSON object "
                                "per line)",
                                path.c_str(), number);
      return false;
    }
    if (std::optional<int64_t> version = record->integer("v");
        version && *version != 1) {
      error = createStringError(
          inconvertibleErrorCode(),
          "%s:%u: trace format version %lld; this detc reads version 1",
          path.c_str(), number, static_cast<long long>(*version));
      return false;
    }
    fn(*record, number);
    return true;
  };
  // Read by byte counts (a NUL byte ends nothing: fgets-based reading of
  // /dev/zero looped forever), and no line longer than kMaxRecordBytes (an
  // endless file without newlines is refused, not read into memory).
  char buffer[1 << 16];
  bool ok = true;
  line.reserve(sizeof buffer + simdjson::SIMDJSON_PADDING);
  while (ok) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      error = createStringError(inconvertibleErrorCode(),
                                "%s: cannot read the trace: %s", path.c_str(),
                                std::strerror(errno));
      ok = false;
      break;
    }
    if (n == 0)
      break;
    StringRef chunk(buffer, size_t(n));
    while (ok && !chunk.empty()) {
      size_t nl = chunk.find('\n');
      StringRef piece = chunk.substr(0, nl);
      if (line.size() + piece.size() > kMaxRecordBytes) {
        error = createStringError(
            inconvertibleErrorCode(),
            "%s:%u: a line longer than %zu MiB: not a trace (an endless or "
            "wrong file?)",
            path.c_str(), number + 1, kMaxRecordBytes >> 20);
        ok = false;
        break;
      }
      line.append(piece.data(), piece.size());
      if (nl == StringRef::npos)
        break;
      chunk = chunk.substr(nl + 1);
      line.reserve(line.size() + simdjson::SIMDJSON_PADDING);
      ok = flush();
      line.clear();
    }
  }
  if (ok && !line.empty()) {
    line.reserve(line.size() + simdjson::SIMDJSON_PADDING);
    ok = flush();
  }
  ::close(fd);
  return error;
}

} // namespace detc::invariants

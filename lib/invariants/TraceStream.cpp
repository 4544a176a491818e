//===- TraceStream.cpp - Reading traces one record at a time --------------===//

#include "TraceStream.h"

#include <cstdio>

using namespace llvm;

namespace detc::invariants {

Error forEachRecord(const std::string &path,
                    function_ref<void(const json::Object &, unsigned)> fn) {
  std::FILE *f = std::fopen(path.c_str(), "r");
  if (!f)
    return createStringError(inconvertibleErrorCode(),
                             "%s: cannot open the trace", path.c_str());
  std::string line;
  unsigned number = 0;
  Error error = Error::success();
  auto flush = [&]() -> bool {
    ++number;
    StringRef text = StringRef(line).trim();
    if (text.empty())
      return true;
    Expected<json::Value> v = json::parse(text);
    if (!v) {
      error = createStringError(inconvertibleErrorCode(),
                                "%s:%u: not a trace record: %s", path.c_str(),
                                number, toString(v.takeError()).c_str());
      return false;
    }
    const json::Object *o = v->getAsObject();
    if (!o) {
      error = createStringError(inconvertibleErrorCode(),
                                "%s:%u: not a trace record (a JSON object "
                                "per line)",
                                path.c_str(), number);
      return false;
    }
    if (std::optional<int64_t> version = o->getInteger("v");
        version && *version != 1) {
      error = createStringError(
          inconvertibleErrorCode(),
          "%s:%u: trace format version %lld; this detc reads version 1",
          path.c_str(), number, static_cast<long long>(*version));
      return false;
    }
    fn(*o, number);
    return true;
  };
  char buffer[1 << 16];
  bool ok = true;
  while (ok && std::fgets(buffer, sizeof buffer, f)) {
    line += buffer;
    if (!line.empty() && line.back() == '\n') {
      ok = flush();
      line.clear();
    }
  }
  if (ok && !line.empty())
    ok = flush();
  std::fclose(f);
  return error;
}

std::string scalar(const json::Object &o, StringRef key) {
  const json::Value *v = o.get(key);
  if (!v)
    return "";
  if (std::optional<bool> b = v->getAsBoolean())
    return *b ? "true" : "false";
  if (std::optional<int64_t> i = v->getAsInteger())
    return std::to_string(*i);
  if (std::optional<StringRef> s = v->getAsString())
    return s->str();
  if (v->getAsNull())
    return "null";
  return "";
}

} // namespace detc::invariants

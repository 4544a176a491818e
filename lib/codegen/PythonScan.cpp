//===- PythonScan.cpp - Token-level facts about Python source -------------===//

#include "detc/codegen/PythonScan.h"
#include "detc/frontend/ByteScanner.h"

#include <vector>

#include <cctype>

#include <cstdio>

using namespace llvm;

namespace detc::codegen {

using Scanner = frontend::ByteScanner;

std::optional<uint32_t> calleeEnd(StringRef src, uint32_t begin, uint32_t end) {
  if (end == 0 || end > src.size() || begin >= end || src[end - 1] != ')')
    return std::nullopt;
  std::vector<uint32_t> open;
  std::optional<uint32_t> paren;
  Scanner(src, begin).run([&](uint32_t at, char c) {
    if (c == '(' || c == '[' || c == '{') {
      open.push_back(at);
    } else if (c == ')' || c == ']' || c == '}') {
      if (open.empty())
        return false;
      uint32_t o = open.back();
      open.pop_back();
      if (at == end - 1) {
        if (open.empty() && src[o] == '(')
          paren = o;
        return false;
      }
    }
    return at < end;
  });
  if (!paren || *paren == begin)
    return std::nullopt;
  // The callee must be a primary (`a.b`, `f(x).g`, `xs[0]`): a range that
  // starts at a statement (`for x in loader: ... opt.step()`) ends in a
  // call too, and wrapping "from `for` to `opt.step`" is not Python.
  bool ok = true, afterName = false, gap = false;
  int depth = 0;
  Scanner(src, begin).run([&](uint32_t at, char c) {
    if (at >= *paren)
      return false;
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (depth == 0) {
      bool name = isalnum(static_cast<unsigned char>(c)) || c == '_' ||
                  static_cast<unsigned char>(c) >= 0x80;
      if (c == ' ' || c == '\t' || c == '\\' || c == '\n' || c == '\r') {
        gap = afterName;
        ok = ok && c != '\n' && c != '\r'; // a line break ends a statement
        return ok;
      }
      if (name && gap) // `for x`, `not f`, `await g`
        ok = false;
      else if (!name && c != '.')
        ok = false; // `x = f`, `a + g`, `lambda: h`
      afterName = name;
      gap = false;
      return ok;
    }
    afterName = false;
    gap = false;
    return true;
  });
  if (!ok)
    return std::nullopt;
  uint32_t e = *paren;
  while (e > begin &&
         (src[e - 1] == ' ' || src[e - 1] == '\t' || src[e - 1] == '\n' ||
          src[e - 1] == '\r' || src[e - 1] == '\\'))
    --e;
  return e;
}

uint32_t commentableLineEnd(StringRef src, uint32_t stmtBegin, uint32_t from) {
  uint32_t result = src.size();
  Scanner(src, stmtBegin).run([&](uint32_t at, char c) {
    if (at < from || (c != '\n' && c != '\r'))
      return true;
    uint32_t before = at;
    while (before > 0 && (src[before - 1] == ' ' || src[before - 1] == '\t'))
      --before;
    if (before > 0 && src[before - 1] == '\\')
      return true; // a continued line cannot end in a comment
    result = at;
    return false;
  });
  return result;
}

std::string pyString(StringRef s) {
  // Every byte has a spelling that stays on one line and means what the
  // path means to Python: printable ASCII as itself, the usual escapes,
  // valid UTF-8 sequences as \\u/\\U escapes, and a byte that is no UTF-8
  // as the lone surrogate \\udcXX, which os.fsencode turns back into that
  // byte (PEP 383) — so a file name with a newline or a byte \\xff opens
  // the same file from the emitted script.
  std::string out = "'";
  const auto *p = reinterpret_cast<const unsigned char *>(s.data());
  const auto *end = p + s.size();
  auto hex = [&](const char *format, unsigned value) {
    char buf[16];
    std::snprintf(buf, sizeof buf, format, value);
    out += buf;
  };
  while (p < end) {
    unsigned char c = *p;
    if (c == '\\' || c == '\'') {
      out += '\\';
      out += char(c);
      ++p;
      continue;
    }
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
      ++p;
      continue;
    }
    if (c == '\n' || c == '\r' || c == '\t') {
      out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\t";
      ++p;
      continue;
    }
    if (c < 0x80) {
      hex("\\x%02x", c);
      ++p;
      continue;
    }
    // A UTF-8 sequence: its length by the lead byte, continuation bytes
    // checked, overlong forms, surrogates and values past U+10FFFF refused.
    unsigned len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2
                                                                          : 0;
    if (c > 0xf4)
      len = 0;
    unsigned cp = len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
    bool ok = len && p + len <= end;
    for (unsigned i = 1; ok && i < len; ++i) {
      ok = (p[i] & 0xc0) == 0x80;
      cp = cp << 6 | (p[i] & 0x3f);
    }
    ok = ok && !(len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) &&
         !(len == 4 && (cp < 0x10000 || cp > 0x10ffff));
    if (!ok) {
      hex("\\udc%02x", c);
      ++p;
      continue;
    }
    hex(cp > 0xffff ? "\\U%08x" : "\\u%04x", cp);
    p += len;
  }
  return out + "'";
}

} // namespace detc::codegen

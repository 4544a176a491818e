//===- PythonScan.cpp - Token-level facts about Python source -------------===//

#include "detc/codegen/PythonScan.h"

#include <vector>

using namespace llvm;

namespace detc::codegen {
namespace {

/// Walks Python bytes from a position outside any string, skipping string
/// literals and comments; reports brackets and line breaks to a visitor.
class Scanner {
public:
  Scanner(StringRef src, uint32_t pos) : src(src), pos(pos) {}

  /// Calls `onByte(offset, byte)` for every byte outside strings and
  /// comments (line breaks included), until it returns false or the end.
  template <typename F> void run(F onByte) {
    while (pos < src.size()) {
      char c = src[pos];
      if (c == '#') {
        while (pos < src.size() && src[pos] != '\n' && src[pos] != '\r')
          ++pos;
        continue;
      }
      if (c == '\'' || c == '"') {
        skipString(c);
        continue;
      }
      if (!onByte(pos, c))
        return;
      ++pos;
    }
  }

private:
  void skipString(char quote) {
    bool triple =
        pos + 2 < src.size() && src[pos + 1] == quote && src[pos + 2] == quote;
    pos += triple ? 3 : 1;
    while (pos < src.size()) {
      char c = src[pos];
      if (c == '\\') { // escapes the next byte, raw strings included
        pos += 2;
        continue;
      }
      if (c == quote) {
        if (!triple) {
          ++pos;
          return;
        }
        if (pos + 2 < src.size() && src[pos + 1] == quote &&
            src[pos + 2] == quote) {
          pos += 3;
          return;
        }
      }
      if (!triple && (c == '\n' || c == '\r'))
        return; // unterminated: the parser would have rejected the file
      ++pos;
    }
  }

  StringRef src;
  uint32_t pos;
};

} // namespace

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

} // namespace detc::codegen

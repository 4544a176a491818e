//===- PythonScan.cpp - Token-level facts about Python source -------------===//

#include "detc/codegen/PythonScan.h"
#include "detc/frontend/ByteScanner.h"

#include <vector>

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
  std::string out = "'";
  for (char c : s) {
    if (c == '\\' || c == '\'')
      out += '\\';
    out += c;
  }
  return out + "'";
}

} // namespace detc::codegen

//===- ByteScanner.h - Python bytes outside strings and comments -*- C++ -*-===//
//
// Walks raw Python source from a position outside any string, skipping
// string literals (all prefixes, triple quotes, escapes) and comments. Code
// generation uses it to find brackets and line ends the IR's byte ranges do
// not give; the report uses it to find `# detc: ignore[...]` comments.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_FRONTEND_BYTESCANNER_H
#define DETC_FRONTEND_BYTESCANNER_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace detc::frontend {

class ByteScanner {
public:
  ByteScanner(llvm::StringRef src, uint32_t pos) : src(src), pos(pos) {}

  /// Calls `onByte(offset, byte)` for every byte outside strings and
  /// comments (line breaks included), until it returns false or the end;
  /// `onComment(offset, text)` for every comment (`#` to the line's end).
  template <typename OnByte, typename OnComment>
  void run(OnByte onByte, OnComment onComment) {
    while (pos < src.size()) {
      char c = src[pos];
      if (c == '#') {
        uint32_t begin = pos;
        while (pos < src.size() && src[pos] != '\n' && src[pos] != '\r')
          ++pos;
        onComment(begin, src.slice(begin, pos));
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

  template <typename OnByte> void run(OnByte onByte) {
    run(onByte, [](uint32_t, llvm::StringRef) {});
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

  llvm::StringRef src;
  uint32_t pos;
};

} // namespace detc::frontend

#endif // DETC_FRONTEND_BYTESCANNER_H

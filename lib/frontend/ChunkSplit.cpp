//===- ChunkSplit.cpp - Cut a file into independently parsed pieces -------===//

#include "ChunkSplit.h"

using namespace detc::frontend;

static bool isIdentChar(char32_t c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c >= 0x80;
}

/// Whether the line at `i` starts with keyword `kw`.
static bool startsWithKeyword(const std::u32string &s, size_t i,
                              const char *kw) {
  size_t k = 0;
  for (; kw[k]; ++k)
    if (i + k >= s.size() || s[i + k] != static_cast<char32_t>(kw[k]))
      return false;
  return i + k >= s.size() || !isIdentChar(s[i + k]);
}

static bool continuesStatement(const std::u32string &s, size_t i) {
  for (const char *kw : {"else", "elif", "except", "finally"})
    if (startsWithKeyword(s, i, kw))
      return true;
  return false;
}

std::vector<size_t> detc::frontend::chunkStarts(const std::u32string &s,
                                                size_t target) {
  std::vector<size_t> starts{0};
  const size_t n = s.size();
  size_t depth = 0;     // open brackets
  char32_t quote = 0;   // inside a string: its quote character
  bool triple = false;  // ... a triple-quoted one
  bool lineStart = true, continued = false;
  bool afterDecorator = false; // the last top-level line began with '@'
  size_t i = 0;
  while (i < n) {
    char32_t c = s[i];
    if (lineStart) {
      lineStart = false;
      bool topLevel = !quote && depth == 0 && !continued && c != ' ' &&
                      c != '\t' && c != '\f' && c != '#' && c != '\n' &&
                      c != '\r';
      continued = false;
      if (topLevel && !continuesStatement(s, i)) {
        if (!afterDecorator && i - starts.back() >= target)
          starts.push_back(i);
        afterDecorator = c == '@';
      }
    }
    if (quote) {
      if (c == '\\') { // escapes the next character, even a newline
        i += 2;
        continue;
      }
      if (c == quote &&
          (!triple || (i + 2 < n && s[i + 1] == quote && s[i + 2] == quote))) {
        i += triple ? 3 : 1;
        quote = 0;
        continue;
      }
      if ((c == '\n' || c == '\r') && !triple)
        return starts; // unterminated: the rest is one piece
      if (c == '\n' || (c == '\r' && (i + 1 >= n || s[i + 1] != '\n')))
        lineStart = true; // (inside a triple-quoted string: no statement)
      ++i;
      continue;
    }
    switch (c) {
    case '#':
      while (i < n && s[i] != '\n' && s[i] != '\r')
        ++i;
      continue;
    case '\'':
    case '"':
      triple = i + 2 < n && s[i + 1] == c && s[i + 2] == c;
      quote = c;
      i += triple ? 3 : 1;
      continue;
    case '(':
    case '[':
    case '{':
      ++depth;
      break;
    case ')':
    case ']':
    case '}':
      if (depth == 0)
        return starts; // unbalanced: the parser reports it
      --depth;
      break;
    case '\\':
      if (i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
        continued = true;
        i += (s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n') ? 3 : 2;
        lineStart = true;
        continue;
      }
      break;
    case '\r':
      if (i + 1 < n && s[i + 1] == '\n')
        break; // the '\n' ends the line
      lineStart = true;
      break;
    case '\n':
      lineStart = true;
      break;
    default:
      break;
    }
    ++i;
  }
  return starts;
}

//===- ChunkSplit.cpp - Cut a file into independently parsed pieces -------===//
//
// Two passes: a scan that finds the lines beginning a statement (following
// strings, brackets, comments and continuations as the lexer does), then a
// walk over each top-level statement's lines that replays the lexer's
// indentation stack to say which of them may start a piece, and at what
// depth.
//
//===----------------------------------------------------------------------===//

#include "ChunkSplit.h"
#include "StringScan.h"

#include <algorithm>
#include <limits>

using namespace detc::frontend;

namespace {
/// A line that begins a statement or a clause of one.
struct LogicalLine {
  size_t start = 0;       ///< Its first character (column 0).
  size_t indent = 0;      ///< Leading spaces.
  bool oddIndent = false; ///< A tab, form feed or backslash in its indent.
  bool clause = false;    ///< else / elif / except / finally.
  bool decorator = false;
  bool matchCase = false; ///< Begins with the word `match` or `case`.
  bool endsColon = false; ///< Its last significant character is ':'.
};
} // namespace

static bool isIdentChar(char32_t c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c >= 0x80;
}

/// Whether the text at `i` is keyword `kw` (not a prefix of a name).
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

/// The lines of `s` that begin statements. `complete` is false when the
/// scan stopped at something it cannot follow (an unterminated string, an
/// unbalanced bracket): the lines after it are unknown.
static std::vector<LogicalLine> scanLines(const std::u32string &s,
                                          bool &complete) {
  std::vector<LogicalLine> lines;
  const size_t n = s.size();
  size_t depth = 0;    // open brackets
  bool lineStart = true, continued = false;
  char32_t lastSig = 0; // the last character outside comments and blanks
  complete = true;
  size_t i = 0;
  while (i < n) {
    if (lineStart) {
      lineStart = false;
      if (depth == 0 && !continued) {
        LogicalLine line;
        line.start = i;
        size_t j = i;
        for (; j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f'); ++j) {
          if (s[j] == ' ')
            ++line.indent;
          else
            line.oddIndent = true;
        }
        if (j < n && s[j] != '#' && s[j] != '\n' && s[j] != '\r') {
          line.oddIndent |= s[j] == '\\';
          line.clause = continuesStatement(s, j);
          line.decorator = s[j] == '@';
          line.matchCase = startsWithKeyword(s, j, "match") ||
                           startsWithKeyword(s, j, "case");
          if (!lines.empty())
            lines.back().endsColon = lastSig == ':';
          lines.push_back(line);
        }
        i = j; // (the indentation is not significant below)
        continue;
      }
      continued = false;
    }
    char32_t c = s[i];
    switch (c) {
    case '#':
      while (i < n && s[i] != '\n' && s[i] != '\r')
        ++i;
      continue;
    case '\'':
    case '"': {
      // The whole literal at once: an f-string's fields may hold its own
      // quote (PEP 701), so its end is found by following them.
      strscan::Quote q{c, i + 2 < n && s[i + 1] == c && s[i + 2] == c};
      bool fstring, raw;
      strscan::prefixBefore(s.data(), i, fstring, raw);
      strscan::TextCursor cur{s.data(), i + (q.triple ? 3 : 1), n};
      strscan::Scanner<strscan::TextCursor> scan(cur);
      if (scan.body(q, fstring, raw, 0) != strscan::Status::Closed) {
        complete = false; // unterminated: the parser reports it
        break;
      }
      i = cur.i;
      lastSig = c;
      continue;
    }
    case '(':
    case '[':
    case '{':
      ++depth;
      break;
    case ')':
    case ']':
    case '}':
      if (depth == 0) {
        complete = false; // unbalanced: the parser reports it
        break;
      }
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
    if (!complete)
      break;
    if (c != ' ' && c != '\t' && c != '\f' && c != '\n' && c != '\r')
      lastSig = c;
    ++i;
  }
  if (!lines.empty())
    lines.back().endsColon = lastSig == ':';
  return lines;
}

/// Whether line `k` begins a top-level statement.
static bool startsTopLevel(const std::vector<LogicalLine> &lines, size_t k) {
  const LogicalLine &l = lines[k];
  return l.indent == 0 && !l.oddIndent && !l.clause &&
         !(k > 0 && lines[k - 1].decorator);
}

namespace {
/// Where a line inside a top-level statement may start a piece.
struct InnerCut {
  bool allowed = false;
  unsigned depth = 0;
};
} // namespace

/// For the top-level statement of lines [k, end): which lines may start a
/// piece of the block they are in (none when the statement's indentation is
/// not what the lexer accepts).
static std::vector<InnerCut> innerCuts(const std::vector<LogicalLine> &lines,
                                       size_t k, size_t end) {
  std::vector<InnerCut> cuts(end - k);
  const LogicalLine &first = lines[k];
  if (first.indent != 0 || first.oddIndent || first.clause ||
      lines[end - 1].endsColon)
    return cuts;
  // The lexer's indentation stack; `inMatch`: the level is inside a match
  // statement (its case lines are not statements).
  std::vector<size_t> stack{0};
  std::vector<bool> inMatch{false};
  for (size_t m = k + 1; m < end; ++m) {
    const LogicalLine &l = lines[m], &prev = lines[m - 1];
    if (l.oddIndent)
      return std::vector<InnerCut>(end - k);
    if (prev.endsColon) {
      if (l.indent <= stack.back())
        return std::vector<InnerCut>(end - k); // expected an indented block
      stack.push_back(l.indent);
      inMatch.push_back(inMatch.back() || prev.matchCase);
    } else {
      if (l.indent > stack.back())
        return std::vector<InnerCut>(end - k); // unexpected indent
      while (l.indent < stack.back()) {
        stack.pop_back();
        inMatch.pop_back();
      }
      if (l.indent != stack.back())
        return std::vector<InnerCut>(end - k); // matches no outer level
    }
    InnerCut &cut = cuts[m - k];
    cut.depth = static_cast<unsigned>(stack.size() - 1);
    cut.allowed =
        !inMatch.back() && !l.clause && !prev.decorator && !prev.endsColon;
  }
  // A piece may not dedent out of its block: every later line of the
  // statement must be at least as indented.
  size_t minAfter = std::numeric_limits<size_t>::max();
  for (size_t m = end; m-- > k + 1;) {
    if (lines[m].indent > minAfter)
      cuts[m - k].allowed = false;
    minAfter = std::min(minAfter, lines[m].indent);
  }
  return cuts;
}

std::vector<Piece> detc::frontend::splitPieces(const std::u32string &s,
                                               size_t target) {
  bool complete = true;
  std::vector<LogicalLine> lines = scanLines(s, complete);
  std::vector<Piece> pieces{Piece{}};
  bool mustCut = false; // a piece inside a block ends with its statement
  for (size_t k = 0; k < lines.size();) {
    size_t end = k + 1;
    while (end < lines.size() && !startsTopLevel(lines, end))
      ++end;
    if (lines[k].start > 0 && startsTopLevel(lines, k) &&
        (k == 0 || !lines[k - 1].endsColon) &&
        (mustCut || lines[k].start - pieces.back().start >= target)) {
      pieces.push_back({lines[k].start, 0, 0});
      mustCut = false;
    }
    // Inside the statement only when it alone is longer than a piece; the
    // lines after an unterminated string or unbalanced bracket are unknown.
    size_t stmtEnd = end < lines.size() ? lines[end].start : s.size();
    if (stmtEnd - lines[k].start > target && (complete || end < lines.size())) {
      std::vector<InnerCut> cuts = innerCuts(lines, k, end);
      for (size_t m = k + 1; m < end; ++m) {
        if (!cuts[m - k].allowed ||
            lines[m].start - pieces.back().start < target)
          continue;
        pieces.push_back({lines[m].start, cuts[m - k].depth, lines[m].indent});
        mustCut = true;
      }
    }
    k = end;
  }
  return pieces;
}

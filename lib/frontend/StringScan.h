//===- StringScan.h - Where a string literal ends (PEP 701 f-strings) -----===//
//
// Internal to lib/frontend. Since Python 3.12 (PEP 701) a replacement field
// of an f-string is ordinary code: it may hold strings with the f-string's
// own quote, nested f-strings, backslashes, comments and line breaks. So the
// end of an f-string is found by following its fields, not by looking for
// the next quote. Two readers need that walk and share it through this
// template: the lexer (over ANTLR's char stream, to find the token's end)
// and the f-string builder (over decoded code points, to find where a
// field's expression stops). A `Cursor` offers
//   char32_t peek(size_t k) const; // k-th code point ahead (0: current),
//                                  // kEnd past the end
//   void advance();                // consume one code point
//
// The walk also notes what Python 3.11 could not read, so that a target
// version before 3.12 reports it (FieldSyntax).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_STRINGSCAN_H
#define DETC_LIB_FRONTEND_STRINGSCAN_H

#include <cstddef>

namespace detc::frontend::strscan {

constexpr char32_t kEnd = static_cast<char32_t>(-1);

/// CPython 3.12's limit on f-strings nested in replacement fields.
constexpr unsigned kMaxFStringNesting = 150;

/// The quote that opened a string.
struct Quote {
  char32_t ch = '"';
  bool triple = false;
};

/// Python 3.12 syntax met inside replacement fields (PEP 701).
struct FieldSyntax {
  bool ownQuote = false;  ///< A nested string reusing the f-string's quote.
  bool backslash = false; ///< A backslash in the expression part.
  bool comment = false;   ///< A `#` comment in the expression part.
  bool lineBreak = false; ///< A line break in a single-quoted f-string's field.
  bool any() const { return ownQuote || backslash || comment || lineBreak; }
};

enum class Status {
  Closed,       ///< The closing quote was consumed.
  Unterminated, ///< Ran into the end of the input or of a single-quoted line.
  TooDeep,      ///< More than kMaxFStringNesting nested f-strings.
};

inline bool isNewline(char32_t c) { return c == '\n' || c == '\r'; }

inline bool isIdentChar(char32_t c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c >= 0x80;
}

/// A letter of a string prefix (r, b, f, u in either case).
inline bool isPrefixChar(char32_t c) {
  switch (c | 0x20) {
  case 'r': case 'b': case 'f': case 'u':
    return c < 0x80;
  default:
    return false;
  }
}

/// A cursor over code points already decoded (`s[i, n)`).
struct TextCursor {
  const char32_t *s;
  size_t i, n;
  char32_t peek(size_t k) const { return i + k < n ? s[i + k] : kEnd; }
  void advance() { ++i; }
};

/// The string prefix that ends right before the quote at `s[quoteAt]`:
/// whether it makes an f-string and a raw one.
inline void prefixBefore(const char32_t *s, size_t quoteAt, bool &fstring,
                         bool &raw) {
  fstring = raw = false;
  size_t k = quoteAt;
  while (k > 0 && quoteAt - k < 2 && isPrefixChar(s[k - 1]))
    --k;
  if (k > 0 && isIdentChar(s[k - 1]))
    return; // `elif"` is not a prefix
  for (; k < quoteAt; ++k) {
    fstring |= (s[k] | 0x20) == 'f';
    raw |= (s[k] | 0x20) == 'r';
  }
}

template <class Cursor> class Scanner {
public:
  explicit Scanner(Cursor &cur) : cur(cur) {}

  FieldSyntax syntax;

  /// Consumes a string's body and closing quote; the cursor stands just past
  /// the opening quote(s). `depth`: f-strings around this one.
  Status body(Quote q, bool fstring, bool raw, unsigned depth) {
    if (depth > kMaxFStringNesting)
      return Status::TooDeep;
    while (true) {
      char32_t c = cur.peek(0);
      if (c == kEnd)
        return Status::Unterminated;
      if (c == '\\') {
        // Python 3.11 refused a backslash anywhere in a field, nested
        // strings included.
        if (depth > 0)
          syntax.backslash = true;
        cur.advance();
        char32_t next = cur.peek(0);
        if (next == kEnd)
          return Status::Unterminated;
        // In an f-string a backslash never escapes a brace: `fr'\{{'` is a
        // backslash and a literal brace, `f'\{x}'` a backslash and a field.
        if (fstring && (next == '{' || next == '}'))
          continue;
        cur.advance();
        if (next == '\r' && cur.peek(0) == '\n')
          cur.advance();
        // \N{NAME} in a cooked f-string: its braces are not a field.
        if (fstring && !raw && next == 'N' && cur.peek(0) == '{')
          while (cur.peek(0) != kEnd && cur.peek(0) != '}' &&
                 !isNewline(cur.peek(0)))
            cur.advance();
        continue;
      }
      if (!q.triple && isNewline(c))
        return Status::Unterminated;
      if (closes(q)) {
        consumeQuote(q);
        return Status::Closed;
      }
      cur.advance();
      if (fstring && c == '{') {
        if (cur.peek(0) == '{') {
          cur.advance();
          continue;
        }
        Status s = field(q, depth);
        if (s != Status::Closed)
          return s;
      }
    }
  }

  /// The expression part of a replacement field, from just past its `{`:
  /// stops (without consuming) at the first `!`, `:`, `=` or `}` outside
  /// brackets, strings and comments, or at the closing quote of the
  /// f-string when a single-quoted one's field does not close on its line.
  /// Returns the code point it stopped at (kEnd at the end of the input,
  /// 0 after a nested string that did not close).
  char32_t expression(Quote outer, unsigned depth) {
    int nesting = 0;
    char32_t prev = 0;
    while (true) {
      char32_t c = cur.peek(0);
      if (c == kEnd)
        return kEnd;
      if (c == '\'' || c == '"') {
        if (!stringAt(outer, depth))
          return 0;
        prev = 0;
        continue;
      }
      // Letters right before a quote are its prefix (handled in stringAt).
      if (isPrefixChar(c)) {
        size_t n = 0;
        while (n < 3 && isPrefixChar(cur.peek(n)))
          ++n;
        char32_t after = cur.peek(n);
        if ((after == '\'' || after == '"') && !isIdentChar(prev) &&
            validPrefix(n)) {
          if (!stringAt(outer, depth))
            return 0;
          prev = 0;
          continue;
        }
      }
      if (c == '#') {
        syntax.comment = true;
        while (cur.peek(0) != kEnd && !isNewline(cur.peek(0)))
          cur.advance();
        continue;
      }
      if (c == '\\')
        syntax.backslash = true;
      if (isNewline(c)) {
        if (!outer.triple)
          syntax.lineBreak = true;
      }
      if (c == '(' || c == '[' || c == '{') {
        ++nesting;
      } else if (c == ')' || c == ']') {
        --nesting;
      } else if (c == '}') {
        if (nesting <= 0)
          return c;
        --nesting;
      } else if (nesting <= 0) {
        char32_t next = cur.peek(1);
        if (c == '!' && next != '=')
          return c;
        if (c == ':')
          return c;
        if (c == '=' && next != '=' && prev != '=' && prev != '!' &&
            prev != '<' && prev != '>')
          return c;
      }
      prev = c;
      cur.advance();
    }
  }

private:
  Cursor &cur;

  bool closes(Quote q) const {
    if (cur.peek(0) != q.ch)
      return false;
    return !q.triple || (cur.peek(1) == q.ch && cur.peek(2) == q.ch);
  }
  void consumeQuote(Quote q) {
    for (int i = q.triple ? 3 : 1; i > 0; --i)
      cur.advance();
  }

  /// Whether the `n` letters at the cursor form a string prefix.
  bool validPrefix(size_t n) const {
    if (n == 1)
      return true;
    if (n != 2)
      return false;
    char32_t a = cur.peek(0) | 0x20, b = cur.peek(1) | 0x20;
    return (a == 'r' && (b == 'b' || b == 'f')) ||
           ((a == 'b' || a == 'f') && b == 'r');
  }

  /// A string literal inside a field: its prefix and quote at the cursor.
  bool stringAt(Quote outer, unsigned depth) {
    bool fstring = false, raw = false;
    while (cur.peek(0) != '\'' && cur.peek(0) != '"') {
      char32_t p = cur.peek(0) | 0x20;
      fstring |= p == 'f';
      raw |= p == 'r';
      cur.advance();
    }
    Quote q{cur.peek(0), cur.peek(1) == cur.peek(0) &&
                             cur.peek(2) == cur.peek(0)};
    if (q.ch == outer.ch && (q.triple || !outer.triple))
      syntax.ownQuote = true;
    consumeQuote(q);
    return body(q, fstring, raw, depth + 1) == Status::Closed;
  }

  /// The rest of a replacement field after its `{`: expression, `=`,
  /// conversion, format spec (with its nested fields), closing `}`.
  Status field(Quote outer, unsigned depth) {
    while (true) {
      char32_t stop = expression(outer, depth);
      if (stop == kEnd || stop == 0)
        return Status::Unterminated;
      if (stop == '}') {
        cur.advance();
        return Status::Closed;
      }
      cur.advance();
      if (stop == ':')
        return spec(outer, depth);
      // `=` or `!`: the conversion letter and what follows are read on.
    }
  }

  /// A format spec, from just past its `:` to the field's `}`. Its text is
  /// literal except for nested fields; the f-string's quote ends it.
  Status spec(Quote outer, unsigned depth) {
    while (true) {
      char32_t c = cur.peek(0);
      if (c == kEnd || (!outer.triple && isNewline(c)))
        return Status::Unterminated;
      if (closes(outer))
        return Status::Closed; // The f-string's end: the builder reports it.
      cur.advance();
      if (c == '\\') {
        if (cur.peek(0) != kEnd)
          cur.advance();
      } else if (c == '{') {
        Status s = field(outer, depth);
        if (s != Status::Closed)
          return s;
      } else if (c == '}') {
        return Status::Closed;
      }
    }
  }
};

} // namespace detc::frontend::strscan

#endif // DETC_LIB_FRONTEND_STRINGSCAN_H

//===- StringLiterals.cpp - String, bytes and f-string literals -----------===//
//
// Implicit concatenation, escape decoding, and f-strings with Python 3.12
// semantics (PEP 701): a replacement field's expression is found by the
// lexer's walk (StringScan.h: brackets, nested strings of any quote,
// comments), then parsed with the expression grammar by a nested ParseRun;
// conversions (!r/!s/!a), format specs with nested fields, and
// self-documenting `{x=}` fields. What Python 3.11 could not read is noted
// for the target-version check.
//
//===----------------------------------------------------------------------===//

#include "ASTBuilder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Unicode.h"

using namespace antlr4;
using namespace detc::ast;
using llvm::SmallVector;

namespace detc::frontend {

/// UTF-8 encoding that also passes lone surrogates through (Python strings
/// may hold them, e.g. '\ud800').
static void appendCodePoint(std::string &out, uint32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

static int hexValue(char32_t c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

bool ASTBuilder::decodeLiteral(const std::u32string &lit, bool raw, bool bytes,
                               size_t at, std::string &out) {
  auto fail = [&](const std::string &msg) {
    error(file.getPos(at), msg);
    return false;
  };
  size_t n = lit.size();
  for (size_t i = 0; i < n; ++i) {
    char32_t c = lit[i];
    if (bytes && c >= 0x80)
      return fail("bytes can only contain ASCII literal characters");
    if (c != '\\' || raw) {
      appendCodePoint(out, c);
      continue;
    }
    if (i + 1 >= n) {
      out.push_back('\\');
      break;
    }
    char32_t e = lit[++i];
    switch (e) {
    case '\n':
      break; // Line continuation inside the literal.
    case '\r':
      if (i + 1 < n && lit[i + 1] == '\n')
        ++i;
      break;
    case '\\': out.push_back('\\'); break;
    case '\'': out.push_back('\''); break;
    case '"': out.push_back('"'); break;
    case 'a': out.push_back('\a'); break;
    case 'b': out.push_back('\b'); break;
    case 'f': out.push_back('\f'); break;
    case 'n': out.push_back('\n'); break;
    case 'r': out.push_back('\r'); break;
    case 't': out.push_back('\t'); break;
    case 'v': out.push_back('\v'); break;
    case '0': case '1': case '2': case '3':
    case '4': case '5': case '6': case '7': {
      uint32_t v = e - '0';
      for (int k = 0; k < 2 && i + 1 < n && lit[i + 1] >= '0' &&
                      lit[i + 1] <= '7';
           ++k)
        v = v * 8 + (lit[++i] - '0');
      if (bytes)
        out.push_back(static_cast<char>(v & 0xFF));
      else
        appendCodePoint(out, v);
      break;
    }
    case 'x': {
      if (i + 2 >= n || hexValue(lit[i + 1]) < 0 || hexValue(lit[i + 2]) < 0)
        return fail("invalid \\x escape: truncated \\xXX escape");
      uint32_t v = hexValue(lit[i + 1]) * 16 + hexValue(lit[i + 2]);
      i += 2;
      if (bytes)
        out.push_back(static_cast<char>(v));
      else
        appendCodePoint(out, v);
      break;
    }
    case 'u':
    case 'U': {
      if (bytes) { // Not an escape in bytes.
        out.push_back('\\');
        out.push_back(static_cast<char>(e));
        break;
      }
      int digits = e == 'u' ? 4 : 8;
      uint32_t v = 0;
      for (int k = 0; k < digits; ++k) {
        if (i + 1 >= n || hexValue(lit[i + 1]) < 0)
          return fail(std::string("invalid \\") + static_cast<char>(e) +
                      " escape: truncated \\" + static_cast<char>(e) +
                      (e == 'u' ? "XXXX" : "XXXXXXXX") + " escape");
        v = v * 16 + hexValue(lit[++i]);
      }
      if (v > 0x10FFFF)
        return fail("invalid \\U escape: illegal Unicode character");
      appendCodePoint(out, v);
      break;
    }
    case 'N': {
      if (bytes) {
        out.append("\\N");
        break;
      }
      if (i + 1 >= n || lit[i + 1] != '{')
        return fail("invalid \\N escape: malformed \\N character escape");
      size_t close = lit.find('}', i + 2);
      if (close == std::u32string::npos)
        return fail("invalid \\N escape: malformed \\N character escape");
      std::string name;
      for (size_t k = i + 2; k < close; ++k)
        appendCodePoint(name, lit[k]);
      std::optional<char32_t> cp = llvm::sys::unicode::nameToCodepointStrict(
          llvm::StringRef(name).upper());
      if (!cp)
        return fail("invalid \\N escape: unknown Unicode character name '" +
                    name + "'");
      appendCodePoint(out, *cp);
      i = close;
      break;
    }
    default:
      // Unknown escapes keep the backslash (a DeprecationWarning in 3.11).
      out.push_back('\\');
      appendCodePoint(out, e);
      break;
    }
  }
  return true;
}

void ASTBuilder::flushLiteral(std::u32string &literal, bool raw, size_t at,
                              SourceRange r,
                              llvm::SmallVectorImpl<Expr *> &parts) {
  if (literal.empty())
    return;
  std::string decoded;
  decodeLiteral(literal, raw, /*bytes=*/false, at, decoded);
  literal.clear();
  appendLiteralText(decoded, r, parts);
}

void ASTBuilder::appendLiteralText(llvm::StringRef decoded, SourceRange r,
                                   llvm::SmallVectorImpl<Expr *> &parts) {
  if (decoded.empty())
    return;
  // Adjacent literal parts merge, as in CPython.
  if (!parts.empty())
    if (auto *prev = llvm::dyn_cast<Constant>(parts.back())) {
      prev->value = ctx.save((prev->value + decoded).str());
      return;
    }
  auto *c = make<Constant>(r);
  c->kind = ConstantKind::Str;
  c->value = ctx.save(decoded);
  parts.push_back(c);
}

Expr *ASTBuilder::makeJoinedStr(SourceRange r, llvm::ArrayRef<Expr *> parts) {
  auto *j = make<JoinedStr>(r);
  j->values = list<Expr>(parts);
  return j;
}

Expr *ASTBuilder::strings(P::StringsContext *c) {
  SourceRange whole = rangeOf(c);
  const std::u32string &cps = file.getCodePoints();
  SmallVector<Expr *, 4> parts;
  std::string plain;          // Decoded text of non-f pieces so far.
  std::u32string literal;     // Pending undecoded f-string literal text.
  bool anyF = false, anyBytes = false, anyStr = false, uPrefix = false;
  bool first = true;
  for (tree::TerminalNode *t : c->STRING()) {
    Token *tok = t->getSymbol();
    size_t begin = cpBase + tok->getStartIndex();
    size_t end = cpBase + tok->getStopIndex() + 1;
    bool raw = false, bytes = false, fmt = false, u = false;
    size_t i = begin;
    for (; i < end && cps[i] != '\'' && cps[i] != '"'; ++i) {
      char32_t p = cps[i] | 0x20; // Lower case.
      raw |= p == 'r';
      bytes |= p == 'b';
      fmt |= p == 'f';
      u |= p == 'u';
    }
    if (first)
      uPrefix = u;
    first = false;
    size_t quoteLen =
        (end - i >= 6 && cps[i + 1] == cps[i] && cps[i + 2] == cps[i]) ? 3 : 1;
    size_t bodyBegin = i + quoteLen;
    size_t bodyEnd = end >= bodyBegin + quoteLen ? end - quoteLen : bodyBegin;
    (bytes ? anyBytes : anyStr) = true;
    if (anyBytes && anyStr) {
      error(startOf(tok), "cannot mix bytes and nonbytes literals");
      return make<Constant>(whole);
    }
    if (!fmt) {
      std::u32string body(cps.begin() + bodyBegin, cps.begin() + bodyEnd);
      if (anyF) {
        // A plain piece after an f-string piece joins the literal parts.
        std::string decoded;
        if (!decodeLiteral(body, raw, false, bodyBegin, decoded))
          return make<Constant>(whole);
        appendLiteralText(decoded, whole, parts);
        continue;
      }
      if (!decodeLiteral(body, raw, bytes, bodyBegin, plain))
        return make<Constant>(whole);
      continue;
    }
    if (!anyF) {
      anyF = true;
      appendLiteralText(plain, whole, parts);
    }
    strscan::Quote quote{cps[i], quoteLen == 3};
    size_t stop = fstringBody(bodyBegin, bodyEnd, quote, raw, 0, false, whole,
                              parts, literal);
    if (stop == std::u32string::npos)
      return make<Constant>(whole);
    flushLiteral(literal, raw, bodyBegin, whole, parts);
  }
  if (anyF)
    return makeJoinedStr(whole, parts);
  auto *k = make<Constant>(whole);
  k->kind = anyBytes ? ConstantKind::Bytes : ConstantKind::Str;
  k->value = ctx.save(plain);
  k->uPrefix = uPrefix;
  return k;
}

size_t ASTBuilder::fstringBody(size_t begin, size_t end, strscan::Quote quote,
                               bool raw, int depth, bool inSpec,
                               SourceRange whole,
                               llvm::SmallVectorImpl<Expr *> &parts,
                               std::u32string &literal) {
  const std::u32string &cps = file.getCodePoints();
  size_t i = begin;
  while (i < end) {
    char32_t c = cps[i];
    if (c == '{') {
      if (!inSpec && i + 1 < end && cps[i + 1] == '{') {
        literal.push_back('{');
        i += 2;
        continue;
      }
      flushLiteral(literal, raw, i, whole, parts);
      size_t next =
          fstringField(i + 1, end, quote, raw, depth, whole, parts);
      if (next == std::u32string::npos)
        return next;
      i = next;
      continue;
    }
    if (c == '}') {
      if (inSpec)
        return i;
      if (i + 1 < end && cps[i + 1] == '}') {
        literal.push_back('}');
        i += 2;
        continue;
      }
      error(file.getPos(i), "f-string: single '}' is not allowed");
      return std::u32string::npos;
    }
    if (c == '\\' && !raw && i + 1 < end && cps[i + 1] != '{' &&
        cps[i + 1] != '}') {
      // Keep escapes intact for decoding; \N{...} contains braces.
      literal.push_back(c);
      literal.push_back(cps[i + 1]);
      i += 2;
      if (cps[i - 1] == 'N' && i < end && cps[i] == '{') {
        while (i < end && cps[i] != '}')
          literal.push_back(cps[i++]);
        if (i < end)
          literal.push_back(cps[i++]);
      }
      continue;
    }
    literal.push_back(c);
    ++i;
  }
  if (inSpec) {
    error(file.getPos(begin), "f-string: expecting '}'");
    return std::u32string::npos;
  }
  return end;
}

size_t ASTBuilder::fstringField(size_t begin, size_t end, strscan::Quote quote,
                                bool raw, int depth, SourceRange whole,
                                llvm::SmallVectorImpl<Expr *> &parts) {
  const std::u32string &cps = file.getCodePoints();
  // A field in a format spec in a format spec: Python 3.12 reads one
  // level more than 3.11.
  if (depth >= 3) {
    error(file.getPos(begin), "f-string: expressions nested too deeply");
    return std::u32string::npos;
  }
  if (depth == 2)
    newerSyntax(file.getPos(begin), PythonVersion::Py312,
                "a replacement field nested two format specs deep (PEP 701)");
  // Find the end of the expression: the lexer's walk (StringScan.h), so
  // both agree on nested strings, comments and brackets.
  strscan::TextCursor cursor{cps.data(), begin, end};
  strscan::Scanner<strscan::TextCursor> scan(cursor);
  char32_t stop = scan.expression(quote, 0);
  if (stop == strscan::kEnd || stop == 0) {
    error(file.getPos(begin > 0 ? begin - 1 : 0),
          stop == 0 ? "f-string: unterminated string"
                    : "f-string: expecting '}'");
    return std::u32string::npos;
  }
  size_t exprEnd = cursor.i;
  bool selfDoc = stop == '=';
  const strscan::FieldSyntax &pep701 = scan.syntax;
  if (pep701.any())
    newerSyntax(file.getPos(begin), PythonVersion::Py312,
                pep701.ownQuote    ? "an f-string replacement field holding "
                                     "the f-string's own quote (PEP 701)"
                : pep701.backslash ? "a backslash in an f-string expression "
                                     "(PEP 701)"
                : pep701.comment   ? "a comment in an f-string expression "
                                     "(PEP 701)"
                                   : "a line break in a single-quoted "
                                     "f-string's replacement field (PEP 701)");
  Expr *value = fstringExpression(begin, exprEnd);
  if (!value)
    return std::u32string::npos;
  size_t i = exprEnd;
  if (selfDoc) {
    ++i;
    // The literal text is everything from '{' up to the conversion, format
    // spec or closing brace, blanks included; since Python 3.12 also line
    // breaks, and comments, which are left out.
    std::u32string lit(cps.begin() + begin, cps.begin() + i);
    bool pep701 = false;
    while (i < end) {
      char32_t ch = cps[i];
      if (ch == '#') {
        pep701 = true;
        while (i < end && cps[i] != '\n' && cps[i] != '\r')
          ++i;
        continue;
      }
      if (ch != ' ' && ch != '\t' && ch != '\f' && ch != '\n' && ch != '\r')
        break;
      pep701 |= ch == '\n' || ch == '\r';
      lit.push_back(ch);
      ++i;
    }
    if (pep701)
      newerSyntax(file.getPos(begin), PythonVersion::Py312,
                  "a line break or comment in an f-string's `{x=}` field "
                  "(PEP 701)");
    std::string decoded;
    for (char32_t ch : lit)
      appendCodePoint(decoded, ch);
    appendLiteralText(decoded, whole, parts);
  }
  auto *fv = make<FormattedValue>(whole);
  fv->value = value;
  if (i < end && cps[i] == '!') {
    if (i + 1 >= end || (cps[i + 1] != 's' && cps[i + 1] != 'r' &&
                         cps[i + 1] != 'a')) {
      error(file.getPos(i), "f-string: invalid conversion character: "
                            "expected 's', 'r', or 'a'");
      return std::u32string::npos;
    }
    fv->conversion = static_cast<int>(cps[i + 1]);
    i += 2;
    size_t afterConversion = i;
    while (i < end && (cps[i] == ' ' || cps[i] == '\t'))
      ++i;
    if (i != afterConversion)
      newerSyntax(file.getPos(afterConversion), PythonVersion::Py312,
                  "blanks after an f-string conversion (PEP 701)");
  }
  if (i < end && cps[i] == ':') {
    SmallVector<Expr *, 2> specParts;
    std::u32string specLiteral;
    size_t stop = fstringBody(i + 1, end, quote, raw, depth + 1, true, whole,
                              specParts, specLiteral);
    if (stop == std::u32string::npos)
      return stop;
    flushLiteral(specLiteral, raw, i + 1, whole, specParts);
    fv->formatSpec = makeJoinedStr(whole, specParts);
    i = stop;
  }
  if (i >= end || cps[i] != '}') {
    error(file.getPos(std::min(i, end)), "f-string: expecting '}'");
    return std::u32string::npos;
  }
  if (selfDoc && fv->conversion == -1 && !fv->formatSpec)
    fv->conversion = 'r';
  parts.push_back(fv);
  return i + 1;
}

Expr *ASTBuilder::fstringExpression(size_t begin, size_t end) {
  const std::u32string &cps = file.getCodePoints();
  bool blank = true;
  for (size_t i = begin; i < end && blank; ++i)
    blank = cps[i] == ' ' || cps[i] == '\t' || cps[i] == '\n' ||
            cps[i] == '\r' || cps[i] == '\f';
  if (blank) {
    error(file.getPos(begin), "f-string: empty expression not allowed");
    return nullptr;
  }
  ParseRun run(cps.data() + begin, cps.data() + end, /*implicitJoining=*/true,
               budget);
  P::FstringExprContext *tree = run.run(&PythonParser::fstringExpr);
  if (!tree) {
    const SyntaxError &err = *run.getError();
    error(file.getPos(begin + err.index), "f-string: " + err.message);
    return nullptr;
  }
  size_t savedBase = cpBase;
  bool savedNested = nestedRun;
  cpBase = begin;
  nestedRun = true;
  Expr *e = tree->yieldExpr() ? yieldExpr(tree->yieldExpr())
                              : testlistStarExpr(tree->testlistStarExpr());
  cpBase = savedBase;
  nestedRun = savedNested;
  return e;
}

} // namespace detc::frontend

//===- Reindent.cpp - A narrowly indented script, indented wider ----------===//
//
// Vaccination puts a cell's `def` and its guards between a block's header
// and its body, in the columns between their indentations (VaccinePlan):
// a script indented by 2 (Google's style: augmix, big_transfer) or with
// tabs has no room there. Such a script is re-indented first: each line
// that starts a logical line gets its indentation (tabs expanded to
// multiples of 8, as Python reads them) multiplied by one factor, which
// keeps every block nested as it was. Bytes inside strings (a docstring's
// lines), continuation lines inside brackets or after a backslash, blank
// and comment-only lines stay as they are. A result that does not parse
// is not used.
//
//===----------------------------------------------------------------------===//

#include "detc/codegen/LineSplit.h"
#include "detc/frontend/ByteScanner.h"

#include <algorithm>

using namespace llvm;

namespace detc::codegen {

namespace {
/// A line that starts a logical line: where it starts, how many bytes of
/// indentation it has, and how many columns they make.
struct CodeLine {
  uint32_t start, indentBytes, width;
};
} // namespace

/// The lines of `text` that start a logical line; false if an indentation
/// holds a byte other than a space or a tab (a form feed resets Python's
/// column count: left alone).
static bool codeLines(StringRef text, std::vector<CodeLine> &out) {
  // Line starts outside strings, brackets and backslash continuations.
  std::vector<uint32_t> starts{0};
  int depth = 0;
  char previous = 0;
  frontend::ByteScanner(text, 0).run([&](uint32_t at, char c) {
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if ((c == ')' || c == ']' || c == '}') && depth > 0)
      --depth;
    else if (c == '\n' && depth == 0 && previous != '\\' &&
             at + 1 < text.size())
      starts.push_back(at + 1);
    if (c != '\r')
      previous = c;
    return true;
  });
  for (uint32_t start : starts) {
    uint32_t i = start, width = 0;
    for (; i < text.size() && (text[i] == ' ' || text[i] == '\t'); ++i)
      width = text[i] == '\t' ? (width / 8 + 1) * 8 : width + 1;
    if (i == text.size() || text[i] == '\n' || text[i] == '\r' ||
        text[i] == '#')
      continue; // blank or a comment: no logical line starts here
    if (text[i] == '\f' || text[i] == '\v')
      return false;
    out.push_back({start, i - start, width});
  }
  return true;
}

bool Relayout::widenIndentation(unsigned minStep) {
  std::vector<CodeLine> code;
  if (!codeLines(current, code) || code.empty())
    return false;
  unsigned step = ~0u, previous = 0;
  bool tabs = false;
  for (const CodeLine &l : code) {
    if (l.width > previous)
      step = std::min(step, l.width - previous);
    previous = l.width;
    tabs |= StringRef(current).substr(l.start, l.indentBytes).contains('\t');
  }
  if (step == ~0u || (step >= minStep && !tabs))
    return false;
  unsigned factor = step >= minStep ? 1 : (minStep + step - 1) / step;
  std::string next;
  next.reserve(current.size() + current.size() / 4);
  std::vector<LineOrigin> origins = lines;
  size_t c = 0;
  for (unsigned l = 0; l < currentStarts.size(); ++l) {
    uint32_t begin = currentStarts[l];
    uint32_t end = l + 1 < currentStarts.size() ? currentStarts[l + 1]
                                                : uint32_t(current.size());
    if (c == code.size() || code[c].start != begin) {
      next += StringRef(current).slice(begin, end);
      continue;
    }
    const CodeLine &line = code[c++];
    uint32_t width = line.width * factor;
    next.append(width, ' ');
    next += StringRef(current).slice(begin + line.indentBytes, end);
    // The new indentation is detc's; the user's bytes start after theirs.
    LineOrigin &o = origins[l];
    if (!o.added && o.inserted == 0)
      o.reindented = true;
    if (!o.added && o.inserted < line.indentBytes)
      o.userOffset += line.indentBytes - o.inserted;
    o.inserted = width;
  }
  // Only a text that parses replaces the user's (a string the scanner
  // misread would show here).
  if (!parses(next))
    return false;
  setText(std::move(next), std::move(origins));
  return true;
}

} // namespace detc::codegen

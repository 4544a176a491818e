//===- SourceEdits.cpp - Byte-exact edits of a Python source file ---------===//

#include "detc/codegen/SourceEdits.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace detc::codegen {

EditList::EditList(StringRef source) : src(source) {
  size_t nl = src.find('\n');
  eol = nl != StringRef::npos && nl > 0 && src[nl - 1] == '\r' ? "\r\n" : "\n";
  // A UTF-8 BOM is a prefix of the file, not of line 1: lines inserted
  // before line 1 go after it (Python rejects U+FEFF anywhere else).
  bom = src.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  lineStarts.push_back(bom);
  for (uint32_t i = 0; i < src.size(); ++i)
    if (src[i] == '\n' && i + 1 < src.size())
      lineStarts.push_back(i + 1);
}

unsigned EditList::lineOf(uint32_t offset) const {
  return std::upper_bound(lineStarts.begin(), lineStarts.end(), offset) -
         lineStarts.begin();
}

std::optional<uint32_t> EditList::lineStart(unsigned line) const {
  if (line < 1 || line > lineStarts.size())
    return std::nullopt;
  return lineStarts[line - 1];
}

bool EditList::hasLinesBefore(unsigned line) const {
  return llvm::any_of(newLines,
                      [&](const NewLines &n) { return n.line == line; });
}

void EditList::wrap(uint32_t begin, uint32_t end, std::string prefix,
                    std::string suffix) {
  unsigned order = unsigned(inserts.size());
  inserts.push_back({begin, end - begin, order, false, std::move(prefix)});
  inserts.push_back({end, end - begin, order, true, std::move(suffix)});
}

void EditList::insertLines(unsigned line, std::vector<std::string> lines,
                           StringRef note) {
  newLines.push_back({line, std::move(lines), note.str()});
}

void EditList::insertLinesOfNext(unsigned line, std::vector<std::string> lines,
                                 StringRef note) {
  newLines.push_back({line, std::move(lines), note.str(), true});
}

std::vector<const EditList::NewLines *>
EditList::linesAt(unsigned line) const {
  std::vector<const NewLines *> out;
  for (bool ofNext : {false, true})
    for (const NewLines &n : newLines)
      if (n.line == line && n.ofNext == ofNext)
        out.push_back(&n);
  return out;
}

std::vector<EditList::NotedLine> EditList::takeLines(unsigned line) {
  std::vector<NotedLine> out;
  for (const NewLines *n : linesAt(line))
    for (const std::string &l : n->lines)
      out.push_back({l, n->note});
  llvm::erase_if(newLines, [&](const NewLines &n) { return n.line == line; });
  return out;
}

void EditList::insertNotedLines(unsigned line,
                                const std::vector<NotedLine> &lines) {
  auto at = llvm::find_if(newLines,
                          [&](const NewLines &n) { return n.line == line; });
  std::vector<NewLines> block;
  for (const NotedLine &l : lines)
    block.push_back({line, {l.first}, l.second});
  newLines.insert(at, block.begin(), block.end());
}

void EditList::replace(uint32_t begin, uint32_t end, std::string text) {
  wrap(begin, begin, std::move(text), "");
  removed.push_back({begin, end});
}

void EditList::appendSource(std::string &out, uint32_t from,
                            uint32_t to) const {
  for (auto [b, e] : removed) {
    if (e <= from || b >= to)
      continue;
    if (b > from)
      out += src.slice(from, b).str();
    from = std::max(from, e);
  }
  if (from < to)
    out += src.slice(from, to).str();
}

std::string EditList::linesBefore(unsigned line) const {
  std::string out;
  for (const NewLines *n : linesAt(line))
    for (const std::string &l : n->lines)
      out += l + "  # detc: " + n->note + eol;
  return out;
}

void EditList::note(unsigned line, StringRef text) {
  // A line continued with a backslash cannot end in a comment (simsiam's
  // `k_pre = ... \` guarded in fast-forward made the emitted script
  // invalid): the note goes on the line the statement continues to.
  while (line < lineStarts.size()) {
    uint32_t b = lineStarts[line - 1], e = lineStarts[line];
    if (!src.slice(b, e).rtrim(" \t\r\n\f").ends_with("\\"))
      break;
    ++line;
  }
  for (LineNote &n : notes)
    if (n.line == line) {
      if (StringRef(n.text).contains(text))
        return;
      n.text += "; " + text.str();
      return;
    }
  notes.push_back({line, text.str()});
}

void EditList::renderLine(unsigned line, std::string &before,
                          std::string &text) const {
  before = linesBefore(line);

  uint32_t begin = lineStarts[line - 1];
  uint32_t end = line < lineStarts.size() ? lineStarts[line] : src.size();
  // The line's content and its break.
  uint32_t contentEnd = end;
  if (contentEnd > begin && src[contentEnd - 1] == '\n')
    --contentEnd;
  if (contentEnd > begin && src[contentEnd - 1] == '\r')
    --contentEnd;

  std::vector<const Insert *> here;
  for (const Insert &i : inserts)
    if (i.offset >= begin &&
        (i.offset < contentEnd || (i.offset == contentEnd && i.isSuffix)))
      here.push_back(&i);
  // At one offset: suffixes (inner spans first) before prefixes (outer
  // spans first).
  llvm::stable_sort(here, [](const Insert *a, const Insert *b) {
    if (a->offset != b->offset)
      return a->offset < b->offset;
    if (a->isSuffix != b->isSuffix)
      return a->isSuffix;
    // Wraps of one span: the first made is the outer one.
    if (a->spanLength == b->spanLength)
      return a->isSuffix ? a->order > b->order : a->order < b->order;
    return a->isSuffix ? a->spanLength < b->spanLength
                       : a->spanLength > b->spanLength;
  });
  text.clear();
  uint32_t at = begin;
  for (const Insert *i : here) {
    appendSource(text, at, i->offset);
    text += i->text;
    at = std::max(at, i->offset);
  }
  appendSource(text, at, contentEnd);
  for (const LineNote &n : notes)
    if (n.line == line)
      text += "  # detc: " + n.text;
  text += src.slice(contentEnd, end).str();
}

std::map<unsigned, unsigned> EditList::insertedBefore() const {
  std::map<unsigned, unsigned> counts;
  for (const NewLines &n : newLines)
    counts[n.line] += n.lines.size();
  return counts;
}

std::string EditList::apply() const {
  std::string out, before, text;
  out.reserve(src.size() + 256);
  out += src.take_front(bom);
  for (unsigned line = 1; line <= lineStarts.size(); ++line) {
    renderLine(line, before, text);
    out += before;
    out += text;
  }
  // Lines inserted after the last line.
  std::string tail = linesBefore(lineStarts.size() + 1);
  if (!tail.empty() && !out.empty() && out.back() != '\n')
    out += eol;
  out += tail;
  return out;
}

std::string EditList::diff(StringRef oldName, StringRef newName) const {
  unsigned n = lineStarts.size();
  // Lines inserted after the last line: a virtual line n + 1 with no text.
  std::string tail = linesBefore(n + 1);
  unsigned last = tail.empty() ? n : n + 1;
  std::vector<std::string> before(n + 2), text(n + 2);
  std::vector<bool> changed(n + 3, false);
  for (unsigned line = 1; line <= n; ++line) {
    renderLine(line, before[line], text[line]);
    uint32_t b = lineStarts[line - 1];
    uint32_t e = line < n ? lineStarts[line] : src.size();
    changed[line] = !before[line].empty() || text[line] != src.slice(b, e) ||
                    userText.count(line);
  }
  before[n + 1] = tail;
  changed[n + 1] = !tail.empty();
  // Lines detc added to the source before editing: '+' lines, and absent
  // from the user's numbering.
  std::vector<bool> fresh(n + 2, false);
  std::vector<unsigned> userLine(n + 2, 0);
  for (unsigned line : added)
    if (line >= 1 && line <= n)
      fresh[line] = changed[line] = true;
  for (unsigned line = 1, user = 1; line <= n + 1; ++line) {
    userLine[line] = user;
    user += fresh[line] ? 0 : 1;
  }
  auto original = [&](unsigned line) {
    if (line > n)
      return std::string();
    if (auto it = userText.find(line); it != userText.end())
      return it->second + (line < n || src.ends_with("\n") ? eol : "");
    uint32_t b = lineStarts[line - 1];
    uint32_t e = line < n ? lineStarts[line] : src.size();
    return src.slice(b, e).str();
  };
  auto withBreak = [](std::string s) {
    if (s.empty() || s.back() != '\n')
      s += "\n\\ No newline at end of file\n";
    return s;
  };
  std::string out;
  raw_string_ostream os(out);
  os << "--- " << oldName << "\n+++ " << newName << "\n";
  const unsigned kContext = 3;
  int shift = 0; // lines added so far
  for (unsigned line = 1; line <= last;) {
    if (!changed[line]) {
      ++line;
      continue;
    }
    // A hunk: changed lines closer than 2*context merge.
    unsigned first = line > kContext ? line - kContext : 1, lastChanged = line;
    for (unsigned l = line; l <= last; ++l)
      if (changed[l])
        lastChanged = l;
      else if (l - lastChanged > 2 * kContext)
        break;
    unsigned end = std::min(last, lastChanged + kContext);
    std::string body;
    unsigned oldCount = 0, newCount = 0;
    for (unsigned l = first; l <= end; ++l) {
      if (!changed[l] && l <= n) {
        body += " " + withBreak(original(l));
        ++oldCount, ++newCount;
        continue;
      }
      bool lineEdited = l <= n && !fresh[l] && text[l] != original(l);
      if (lineEdited)
        body += "-" + withBreak(original(l));
      if (l <= n && !fresh[l])
        ++oldCount;
      StringRef added = before[l];
      while (!added.empty()) {
        auto [head, rest] = added.split('\n');
        body += "+" + head.str() + "\n";
        ++newCount;
        added = rest;
      }
      if (l > n)
        continue; // the virtual line after the last
      body += (lineEdited || fresh[l] ? "+" : " ") + withBreak(text[l]);
      ++newCount;
    }
    os << "@@ -" << userLine[first] << "," << oldCount << " +"
       << int(userLine[first]) + shift
       << "," << newCount << " @@\n"
       << body;
    shift += int(newCount) - int(oldCount);
    line = end + 1;
  }
  return os.str();
}

} // namespace detc::codegen

//===- LineSplit.cpp - Statements sharing a line, put on lines of their own ===//

#include "detc/codegen/LineSplit.h"
#include "detc/frontend/ASTDump.h"

#include "StatementIndex.h"
#include "detc/frontend/Parser.h"
#include "detc/frontend/SourceFile.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace llvm;

namespace detc::codegen {

static std::vector<uint32_t> lineStartsOf(StringRef text) {
  std::vector<uint32_t> starts{0};
  for (uint32_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' && i + 1 < text.size())
      starts.push_back(i + 1);
  return starts;
}

/// 0-based index of the line holding byte `offset`.
static unsigned lineIndex(const std::vector<uint32_t> &starts,
                          uint32_t offset) {
  return unsigned(std::upper_bound(starts.begin(), starts.end(), offset) -
                  starts.begin()) -
         1;
}

Relayout::Relayout(StringRef userBytes)
    : user(userBytes.str()), userLineStarts(lineStartsOf(user)),
      current(user), currentStarts(userLineStarts) {
  for (uint32_t start : userLineStarts)
    lines.push_back({start, 0, false});
}

void Relayout::setText(std::string text, std::vector<LineOrigin> origins) {
  current = std::move(text);
  currentStarts = lineStartsOf(current);
  lines = std::move(origins);
}

unsigned Relayout::userLine(unsigned line) const {
  if (line == 0 || line > lines.size() || lines[line - 1].added)
    return 0;
  return lineIndex(userLineStarts, lines[line - 1].userOffset) + 1;
}

uint32_t Relayout::userOffset(uint32_t offset) const {
  const std::vector<uint32_t> &starts = currentStarts;
  unsigned l = lineIndex(starts, offset);
  const LineOrigin &o = lines[l];
  uint32_t column = offset - starts[l];
  return o.userOffset + (column > o.inserted ? column - o.inserted : 0);
}

uint32_t Relayout::lineStart(unsigned line) const {
  return currentStarts[line - 1];
}

std::vector<unsigned> Relayout::movedLines() const {
  std::vector<unsigned> moved;
  for (unsigned l = 0; l < lines.size(); ++l)
    if (lines[l].inserted && !lines[l].added && !lines[l].reindented)
      moved.push_back(l + 1);
  return moved;
}

StringRef Relayout::userLineText(unsigned line) const {
  if (line == 0 || line > userLineStarts.size())
    return {};
  uint32_t b = userLineStarts[line - 1];
  uint32_t e = line < userLineStarts.size() ? userLineStarts[line]
                                            : uint32_t(user.size());
  return StringRef(user).slice(b, e).rtrim("\r\n");
}

frontend::Diagnostic Relayout::toUser(frontend::Diagnostic d,
                                      StringRef fileName) const {
  if (identity() || d.file != fileName || d.pos.line == 0 ||
      d.pos.line > lines.size() || lines[d.pos.line - 1].added)
    return d;
  const LineOrigin &o = lines[d.pos.line - 1];
  uint32_t at = o.userOffset + (d.pos.column > o.inserted
                                    ? d.pos.column - o.inserted
                                    : 0);
  unsigned line = lineIndex(userLineStarts, at);
  d.pos = {line + 1, at - userLineStarts[line], at};
  d.lineText = userLineText(line + 1).str();
  return d;
}

void Relayout::insertLine(uint32_t lineStart, StringRef text) {
  const std::vector<uint32_t> &starts = currentStarts;
  unsigned at = lineIndex(starts, lineStart);
  StringRef eol = StringRef(current).contains("\r\n") ? "\r\n" : "\n";
  std::string next = current.substr(0, lineStart) + text.str() + eol.str() +
                     current.substr(lineStart);
  std::vector<LineOrigin> origins = lines;
  origins.insert(origins.begin() + at, LineOrigin{0, 0, true});
  setText(std::move(next), std::move(origins));
}

namespace {
/// Where a line break goes: bytes [cut, stmt) become a break and `indent`.
struct Break {
  uint32_t cut, stmt;
  std::string indent;
};

class Splitter {
public:
  Splitter(StringRef src, const std::vector<uint32_t> &starts,
           const std::vector<bool> &wanted)
      : src(src), starts(starts), wanted(wanted) {}

  /// `body` is nested in `parent` (null: the module's).
  void walk(ast::NodeList<ast::Stmt> body, const ast::Stmt *parent) {
    if (body.empty())
      return;
    const ast::Stmt *first = body.front();
    // A body on its header's line (`if c: a; b`) moves under the header,
    // whole: it cannot be half on the header's line. Its indentation is
    // one level below its header's line,
    // or below the statement's when that line is a continuation that
    // starts further left.
    bool inlineBody = !ownsLineStart(first);
    std::string outer = parent ? lineIndent(parent) : "";
    std::string header = lineIndent(first);
    if (header.size() < outer.size())
      header = outer;
    std::string indent =
        inlineBody ? header + unitAfter(header) : lineIndent(first);
    bool any = llvm::any_of(body, [&](const ast::Stmt *s) {
      return !ownsLineStart(s) && wanted[lineOf(s)];
    });
    for (const ast::Stmt *s : body) {
      if (!ownsLineStart(s) && (inlineBody ? any : wanted[lineOf(s)]))
        breaks.push_back({cutBefore(s), s->getRange().begin.offset, indent});
      ast::forEachBody(
          s, [&](ast::NodeList<ast::Stmt> inner) { walk(inner, s); });
    }
  }

  std::vector<Break> breaks;

private:
  unsigned lineOf(const ast::Stmt *s) const {
    return lineIndex(starts, s->getRange().begin.offset);
  }
  uint32_t lineStart(uint32_t offset) const {
    return starts[lineIndex(starts, offset)];
  }
  bool ownsLineStart(const ast::Stmt *s) const {
    uint32_t b = s->getRange().begin.offset;
    return src.slice(lineStart(b), b).find_first_not_of(" \t\f") ==
           StringRef::npos;
  }
  /// The blanks that start `s`'s line.
  std::string lineIndent(const ast::Stmt *s) const {
    uint32_t b = lineStart(s->getRange().begin.offset);
    StringRef rest = src.drop_front(b);
    return rest.take_front(rest.find_first_not_of(" \t")).str();
  }
  /// One indentation level below `indent`, in its own kind of blank.
  static std::string unitAfter(StringRef indent) {
    return indent.contains('\t') ? "\t" : "    ";
  }
  /// The blanks before `s`, and a `;` separating it from the statement
  /// before (a trailing `;` is kept where something else sits between).
  uint32_t cutBefore(const ast::Stmt *s) const {
    uint32_t cut = s->getRange().begin.offset;
    auto blanks = [&] {
      while (cut > 0 && (src[cut - 1] == ' ' || src[cut - 1] == '\t'))
        --cut;
    };
    blanks();
    if (cut > 0 && src[cut - 1] == ';') {
      --cut;
      blanks();
    }
    return cut;
  }

  StringRef src;
  const std::vector<uint32_t> &starts;
  const std::vector<bool> &wanted;
};
} // namespace

/// `text` parsed, or null.
static std::unique_ptr<frontend::ParsedModule> parse(StringRef text) {
  frontend::DiagnosticEngine scratch;
  std::unique_ptr<frontend::SourceFile> file =
      frontend::SourceFile::fromBytes("<split>", text.str(), scratch);
  std::unique_ptr<frontend::ParsedModule> parsed =
      file ? frontend::parseModule(*file, scratch) : nullptr;
  if (!parsed || !parsed->module || scratch.hasErrors())
    return nullptr;
  return parsed;
}

bool Relayout::parses(StringRef text) { return parse(text) != nullptr; }

bool Relayout::splitShared(ArrayRef<uint32_t> offsets) {
  std::unique_ptr<frontend::ParsedModule> before = parse(current);
  if (!before)
    return false;
  const ast::Module &tree = *before->module;
  const std::vector<uint32_t> &starts = currentStarts;
  // The lines of the statements asked for, continuation lines included.
  std::vector<bool> wanted(starts.size(), false);
  StatementIndex index(tree);
  for (uint32_t offset : offsets) {
    const StmtPlace *place = index.at(offset);
    if (!place)
      continue;
    unsigned first = lineIndex(starts, offset);
    unsigned last = lineIndex(starts, place->stmt->getRange().end.offset);
    for (unsigned l = first; l <= last && l < wanted.size(); ++l)
      wanted[l] = true;
  }
  Splitter splitter(current, starts, wanted);
  splitter.walk(tree.body, nullptr);
  std::vector<Break> &breaks = splitter.breaks;
  if (breaks.empty())
    return false;
  llvm::sort(breaks, [](const Break &a, const Break &b) {
    return a.stmt < b.stmt;
  });
  StringRef src = current;
  StringRef eol = src.contains("\r\n") ? "\r\n" : "\n";
  // The new text, and for each of its lines where it starts in `current`
  // and how many bytes detc put before that.
  std::string next;
  std::vector<std::pair<uint32_t, uint32_t>> from; // (offset, inserted)
  uint32_t at = 0;
  auto copy = [&](uint32_t end) {
    for (uint32_t i = at; i < end; ++i) {
      next += src[i];
      if (src[i] == '\n' && i + 1 < src.size())
        from.push_back({i + 1, 0});
    }
    at = end;
  };
  from.push_back({0, 0});
  for (const Break &b : breaks) {
    copy(b.cut);
    next += eol;
    next += b.indent;
    from.push_back({b.stmt, uint32_t(b.indent.size())});
    at = b.stmt;
  }
  copy(uint32_t(src.size()));

  // Only a text that parses replaces the user's.
  if (!parse(next))
    return false;

  std::vector<LineOrigin> origins;
  for (auto [offset, inserted] : from) {
    const LineOrigin &o = lines[lineIndex(starts, offset)];
    uint32_t column = offset - starts[lineIndex(starts, offset)];
    uint32_t own = column > o.inserted ? column - o.inserted : 0;
    origins.push_back({o.userOffset + own, inserted, o.added});
  }
  setText(std::move(next), std::move(origins));
  return true;
}

} // namespace detc::codegen

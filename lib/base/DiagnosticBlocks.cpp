//===- DiagnosticBlocks.cpp - One report of several files' diagnostics ----===//

#include "detc/base/DiagnosticBlocks.h"

using llvm::StringRef;

namespace detc::base {

/// `FILE:LINE:COL: warning: ...` (also error and remark; a note belongs to
/// the diagnostic before it).
static bool startsDiagnostic(StringRef line) {
  for (StringRef kind : {": warning: ", ": error: ", ": remark: "}) {
    size_t at = line.find(kind);
    if (at == StringRef::npos)
      continue;
    // FILE:LINE:COL before it: two numbers after the last two colons.
    StringRef where = line.take_front(at);
    auto [rest, col] = where.rsplit(':');
    auto [file, row] = rest.rsplit(':');
    unsigned n;
    if (!file.empty() && !row.getAsInteger(10, n) && !col.getAsInteger(10, n))
      return true;
  }
  return false;
}

std::vector<StringRef> splitDiagnosticBlocks(StringRef text) {
  std::vector<StringRef> blocks;
  size_t start = 0;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    end = end == StringRef::npos ? text.size() : end + 1;
    if (at > start && startsDiagnostic(text.slice(at, end))) {
      blocks.push_back(text.slice(start, at));
      start = at;
    }
    at = end;
  }
  if (start < text.size())
    blocks.push_back(text.drop_front(start));
  return blocks;
}

void appendNewDiagnostics(StringRef text, llvm::StringSet<> &seen,
                          std::string &out) {
  // A diagnostic is its first line (place and message); its notes are
  // those of its first occurrence (they may say what differs between the
  // scripts: the folders one searched).
  for (StringRef block : splitDiagnosticBlocks(text))
    if (seen.insert(block.take_until([](char c) { return c == '\n'; }))
            .second)
      out += block.str();
}

} // namespace detc::base

//===- Diagnostics.cpp - Compiler-style diagnostics -----------------------===//

#include "detc/frontend/Diagnostics.h"
#include "detc/frontend/SourceFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace detc::frontend;

void DiagnosticEngine::report(Severity severity, const SourceFile *file,
                              ast::SourcePos pos, std::string message) {
  Diagnostic d;
  d.severity = severity;
  d.pos = pos;
  d.message = std::move(message);
  if (file) {
    d.file = file->getName().str();
    d.lineText = file->getLineText(pos.line);
  }
  if (severity == Severity::Error)
    ++numErrors;
  diags.push_back(std::move(d));
}

void DiagnosticEngine::fileError(llvm::StringRef file, std::string message) {
  Diagnostic d;
  d.file = file.str();
  d.message = std::move(message);
  ++numErrors;
  diags.push_back(std::move(d));
}

void DiagnosticEngine::dropRepeatsSince(size_t start) {
  start = std::min(start, diags.size());
  // [begin, end) of each diagnostic with the notes after it.
  auto groups = [&](size_t begin, size_t end) {
    std::vector<std::pair<size_t, size_t>> out;
    for (size_t i = begin; i < end;) {
      size_t j = i + 1;
      while (j < end && diags[j].severity == Severity::Note)
        ++j;
      out.emplace_back(i, j);
      i = j;
    }
    return out;
  };
  auto key = [&](std::pair<size_t, size_t> group) {
    std::string k;
    for (size_t i = group.first; i < group.second; ++i)
      k += std::to_string(static_cast<int>(diags[i].severity)) + '\0' +
           diags[i].file + '\0' + diags[i].message + '\x1f';
    return k;
  };
  llvm::StringMap<unsigned> earlier;
  for (auto group : groups(0, start))
    ++earlier[key(group)];
  std::vector<Diagnostic> kept(diags.begin(), diags.begin() + start);
  for (auto group : groups(start, diags.size())) {
    auto it = earlier.find(key(group));
    if (it != earlier.end() && it->second) {
      --it->second;
      continue;
    }
    for (size_t i = group.first; i < group.second; ++i)
      kept.push_back(std::move(diags[i]));
  }
  diags = std::move(kept);
  numErrors = llvm::count_if(
      diags, [](const Diagnostic &d) { return d.severity == Severity::Error; });
}

void DiagnosticEngine::print(llvm::raw_ostream &os, const Diagnostic &d) {
  os << d.file << ":";
  if (d.pos.line)
    os << d.pos.line << ":" << d.pos.column + 1 << ":";
  os << " ";
  switch (d.severity) {
  case Severity::Error:
    os << "error: ";
    break;
  case Severity::Warning:
    os << "warning: ";
    break;
  case Severity::Note:
    os << "note: ";
    break;
  }
  os << d.message << "\n";
  if (d.pos.line && !d.lineText.empty()) {
    // Long lines (generated code) are shown as a window around the column.
    constexpr size_t kWindow = 80;
    llvm::StringRef text = d.lineText;
    size_t column = d.pos.column;
    std::string prefix;
    if (text.size() > 2 * kWindow) {
      size_t from = column > kWindow ? column - kWindow : 0;
      while (from > 0 && (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80)
        --from;
      text = text.substr(from, 2 * kWindow);
      column -= from;
      if (from) {
        prefix = "...";
        column += 3;
      }
    }
    os << prefix << text << "\n";
    // Keep tabs so the caret lines up under the offending character.
    std::string pad;
    std::string shown = prefix + text.str();
    for (size_t i = 0; i < column && i < shown.size(); ++i) {
      unsigned char c = shown[i];
      if ((c & 0xC0) == 0x80)
        continue; // One column per code point.
      pad += c == '\t' ? '\t' : ' ';
    }
    os << pad << "^\n";
  }
}

void DiagnosticEngine::printAll(llvm::raw_ostream &os) const {
  for (const Diagnostic &d : diags)
    print(os, d);
}

bool DiagnosticEngine::hasInternalErrors() const {
  return llvm::any_of(diags, [](const Diagnostic &d) {
    return d.severity == Severity::Error &&
           llvm::StringRef(d.message).starts_with("internal error");
  });
}

//===- Diagnostics.cpp - Compiler-style diagnostics -----------------------===//

#include "detc/frontend/Diagnostics.h"
#include "detc/frontend/SourceFile.h"

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
    os << d.lineText << "\n";
    // Keep tabs so the caret lines up under the offending character.
    std::string pad;
    for (size_t i = 0; i < d.pos.column && i < d.lineText.size(); ++i) {
      unsigned char c = d.lineText[i];
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

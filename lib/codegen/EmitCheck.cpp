//===- EmitCheck.cpp - The emitted script must be Python ------------------===//
//
// Verify, don't trust: before `detc transform` writes (or prints) a script,
// it parses it with the same frontend that read the input. An edit that
// broke the syntax (a literal spelled wrong, an insertion inside an open
// bracket) is detc's bug, reported as one with exit status 3 — never an
// invalid file written with exit 0.
//
//===----------------------------------------------------------------------===//

#include "detc/codegen/Transform.h"
#include "detc/frontend/Diagnostics.h"
#include "detc/frontend/Parser.h"
#include "detc/frontend/SourceFile.h"

using namespace llvm;

std::optional<std::string>
detc::codegen::emittedSyntaxError(StringRef name, StringRef text) {
  frontend::DiagnosticEngine diags;
  std::unique_ptr<frontend::SourceFile> file =
      frontend::SourceFile::fromBytes(name, text.str(), diags);
  if (file && frontend::parseModule(*file, diags) && !diags.hasErrors())
    return std::nullopt;
  for (const frontend::Diagnostic &d : diags.getDiagnostics())
    if (d.severity == frontend::Severity::Error)
      return (Twine(d.pos.line) + ":" + Twine(d.pos.column) + ": " +
              d.message + (d.lineText.empty() ? "" : " in '" + d.lineText + "'"))
          .str();
  return std::string("it does not parse");
}

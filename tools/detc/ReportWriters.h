//===- ReportWriters.h - Text, JSON and SARIF renderings ------*- C++ -*-===//

#ifndef DETC_TOOLS_DETC_REPORTWRITERS_H
#define DETC_TOOLS_DETC_REPORTWRITERS_H

#include "detc/analysis/Findings.h"

#include "llvm/Support/raw_ostream.h"

namespace detc::tool {

/// Compiler-style diagnostics with source lines and carets, then the
/// replay summary of each checkpoint and the liveness at each hint.
void writeText(llvm::raw_ostream &os, const analysis::Report &r);
/// The JSON schema is documented in docs/analyze.md.
void writeJson(llvm::raw_ostream &os, const analysis::Report &r);
/// SARIF 2.1.0, one run, one result per finding.
void writeSarif(llvm::raw_ostream &os, const analysis::Report &r);

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_REPORTWRITERS_H

//===- ReportWriters.h - Text, JSON and SARIF renderings ------*- C++ -*-===//

#ifndef DETC_TOOLS_DETC_REPORTWRITERS_H
#define DETC_TOOLS_DETC_REPORTWRITERS_H

#include "detc/analysis/Findings.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace detc::tool {

/// Compiler-style diagnostics with source lines and carets, then the
/// replay summary of each checkpoint and the liveness at each hint.
void writeText(llvm::raw_ostream &os, const analysis::Report &r);
/// The JSON schema is documented in docs/analyze.md.
void writeJson(llvm::raw_ostream &os, const analysis::Report &r);
/// SARIF 2.1.0, one run, one result per finding; `exitCode` is the status
/// detc exits with (the run's invocation).
void writeSarif(llvm::raw_ostream &os, const analysis::Report &r,
                int exitCode);
/// What code-scanning services read about the tool and the run, added to
/// each run of a SARIF log: the driver's version and, where the build
/// names the project's home page (DETC_HOMEPAGE_URL), its informationUri;
/// one invocation with the exit status (executionSuccessful: detc did its
/// job, whatever it found — 0 or 1).
void stampSarif(llvm::json::Object &log, int exitCode);

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_REPORTWRITERS_H

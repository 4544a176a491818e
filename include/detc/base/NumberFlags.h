//===- NumberFlags.h - Numeric command-line flags, validated ----*- C++ -*-===//
//
// One validation for every numeric flag of every subcommand: "", "nan",
// "inf" and trailing junk are parse errors naming the flag; a range check
// names the flag and its range. (A NaN checkpoint cost once produced a
// script that checkpointed at every arrival.)
//
//===----------------------------------------------------------------------===//

#ifndef DETC_BASE_NUMBERFLAGS_H
#define DETC_BASE_NUMBERFLAGS_H

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace detc::base {

/// Parses finite decimal numbers only.
class FiniteDoubleParser : public llvm::cl::parser<double> {
public:
  using llvm::cl::parser<double>::parser;
  bool parse(llvm::cl::Option &option, llvm::StringRef argName,
             llvm::StringRef arg, double &value);
};

using NumberFlag = llvm::cl::opt<double, false, FiniteDoubleParser>;

/// True when `flag` was not given or lies in [min, max]; otherwise prints
/// "<tool>: error: --NAME=V: expected a number in [min, max]" on `errs`.
bool checkFlagRange(const NumberFlag &flag, double min, double max,
                    llvm::StringRef tool, llvm::raw_ostream &errs);

/// A finite number, as the flags accept them: "" and non-numbers fail.
bool parseFiniteNumber(llvm::StringRef text, double &value);

} // namespace detc::base

#endif // DETC_BASE_NUMBERFLAGS_H

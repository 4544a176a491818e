//===- NumberFlags.cpp - Numeric command-line flags, validated ------------===//

#include "detc/base/NumberFlags.h"

#include "llvm/Support/WithColor.h"

#include <cmath>
#include <cstdlib>
#include <string>

using namespace llvm;

bool detc::base::parseFiniteNumber(StringRef text, double &value) {
  text = text.trim();
  if (text.empty())
    return false;
  std::string s = text.str();
  // strtod also reads "nan", "inf" and hex floats: accept decimals only.
  for (char c : s)
    if (!(isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' ||
          c == 'E' || c == '+' || c == '-'))
      return false;
  char *end = nullptr;
  value = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(value);
}

bool detc::base::FiniteDoubleParser::parse(cl::Option &option,
                                              StringRef argName, StringRef arg,
                                              double &value) {
  if (parseFiniteNumber(arg, value))
    return false;
  // Option::error() prints "detc: for the --x option: ...", without the
  // "error:" every other diagnostic has.
  WithColor::error(errs(), "detc")
      << "--" << option.ArgStr << "=" << arg
      << ": expected a finite number, got '" << arg << "'\n";
  return true;
}

bool detc::base::checkFlagRange(const NumberFlag &flag, double min,
                                   double max, StringRef tool,
                                   raw_ostream &errs) {
  if (!flag.getNumOccurrences() || (flag >= min && flag <= max))
    return true;
  char buffer[96];
  snprintf(buffer, sizeof buffer, "=%g: expected a number in [%g, %g]",
           double(flag), min, max);
  WithColor::error(errs, tool) << "--" << flag.ArgStr << buffer << "\n";
  return false;
}

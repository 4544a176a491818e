//===- TargetVersionFlag.cpp - --target-version: the Python to read -------===//

#include "TargetVersionFlag.h"

#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace detc::tool {

/// cl::desc and cl::init keep references: the texts live as long as the
/// process.
static const std::string &help() {
  static const std::string text =
      "The oldest Python the code must run on (" +
      frontend::knownPythonVersions() +
      "): syntax newer than it is an error. Default: " +
      frontend::pythonVersionName(frontend::kNewestPythonVersion) +
      ", the newest detc reads";
  return text;
}

static const std::string &newest() {
  static const std::string text =
      frontend::pythonVersionName(frontend::kNewestPythonVersion);
  return text;
}

TargetVersionFlag::TargetVersionFlag(cl::SubCommand &sub,
                                     cl::OptionCategory *category)
    : value("target-version", cl::desc(help()), cl::value_desc("3.x"),
            cl::init(newest()), cl::sub(sub)) {
  if (category)
    value.addCategory(*category);
}

std::optional<frontend::PythonVersion>
TargetVersionFlag::get(raw_ostream &errs) const {
  if (std::optional<frontend::PythonVersion> v =
          frontend::parsePythonVersion(value))
    return v;
  WithColor::error(errs, "detc")
      << "--target-version: '" << value << "' is not a Python version detc "
      << "reads (" << frontend::knownPythonVersions() << ")\n";
  return std::nullopt;
}

} // namespace detc::tool

//===- PythonVersion.cpp - The Python versions detc reads -----------------===//

#include "detc/frontend/PythonVersion.h"

using namespace detc::frontend;

std::optional<PythonVersion>
detc::frontend::parsePythonVersion(llvm::StringRef text) {
  text = text.trim();
  if (text.consume_front_insensitive("py")) {
    if (!text.consume_front("3"))
      return std::nullopt;
  } else if (!text.consume_front("3.")) {
    return std::nullopt;
  }
  unsigned minor = 0;
  if (text.getAsInteger(10, minor))
    return std::nullopt;
  if (minor < static_cast<unsigned>(kOldestPythonVersion) ||
      minor > static_cast<unsigned>(kNewestPythonVersion))
    return std::nullopt;
  return static_cast<PythonVersion>(minor);
}

std::string detc::frontend::pythonVersionName(PythonVersion v) {
  return "3." + std::to_string(static_cast<unsigned>(v));
}

std::string detc::frontend::knownPythonVersions() {
  std::string out;
  for (unsigned m = static_cast<unsigned>(kOldestPythonVersion);
       m <= static_cast<unsigned>(kNewestPythonVersion); ++m) {
    if (!out.empty())
      out += m == static_cast<unsigned>(kNewestPythonVersion) ? " or " : ", ";
    out += pythonVersionName(static_cast<PythonVersion>(m));
  }
  return out;
}

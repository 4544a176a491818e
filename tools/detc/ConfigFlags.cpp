//===- ConfigFlags.cpp - Project configuration for analyze/transform ------===//

#include "ConfigFlags.h"

#include "detc/analysis/Suppressions.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace detc::tool {

ConfigFlags::ConfigFlags(cl::SubCommand &sub)
    : showConfig("show-config",
                 cl::desc("Print the effective configuration (project file, "
                          "command line, defaults) and where each setting "
                          "comes from, then exit"),
                 cl::sub(sub)),
      configFile("config",
                 cl::desc("Read the configuration from FILE (a detc.toml, or "
                          "a pyproject.toml with [tool.detc]) instead of the "
                          "nearest one"),
                 cl::value_desc("FILE"), cl::sub(sub)),
      noConfig("no-config",
               cl::desc("Read no configuration file (pyproject.toml, "
                        "detc.toml)"),
               cl::sub(sub)),
      sub(sub) {}

std::optional<base::ProjectConfig> ConfigFlags::apply(StringRef script,
                                                      raw_ostream &errs) {
  std::vector<StringRef> ruleNames;
  for (const analysis::RuleInfo &r : analysis::rules())
    ruleNames.push_back(r.id);
  Expected<base::ProjectConfig> config =
      noConfig ? Expected<base::ProjectConfig>(base::ProjectConfig{})
      : configFile.empty()
          ? base::loadProjectConfig(sys::path::parent_path(script), ruleNames)
          : base::readProjectConfig(configFile, ruleNames);
  if (!config) {
    errs << toString(config.takeError()) << "\n";
    return std::nullopt;
  }
  StringMap<cl::Option *> &options = cl::getRegisteredOptions(sub);
  for (StringRef name : base::configurableFlags()) {
    auto it = options.find(name);
    if (it != options.end() && it->second->getNumOccurrences())
      fromCommandLine.push_back(name.str());
  }
  for (auto &[name, setting] : config->flags) {
    auto it = options.find(name);
    if (it == options.end()) {
      // A key for another command (`seed` is transform's): not an error.
      continue;
    }
    if (llvm::is_contained(fromCommandLine, name))
      continue;
    for (const std::string &v : setting.values)
      if (it->second->addOccurrence(0, name, v)) {
        errs << setting.where << ": error: bad value '" << v << "' for '"
             << name << "'\n";
        return std::nullopt;
      }
  }
  return std::move(*config);
}

std::optional<int> ConfigFlags::start(StringRef script,
                                      std::optional<base::ProjectConfig> &out) {
  out = apply(script, errs());
  if (!out)
    return 2;
  if (showConfig) {
    print(outs(), *out);
    return 0;
  }
  return std::nullopt;
}

bool ConfigFlags::givenOnCommandLine(StringRef name) const {
  return llvm::is_contained(fromCommandLine, name);
}

void ConfigFlags::print(raw_ostream &os,
                        const base::ProjectConfig &config) const {
  os << "# detc configuration"
     << (config.file.empty() ? " (no configuration file)"
                             : " from " + config.file)
     << "\n";
  StringMap<cl::Option *> &options = cl::getRegisteredOptions(sub);
  for (StringRef name : base::configurableFlags()) {
    if (!options.count(name))
      continue;
    std::string line = name.str();
    std::string source = "default";
    if (llvm::is_contained(fromCommandLine, name)) {
      source = "command line";
    } else if (auto it = config.flags.find(name.str());
               it != config.flags.end()) {
      std::string values;
      for (const std::string &v : it->second.values)
        values += (values.empty() ? "" : ", ") + ("\"" + v + "\"");
      bool list = name == "path" || name == "entry" || name == "api-table" ||
                  name == "exclude";
      line += " = " + (list ? "[" + values + "]" : values);
      source = it->second.where;
    }
    os << line << std::string(line.size() < 40 ? 40 - line.size() : 1, ' ')
       << "# " << source << "\n";
  }
  os << "[rules]\n";
  for (const analysis::RuleInfo &r : analysis::rules()) {
    auto it = config.rules.find(r.id);
    std::string line = std::string(r.id) + " = \"" +
                       (it == config.rules.end() ? std::string("warning")
                                                 : it->second.values[0]) +
                       "\"";
    os << line << std::string(line.size() < 40 ? 40 - line.size() : 1, ' ')
       << "# " << (it == config.rules.end() ? "default" : it->second.where)
       << "\n";
  }
}

} // namespace detc::tool

//===- ProjectConfig.cpp - [tool.detc] in pyproject.toml or detc.toml -----===//
//
// toml++ reports errors by throwing; this file is compiled with exceptions
// and catches them all (none leaves it).
//
//===----------------------------------------------------------------------===//

#include "detc/base/ProjectConfig.h"

#include "detc/base/FileIO.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <toml++/toml.h>

using namespace llvm;

namespace detc::base {

namespace {

enum class Kind { Bool, Int, Number, Choice, Strings, Paths };

struct FlagSpec {
  StringRef name;
  Kind kind;
  std::vector<StringRef> choices = {};
};

const std::vector<FlagSpec> &specs() {
  static const std::vector<FlagSpec> kSpecs = {
      {"path", Kind::Paths},
      {"entry", Kind::Strings},
      {"api-table", Kind::Paths},
      // .gitignore-style patterns, anchored at the configuration's folder
      // by `detc analyze` (not paths: `*_test.py` names a file anywhere).
      {"exclude", Kind::Strings},
      {"seed", Kind::Int},
      {"werror", Kind::Bool},
      {"strict", Kind::Bool},
      {"format", Kind::Choice, {"text", "json", "sarif"}},
      {"overhead", Kind::Number},
      {"ckpt-cost", Kind::Number},
      {"failure-rate", Kind::Number},
      {"target-version", Kind::Choice, {"3.11", "3.12", "3.13"}}};
  return kSpecs;
}

class Reader {
public:
  Reader(StringRef path, ArrayRef<StringRef> knownRules)
      : path(path.str()), dir(sys::path::parent_path(path).str()),
        knownRules(knownRules) {}

  Expected<ProjectConfig> read(const toml::table &root) {
    ProjectConfig config;
    config.file = path;
    const toml::table *table = &root;
    if (sys::path::filename(path) == "pyproject.toml") {
      const toml::node *tool = root.get("tool");
      const toml::node *detc =
          tool && tool->as_table() ? tool->as_table()->get("detc") : nullptr;
      if (!detc)
        return config;
      // `[[tool.detc]]` (an array of tables) or `tool.detc = 1` was read as
      // no configuration at all: said instead.
      table = detc->as_table();
      if (!table) {
        fail(detc->source(), "'tool.detc' must be a table ([tool.detc]), "
                             "not " + describe(*detc));
        return takeError();
      }
    }
    for (auto &&[key, node] : *table) {
      std::string name(key.str());
      if (name == "rules") {
        if (!readRules(node, config))
          return takeError();
        continue;
      }
      auto spec = llvm::find_if(
          specs(), [&](const FlagSpec &s) { return s.name == name; });
      if (spec == specs().end()) {
        std::string known;
        for (const FlagSpec &s : specs())
          known += (known.empty() ? "" : ", ") + s.name.str();
        fail(key.source(), "unknown key '" + name + "' (detc reads " + known +
                               " and the [rules] table)");
        return takeError();
      }
      ConfigSetting setting;
      setting.where = where(key.source());
      if (!readValue(*spec, node, setting.values))
        return takeError();
      config.flags[name] = std::move(setting);
    }
    return config;
  }

  static std::string describe(const toml::node &n) {
    if (n.is_array_of_tables())
      return "an array of tables ([[tool.detc]])";
    if (n.is_array())
      return "an array";
    return "a value";
  }

  void fail(const toml::source_region &at, const Twine &message) {
    if (error.empty())
      error = where(at) + ": error: " + message.str();
  }
  Error takeError() {
    return createStringError(inconvertibleErrorCode(), error);
  }

private:
  std::string where(const toml::source_region &at) const {
    return path + ":" + std::to_string(at.begin.line) + ":" +
           std::to_string(at.begin.column);
  }

  bool readValue(const FlagSpec &spec, const toml::node &node,
                 std::vector<std::string> &out) {
    auto wrong = [&](StringRef expected) {
      fail(node.source(),
           "'" + spec.name + "' must be " + expected + Twine(""));
      return false;
    };
    switch (spec.kind) {
    case Kind::Bool:
      if (!node.is_boolean())
        return wrong("true or false");
      out.push_back(node.as_boolean()->get() ? "true" : "false");
      return true;
    case Kind::Int:
      if (!node.is_integer() || node.as_integer()->get() < 0)
        return wrong("a non-negative integer");
      out.push_back(std::to_string(node.as_integer()->get()));
      return true;
    case Kind::Number:
      if (node.is_integer()) {
        out.push_back(std::to_string(node.as_integer()->get()));
        return true;
      }
      if (!node.is_floating_point())
        return wrong("a number");
      out.push_back(formatDouble(node.as_floating_point()->get()));
      return true;
    case Kind::Choice: {
      const toml::value<std::string> *s = node.as_string();
      if (!s || !llvm::is_contained(spec.choices, StringRef(s->get())))
        return wrong("one of \"" + join(spec.choices, "\", \"") + "\"");
      out.push_back(s->get());
      return true;
    }
    case Kind::Strings:
    case Kind::Paths: {
      auto add = [&](const toml::node &item) {
        const toml::value<std::string> *s = item.as_string();
        if (!s)
          return false;
        std::string v = s->get();
        if (spec.kind == Kind::Paths && !sys::path::is_absolute(v)) {
          SmallString<256> joined(dir.empty() ? "." : dir);
          sys::path::append(joined, v);
          v = std::string(joined);
        }
        out.push_back(std::move(v));
        return true;
      };
      if (const toml::array *a = node.as_array()) {
        for (const toml::node &item : *a)
          if (!add(item))
            return wrong("a string or a list of strings");
        return true;
      }
      return add(node) || wrong("a string or a list of strings");
    }
    }
    return false;
  }

  static std::string formatDouble(double d) {
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", d);
    return buf;
  }

  bool readRules(const toml::node &node, ProjectConfig &config) {
    const toml::table *rules = node.as_table();
    if (!rules) {
      fail(node.source(), "'rules' must be a table of rule = \"error\" | "
                          "\"warning\" | \"off\"");
      return false;
    }
    for (auto &&[key, value] : *rules) {
      StringRef rule(key.str());
      if (!llvm::is_contained(knownRules, rule)) {
        StringRef best;
        unsigned bestDistance = 5;
        for (StringRef r : knownRules)
          if (unsigned d = rule.edit_distance(r); d < bestDistance)
            best = r, bestDistance = d;
        fail(key.source(), "unknown rule '" + rule + "'" +
                               (best.empty() ? std::string()
                                             : "; did you mean '" +
                                                   best.str() + "'?"));
        return false;
      }
      const toml::value<std::string> *s = value.as_string();
      if (!s || (s->get() != "error" && s->get() != "warning" &&
                 s->get() != "off")) {
        fail(value.source(), "the severity of '" + rule +
                                 "' must be \"error\", \"warning\" or \"off\"");
        return false;
      }
      config.rules[rule.str()] = ConfigSetting{{s->get()}, where(key.source())};
    }
    return true;
  }

  std::string path, dir;
  ArrayRef<StringRef> knownRules;
  std::string error;
};

} // namespace

ArrayRef<StringRef> configurableFlags() {
  static const std::vector<StringRef> names = [] {
    std::vector<StringRef> out;
    for (const FlagSpec &s : specs())
      out.push_back(s.name);
    return out;
  }();
  return names;
}

Expected<ProjectConfig> readProjectConfig(StringRef path,
                                          ArrayRef<StringRef> knownRules) {
  Expected<std::string> text = readInputFile(path);
  if (!text)
    return createStringError(inconvertibleErrorCode(),
                             path + ": error: cannot read the configuration: " +
                                 toString(text.takeError()));
  Reader reader(path, knownRules);
  try {
    toml::table root = toml::parse(*text, path.str());
    return reader.read(root);
  } catch (const toml::parse_error &e) {
    reader.fail(e.source(), std::string(e.description()));
    return reader.takeError();
  } catch (const std::exception &e) {
    return createStringError(inconvertibleErrorCode(),
                             path + ": error: " + e.what());
  }
}

Expected<ProjectConfig> loadProjectConfig(StringRef startDir,
                                          ArrayRef<StringRef> knownRules) {
  SmallString<256> dir(startDir.empty() ? "." : startDir);
  sys::fs::make_absolute(dir);
  sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
  for (StringRef d = dir; !d.empty(); d = sys::path::parent_path(d)) {
    SmallString<256> own(d), pyproject(d);
    sys::path::append(own, "detc.toml");
    sys::path::append(pyproject, "pyproject.toml");
    if (sys::fs::is_regular_file(own))
      return readProjectConfig(own, knownRules);
    if (sys::fs::is_regular_file(pyproject)) {
      Expected<ProjectConfig> c = readProjectConfig(pyproject, knownRules);
      // A pyproject.toml without [tool.detc] configures other tools: the
      // search goes on (as ruff's does).
      if (!c || !c->flags.empty() || !c->rules.empty())
        return c;
    }
    if (d == sys::path::root_path(d))
      break;
  }
  return ProjectConfig{};
}

} // namespace detc::base

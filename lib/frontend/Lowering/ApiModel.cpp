//===- ApiModel.cpp - Load and query the API model tables -----------------===//

#include "detc/frontend/ApiModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace detc::frontend;
using llvm::StringRef;

namespace {
struct EmbeddedTable {
  const char *name;
  const char *text;
};
// Generated from api/*.api by EmbedApiTables.cmake.
const EmbeddedTable embeddedTables[] = {
#include "ApiTables.inc"
};
} // namespace

ArgRef ApiEntry::getArg(StringRef key) const {
  ArgRef ref;
  StringRef spec = get(key);
  if (spec.empty())
    return ref;
  llvm::SmallVector<StringRef, 2> parts;
  spec.split(parts, '|');
  for (StringRef part : parts) {
    unsigned n;
    if (part == "self")
      ref.receiver = true;
    else if (part.consume_front("kw:"))
      ref.keyword = part.str();
    else if (part.consume_front("arg:") && !part.getAsInteger(10, n))
      ref.position = n;
    else if (!part.getAsInteger(10, n))
      ref.position = n;
    else
      ref.keyword = part.str();
  }
  return ref;
}

const ApiModel &ApiModel::getBuiltin() {
  static const ApiModel model = [] {
    ApiModel m;
    std::string error;
    for (const EmbeddedTable &t : embeddedTables)
      if (!m.addTable(t.name, t.text, error))
        llvm::report_fatal_error(llvm::Twine("built-in API table: ") + error);
    return m;
  }();
  return model;
}

bool ApiModel::addTable(StringRef tableName, StringRef text,
                        std::string &error) {
  llvm::SmallVector<StringRef, 0> lines;
  text.split(lines, '\n');
  for (auto [index, rawLine] : llvm::enumerate(lines)) {
    unsigned lineNo = index + 1;
    StringRef line = rawLine.split('#').first.trim();
    if (line.empty())
      continue;
    llvm::SmallVector<StringRef, 8> words;
    llvm::SplitString(line, words);
    auto fail = [&](const llvm::Twine &msg) {
      error = (tableName + ":" + llvm::Twine(lineNo) + ": " + msg).str();
      return false;
    };
    if (words[0] == "module") {
      if (words.size() != 2)
        return fail("expected 'module <name>'");
      modules[words[1]] = true;
      continue;
    }
    if (words[0] == "alias") {
      if (words.size() != 4 || words[2] != "=")
        return fail("expected 'alias <name> = <target>'");
      aliases[words[1]] = words[3].str();
      modules[words[3]] = true;
      continue;
    }
    if (words.size() < 2)
      return fail("expected '<name> <role> [key=value]...'");
    ApiEntry entry;
    entry.pattern = words[0].str();
    entry.role = words[1].str();
    entry.table = tableName.str();
    entry.line = lineNo;
    static const char *const roles[] = {
        "seed_global", "generator", "seed_method", "draw",     "layer",
        "container",   "wrapper",   "dataset",     "loader",   "sampler",
        "pipeline",    "fit",       "optimizer",   "step",     "backward",
        "checkpoint",  "load",      "load_state",  "call",     "type",
        "pure"};
    if (!llvm::is_contained(roles, entry.role))
      return fail("unknown role '" + entry.role + "'");
    for (StringRef w : llvm::ArrayRef(words).drop_front(2)) {
      auto [k, v] = w.split('=');
      if (k.empty())
        return fail("malformed key '" + w + "'");
      entry.keys[k] = v.str();
    }
    if (entry.role == "type" || entry.has("base")) {
      // Wildcard constructors keep their base in the entry (getBase).
      StringRef base = entry.get("base");
      if (!base.empty() && !StringRef(entry.pattern).ends_with("*"))
        bases[entry.pattern] = base.str();
      if (entry.role == "type")
        continue;
    }
    StringRef pat = entry.pattern;
    if (pat.starts_with("*.")) {
      anyReceiver[pat.drop_front(2)] = std::move(entry);
    } else if (pat.ends_with("*")) {
      wildcards.push_back(std::move(entry));
    } else {
      if (exact.count(pat))
        return fail("duplicate entry for '" + pat + "'");
      exact[pat] = std::move(entry);
    }
  }
  llvm::stable_sort(wildcards, [](const ApiEntry &a, const ApiEntry &b) {
    return a.pattern.size() > b.pattern.size();
  });
  return true;
}

const ApiEntry *ApiModel::lookup(StringRef qualName) const {
  auto it = exact.find(qualName);
  if (it != exact.end())
    return &it->second;
  for (const ApiEntry &w : wildcards) {
    StringRef prefix = StringRef(w.pattern).drop_back();
    // `torch.nn.*` matches `torch.nn.Linear`, but neither `torch.nn` itself
    // nor deeper names (`torch.nn.Module.fc1` is an attribute, not a layer).
    if (!qualName.starts_with(prefix) || qualName.size() == prefix.size() ||
        qualName.drop_front(prefix.size()).contains('.'))
      continue;
    return &w;
  }
  return nullptr;
}

const ApiEntry *ApiModel::lookupMethod(StringRef type, StringRef method) const {
  std::string t = type.str();
  for (int depth = 0; !t.empty() && depth < 16; ++depth) {
    if (const ApiEntry *e = lookup(t + "." + method.str()))
      return e;
    t = getBase(t).str();
  }
  return lookupAnyReceiver(method);
}

const ApiEntry *ApiModel::lookupAnyReceiver(StringRef method) const {
  auto it = anyReceiver.find(method);
  return it == anyReceiver.end() ? nullptr : &it->second;
}

StringRef ApiModel::getBase(StringRef type) const {
  auto it = bases.find(type);
  if (it != bases.end())
    return it->second;
  // A constructor matched by a wildcard with a base (`torch.optim.*`).
  if (const ApiEntry *e = lookup(type))
    return e->get("base");
  return {};
}

std::string ApiModel::canonicalize(StringRef qualName) const {
  StringRef head = qualName.split('.').first;
  auto it = aliases.find(head);
  if (it == aliases.end())
    return qualName.str();
  return it->second + qualName.drop_front(head.size()).str();
}

bool ApiModel::isKnownModule(StringRef module) const {
  return modules.count(module);
}

bool ApiModel::isLibraryName(StringRef name) const {
  for (StringRef n = name; !n.empty(); n = n.rsplit('.').first) {
    if (isKnownModule(n))
      return true;
    if (!n.contains('.'))
      break;
  }
  return false;
}

std::vector<std::string> ApiModel::namesUnder(StringRef module) const {
  std::vector<std::string> names;
  std::string prefix = module.str() + ".";
  for (const auto &e : exact) {
    StringRef k = e.getKey();
    if (k.starts_with(prefix) && !k.drop_front(prefix.size()).contains('.'))
      names.push_back(k.drop_front(prefix.size()).str());
  }
  llvm::sort(names);
  return names;
}

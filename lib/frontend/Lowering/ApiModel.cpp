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

bool detc::frontend::isArgumentKey(StringRef key) {
  static const char *const keys[] = {
      "seed",    "gen",     "transform", "dataset", "shuffle",
      "workers", "generator", "sampler", "batch_sampler", "fn",
      "data",    "epochs",  "params",    "obj",     "training", "mode",
      "optimizer", "args", "wraps", "returns", "elements", "factory",
      "state_of"};
  return llvm::is_contained(keys, key);
}

const ApiParam *ApiEntry::findParam(StringRef name) const {
  for (const ApiParam &p : signature)
    if (p.name == name)
      return &p;
  return nullptr;
}

ArgRef ApiEntry::getArg(StringRef key) const {
  ArgRef ref;
  StringRef spec = get(key);
  if (spec.empty())
    return ref;
  llvm::SmallVector<StringRef, 2> parts;
  spec.split(parts, '|');
  for (StringRef part : parts) {
    unsigned n;
    if (part == "self") {
      ref.receiver = true;
    } else if (part.consume_front("kw:")) {
      ref.keyword = part.str();
    } else if (part.consume_front("arg:") && !part.getAsInteger(10, n)) {
      ref.position = n;
    } else if (!part.getAsInteger(10, n)) {
      ref.position = n;
    } else if (const ApiParam *p = findParam(part)) {
      using Kind = ApiParam::Kind;
      if (p->kind == Kind::PositionalOnly ||
          p->kind == Kind::PositionalOrKeyword)
        ref.position = int(p - signature.data());
      if (p->kind != Kind::PositionalOnly)
        ref.keyword = p->name;
      ref.defaultValue = p->defaultValue;
    } else {
      ref.keyword = part.str();
    }
  }
  return ref;
}

/// Splits `text` at commas outside brackets and quotes.
static llvm::SmallVector<StringRef> splitTopLevel(StringRef text) {
  llvm::SmallVector<StringRef> items;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == quote)
        quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      items.push_back(text.slice(start, i));
      start = i + 1;
    }
  }
  if (start < text.size())
    items.push_back(text.drop_front(start));
  return items;
}

/// Parses `(a,b=1,/,c,*,d=2,**kw)` as CPython reads a signature.
static bool parseSignature(StringRef text, std::vector<ApiParam> &out,
                           std::string &error) {
  using Kind = ApiParam::Kind;
  if (!text.consume_front("(") || !text.consume_back(")")) {
    error = "a signature is written '(name,name=default,*,name,...)'";
    return false;
  }
  Kind kind = Kind::PositionalOrKeyword;
  for (StringRef item : splitTopLevel(text)) {
    if (item == "/") {
      for (ApiParam &p : out)
        p.kind = Kind::PositionalOnly;
      continue;
    }
    if (item == "*") {
      kind = Kind::KeywordOnly;
      continue;
    }
    ApiParam p;
    auto [name, value] = item.split('=');
    if (item.contains('='))
      p.defaultValue = value.str();
    p.kind = kind;
    if (name.consume_front("**")) {
      p.kind = Kind::VarKeyword;
    } else if (name.consume_front("*")) {
      p.kind = Kind::VarPositional;
      kind = Kind::KeywordOnly;
    }
    if (name.empty() || !llvm::all_of(name, [](char c) {
          return llvm::isAlnum(c) || c == '_';
        })) {
      error = "malformed parameter '" + item.str() + "' in the signature";
      return false;
    }
    p.name = name.str();
    out.push_back(std::move(p));
  }
  return true;
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
  // Whether the line above an entry is a comment: a wildcard that declares
  // everything under it harmless must say why there.
  bool commentAbove = false;
  for (auto [index, rawLine] : llvm::enumerate(lines)) {
    unsigned lineNo = index + 1;
    bool commented = commentAbove;
    commentAbove = rawLine.ltrim().starts_with("#");
    StringRef line = rawLine.split('#').first.trim();
    if (line.empty())
      continue;
    llvm::SmallVector<StringRef, 8> words;
    llvm::SplitString(line, words);
    auto fail = [&](const llvm::Twine &msg) {
      error = (tableName + ":" + llvm::Twine(lineNo) + ": " + msg).str();
      return false;
    };
    for (StringRef w : words)
      longestName = std::max(longestName, w.size());
    if (words[0] == "module") {
      if (words.size() != 2)
        return fail("expected 'module <name>'");
      modules[words[1]] = true;
      continue;
    }
    if (words[0] == "quiet" || words[0] == "unread") {
      // `quiet <module> <why...>`: the reason is the rest of the line, and
      // it is required (a module declared harmless says why).
      if (words.size() < 3)
        return fail("expected '" + words[0] + " <module> <reason>'");
      StringRef why = line.drop_front(words[0].size()).ltrim();
      why = why.drop_front(words[1].size()).ltrim();
      auto kind = words[0] == "quiet" ? Unmodelled::Quiet : Unmodelled::Unread;
      if (!unmodelled.try_emplace(words[1], kind, why.str()).second)
        return fail("'" + words[1] + "' is declared twice");
      continue;
    }
    if (words[0] == "receiver-method") {
      // `receiver-method <type> <method>`: a method of a library type (one
      // the library itself lists, derive_torch_names.py). A call of that
      // name on a value detc cannot trace is taken as that type's method;
      // any other name there may be anything (UnreadCalls.cpp).
      if (words.size() != 3)
        return fail("expected 'receiver-method <type> <method>'");
      receiverMethods[words[2]].push_back(words[1].str());
      continue;
    }
    if (words[0] == "data-keyword") {
      // `data-keyword <name> <why...>`: a keyword argument training
      // libraries take their data by (Lightning's `datamodule=`).
      if (words.size() < 3)
        return fail("expected 'data-keyword <name> <library and use>'");
      dataKeywords.insert(words[1]);
      continue;
    }
    if (words[0] == "entry-method") {
      // `entry-method <name> <why...>`: a method name a known type has
      // (nn.Module's `train`) that training libraries' objects also run
      // their whole training by (`trainer.train()`): on a value detc
      // cannot trace it is not taken as the known type's.
      if (words.size() < 3)
        return fail("expected 'entry-method <name> <libraries and use>'");
      entryMethods.insert(words[1]);
      continue;
    }
    if (words[0] == "data-argument") {
      // `data-argument <method> <position> <why...>`: the positional
      // argument a training library's method takes its data by
      // (Lightning's `trainer.fit(model, data)`).
      unsigned position = 0;
      if (words.size() < 4 || words[2].getAsInteger(10, position))
        return fail("expected 'data-argument <method> <position> <use>'");
      dataArguments[words[1]].push_back(position);
      continue;
    }
    if (words[0] == "exports") {
      // `exports <module> <name>...`: the names `from <module> import *`
      // binds (its `__all__`; several lines add up).
      if (words.size() < 3)
        return fail("expected 'exports <module> <name>...'");
      auto &names = exported[words[1]];
      for (StringRef w : llvm::drop_begin(words, 2))
        names.insert(w);
      continue;
    }
    if (words[0] == "stdlib") {
      // `stdlib <module>`: a top-level module of Python's standard library
      // (stdlib.api, derived from sys.stdlib_module_names).
      if (words.size() != 2)
        return fail("expected 'stdlib <module>'");
      stdlibModules.insert(words[1]);
      continue;
    }
    if (words[0] == "builtin") {
      // `builtin <name>`: a name any module reads unbound (builtins.api,
      // derived from the builtins module).
      if (words.size() != 2)
        return fail("expected 'builtin <name>'");
      builtinNames.insert(words[1]);
      continue;
    }
    if (words[0] == "changes-arguments") {
      // `changes-arguments <name> <why...>`: a function of the standard
      // library that changes an object it is given (heapq's heappush).
      if (words.size() < 3)
        return fail("expected 'changes-arguments <name> <why>'");
      changesArguments.insert(words[1]);
      continue;
    }
    if (words[0] == "varies") {
      // `varies <name> <why...>`: a function whose value differs from run
      // to run (the clock): recorded for fast-forward.
      if (words.size() < 3)
        return fail("expected 'varies <name> <why>'");
      variesFrom[words[1]] = llvm::join(llvm::drop_begin(words, 2), " ");
      continue;
    }
    if (words[0] == "immutable") {
      // `immutable <type> <why...>`: a library type whose methods never
      // change the object they are called on.
      if (words.size() < 3)
        return fail("expected 'immutable <type> <why>'");
      immutableTypes.insert(words[1]);
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
        "pure",        "launcher",  "iterate",   "bind",     "apply",
        "subclass_call"};
    if (!llvm::is_contained(roles, entry.role))
      return fail("unknown role '" + entry.role + "'");
    for (StringRef w : llvm::ArrayRef(words).drop_front(2)) {
      auto [k, v] = w.split('=');
      if (k.empty())
        return fail("malformed key '" + w + "'");
      if (k == "sig") {
        std::string why;
        if (!parseSignature(v, entry.signature, why))
          return fail(why);
        continue;
      }
      entry.keys[k] = v.str();
    }
    // With a signature, an argument key names one of its parameters.
    if (!entry.signature.empty())
      for (const auto &kv : entry.keys) {
        if (!isArgumentKey(kv.getKey()))
          continue;
        llvm::SmallVector<StringRef, 2> parts;
        StringRef(kv.getValue()).split(parts, '|');
        for (StringRef part : parts) {
          unsigned n;
          if (part == "self" || part.starts_with("kw:") ||
              part.starts_with("arg:") || !part.getAsInteger(10, n))
            continue;
          if (!entry.findParam(part))
            return fail("'" + kv.getKey() + "=" + kv.getValue() +
                        "': the signature has no parameter '" + part + "'");
        }
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
    bool harmless = entry.role == "pure" ||
                    (entry.role == "layer" && !entry.has("dist") &&
                     !entry.has("random"));
    if (pat.ends_with("*") && !pat.starts_with("*.") && harmless && !commented)
      return fail("'" + pat + "' declares everything under it harmless: say "
                  "why in a comment on the line above");
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
  // A wildcard `a.b.*` matches the names one level under `a.b.`: the one
  // a name can match is its parent's, found by the parent's text. One
  // ending inside a name (`tensorflow.keras.layers.Random*`) is longer than
  // its parent's and tried first.
  wildcardByParent.clear();
  partialWildcards.clear();
  for (unsigned i = 0; i < wildcards.size(); ++i) {
    StringRef prefix = StringRef(wildcards[i].pattern).drop_back();
    if (prefix.ends_with("."))
      wildcardByParent.try_emplace(prefix, i);
    else
      partialWildcards.push_back(i);
  }
  return true;
}

const ApiEntry *ApiModel::lookup(StringRef qualName) const {
  auto it = exact.find(qualName);
  if (it != exact.end())
    return &it->second;
  // `torch.nn.*` matches `torch.nn.Linear`, but neither `torch.nn` itself
  // nor deeper names (`torch.nn.Module.fc1` is an attribute, not a layer).
  for (unsigned i : partialWildcards) {
    StringRef prefix = StringRef(wildcards[i].pattern).drop_back();
    if (qualName.starts_with(prefix) && qualName.size() > prefix.size() &&
        !qualName.drop_front(prefix.size()).contains('.'))
      return &wildcards[i];
  }
  size_t dot = qualName.rfind('.');
  if (dot == StringRef::npos || dot + 1 == qualName.size())
    return nullptr;
  auto w = wildcardByParent.find(qualName.take_front(dot + 1));
  return w == wildcardByParent.end() ? nullptr : &wildcards[w->second];
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

bool ApiModel::typeHasMethod(StringRef type, StringRef method) const {
  auto it = receiverMethods.find(method);
  return it != receiverMethods.end() && llvm::is_contained(it->second, type);
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

/// The longest of `name` and its dotted prefixes (`a.b` of `a.b.c`) that
/// has at most `limit` characters, or "". The tables' keys are no longer
/// than that: hashing every prefix of a long attribute chain
/// (`a.b.b.b...`, issued once per link) made its analysis cubic in it.
static StringRef dottedPrefixWithin(StringRef name, size_t limit) {
  if (name.size() <= limit)
    return name;
  size_t dot = name.rfind('.', limit + 1);
  return dot == StringRef::npos ? StringRef() : name.take_front(dot);
}

std::string ApiModel::canonicalize(StringRef qualName) const {
  // The longest aliased module that `qualName` is in (`keras.layers.X`,
  // `torchvision.transforms.v2.RandomCrop`).
  for (StringRef head = dottedPrefixWithin(qualName, longestName);
       !head.empty();) {
    auto it = aliases.find(head);
    if (it != aliases.end())
      return it->second + qualName.drop_front(head.size()).str();
    if (!head.contains('.'))
      break;
    head = head.rsplit('.').first;
  }
  return qualName.str();
}

bool ApiModel::isKnownModule(StringRef module) const {
  return modules.count(module);
}

bool ApiModel::keepsArguments(StringRef name) const {
  if (!stdlibModules.contains(name.split('.').first))
    return false;
  for (StringRef n = dottedPrefixWithin(name, longestName); !n.empty();
       n = n.rsplit('.').first) {
    if (changesArguments.contains(n))
      return false;
    if (!n.contains('.'))
      break;
  }
  return true;
}

bool ApiModel::isLibraryName(StringRef name) const {
  for (StringRef n = dottedPrefixWithin(name, longestName); !n.empty();
       n = n.rsplit('.').first) {
    if (isKnownModule(n))
      return true;
    if (!n.contains('.'))
      break;
  }
  return false;
}

bool ApiModel::describes(StringRef name) const {
  if (isKnownModule(name) || lookup(name))
    return true;
  auto [type, method] = name.rsplit('.');
  if (method.empty() || !(exact.count(type) || bases.count(type)))
    return false;
  if (lookupMethod(type, method))
    return true;
  // A library value of a type whose methods a `receiver-method` list
  // names (`torch.__version__`, a str: `.startswith`, `.split`).
  std::string t = type.str();
  for (int depth = 0; !t.empty() && depth < 16; ++depth, t = getBase(t).str())
    if (typeHasMethod(t, method))
      return true;
  return false;
}

/// The declaration of the innermost module holding `name`, or null.
static const std::pair<ApiModel::Unmodelled, std::string> *
findUnmodelled(const llvm::StringMap<std::pair<ApiModel::Unmodelled,
                                               std::string>> &decls,
               StringRef name, size_t limit) {
  for (StringRef n = dottedPrefixWithin(name, limit); !n.empty();
       n = n.rsplit('.').first) {
    auto it = decls.find(n);
    if (it != decls.end())
      return &it->second;
    if (!n.contains('.'))
      break;
  }
  return nullptr;
}

ApiModel::Unmodelled ApiModel::classifyUnmodelled(StringRef name) const {
  auto *d = findUnmodelled(unmodelled, name, longestName);
  return d ? d->first : Unmodelled::Unknown;
}

StringRef ApiModel::unmodelledReason(StringRef name) const {
  auto *d = findUnmodelled(unmodelled, name, longestName);
  return d ? StringRef(d->second) : StringRef();
}

std::vector<std::string> ApiModel::namesUnder(StringRef module) const {
  std::vector<std::string> names;
  // The module's `__all__`, where an `exports` line lists it.
  if (const llvm::StringSet<> *listed = exportsOf(module)) {
    for (const auto &n : *listed)
      names.push_back(n.getKey().str());
    llvm::sort(names);
    return names;
  }
  std::string prefix = module.str() + ".";
  for (const auto &e : exact) {
    StringRef k = e.getKey();
    if (k.starts_with(prefix) && !k.drop_front(prefix.size()).contains('.'))
      names.push_back(k.drop_front(prefix.size()).str());
  }
  llvm::sort(names);
  return names;
}

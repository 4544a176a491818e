//===- Suppressions.cpp - Rules, ignore comments, fingerprints, baselines -===//

#include "detc/analysis/Suppressions.h"

#include "detc/base/BoundedJSON.h"
#include "detc/base/FileIO.h"
#include "detc/frontend/ByteScanner.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <map>

using namespace llvm;

namespace detc::analysis {

ArrayRef<RuleInfo> rules() {
  static const RuleInfo kRules[] = {
      {"detc-unsafe-rng",
       "A random generator created outside a data-parallel region is used "
       "inside it: values depend on worker/thread scheduling."},
      {"detc-may-draw",
       "Code detc could not read (a library no table models, a module it "
       "could not find, a callee it cannot trace) is called inside a "
       "data-parallel region: it may draw from a generator made outside "
       "it."},
      {"detc-unseen-training",
       "detc found no training step (backward, optimizer step, loop over a "
       "DataLoader) in the code it could read, and the script calls a "
       "training entry (`trainer.train()`) of code it could not read: its "
       "training may run there, unseen."},
      {"detc-missing-zero-grad",
       "Gradients are not reset between optimizer steps in a training loop."},
      {"detc-misplaced-zero-grad",
       "zero_grad() runs between backward() and the optimizer step."},
      {"detc-step-without-backward",
       "optimizer.step() runs in a loop iteration that computes no "
       "gradient."},
      {"detc-optimizer-before-move",
       "The optimizer was created before the model was moved or wrapped."},
      {"detc-eval-not-restored",
       "A training forward may run with its model left in evaluation mode "
       "(eval() without train())."},
      {"detc-rank-conditional-update",
       "An optimizer step, backward or gradient clipping runs on some ranks "
       "only."},
      {"detc-ddp-module-forward",
       "The training forward calls a DistributedDataParallel model's "
       ".module, bypassing the gradient all-reduce."},
      {"detc-optimizer-not-on-model",
       "The training loop steps an optimizer over another model's "
       "parameters."},
      {"detc-layer-never-run",
       "A model builds a layer nothing runs; the optimizer holds its "
       "parameters, which never change."},
      {"detc-worker-state",
       "A dataset carries state from one example to the next; each "
       "DataLoader worker keeps its own copy, so the data depend on "
       "num_workers."},
      {"detc-unused-ignore",
       "A `# detc: ignore[...]` comment suppresses no finding."}};
  return kRules;
}

/// A character `[^ ():]` of a file name in a position.
static bool inFileName(char c) {
  return c != ' ' && c != '(' && c != ')' && c != ':';
}

/// The end of the digits at `at` (== at when there are none).
static size_t digitsEnd(StringRef s, size_t at) {
  while (at < s.size() && isDigit(s[at]))
    ++at;
  return at;
}

/// The leftmost `[^ ():]+\.py:[0-9]+(:[0-9]+)?` at or after `from`. A run
/// of file-name characters cannot hold a `:`, so it holds at most one
/// `.py:`, at its end: the first `.py:` that has digits after it and
/// file-name characters before it starts the leftmost match.
static std::optional<std::pair<size_t, size_t>> findPosition(StringRef s,
                                                             size_t from) {
  for (size_t dot = s.find(".py:", from); dot != StringRef::npos;
       dot = s.find(".py:", dot + 1)) {
    size_t end = digitsEnd(s, dot + 4);
    if (end == dot + 4)
      continue;
    if (end < s.size() && s[end] == ':')
      if (size_t col = digitsEnd(s, end + 1); col > end + 1)
        end = col;
    size_t begin = dot;
    while (begin > from && inFileName(s[begin - 1]))
      --begin;
    if (begin == dot)
      continue;
    return std::make_pair(begin, end);
  }
  return std::nullopt;
}

/// The leftmost `(line|lines) [0-9]+` at or after `from`.
static std::optional<std::pair<size_t, size_t>> findLine(StringRef s,
                                                         size_t from) {
  for (size_t at = s.find("line", from); at != StringRef::npos;
       at = s.find("line", at + 1)) {
    size_t space = at + 4;
    if (space < s.size() && s[space] == 's')
      ++space;
    if (space >= s.size() || s[space] != ' ')
      continue;
    if (size_t end = digitsEnd(s, space + 1); end > space + 1)
      return std::make_pair(at, end);
  }
  return std::nullopt;
}

std::string messageWithoutPositions(StringRef message) {
  // Scanned by hand: llvm::Regex took 0.13 s for the ~7,000 findings of a
  // 100k-line script. Same matches, replaced as often (at most 64 each).
  std::string out = message.str();
  auto replaceAll = [&](auto find, StringRef with) {
    size_t from = 0;
    for (int i = 0; i < 64; ++i) {
      std::optional<std::pair<size_t, size_t>> m = find(out, from);
      if (!m)
        return;
      out.replace(m->first, m->second - m->first, with.str());
      // A match starts a run of file-name characters (or a word): what
      // precedes it cannot begin a new match through the replacement.
      from = m->first;
    }
  };
  replaceAll(findPosition, "<pos>");
  replaceAll(findLine, "<line>");
  return out;
}

namespace {

/// The text of each file, split into lines, read once.
class Sources {
public:
  /// Contents of `file` ("" when unreadable).
  StringRef text(const std::string &file) {
    auto [it, added] = files.try_emplace(file);
    if (added) {
      if (Expected<std::string> buf = base::readInputFile(file))
        it->second.text = std::move(*buf);
      else
        consumeError(buf.takeError());
      StringRef t = it->second.text;
      it->second.lineStarts.push_back(0);
      for (size_t i = 0; i < t.size(); ++i)
        if (t[i] == '\n')
          it->second.lineStarts.push_back(i + 1);
    }
    return it->second.text;
  }
  /// Line `n` (1-based), without its line break.
  StringRef line(const std::string &file, unsigned n) {
    StringRef t = text(file);
    const std::vector<size_t> &starts = files[file].lineStarts;
    if (n == 0 || n > starts.size())
      return "";
    size_t b = starts[n - 1];
    size_t e = n < starts.size() ? starts[n] : t.size();
    return t.slice(b, e).rtrim("\r\n");
  }
  /// 1-based line and column of byte `offset`.
  std::pair<unsigned, unsigned> position(const std::string &file,
                                         size_t offset) {
    const std::vector<size_t> &starts = files[file].lineStarts;
    auto it = std::upper_bound(starts.begin(), starts.end(), offset);
    unsigned line = it - starts.begin();
    return {line, unsigned(offset - starts[line - 1] + 1)};
  }

private:
  struct File {
    std::string text;
    std::vector<size_t> lineStarts;
  };
  std::map<std::string, File> files;
};

std::string fileOf(const SourcePoint &p, const Report &r) {
  return p.file.empty() ? r.file : p.file;
}

uint64_t contentHash(const Finding &f, StringRef lineText) {
  std::string key = f.rule + '\0' + lineText.trim().str() + '\0' +
                    messageWithoutPositions(f.message);
  return xxh3_64bits(StringRef(key));
}

void fingerprint(std::vector<Finding *> findings, Sources &sources,
                 const Report &r) {
  std::map<uint64_t, unsigned> seen;
  for (Finding *f : findings) {
    uint64_t h = contentHash(*f, sources.line(fileOf(f->at, r), f->at.line));
    f->fingerprint = utohexstr(h, /*LowerCase=*/true, /*Width=*/16) + ":" +
                     std::to_string(seen[h]++);
  }
}

struct IgnoreComment {
  SourcePoint at;
  std::vector<std::string> rules;
  std::vector<bool> used;
  std::string reason;
};

/// Parses the comment `text` (from its `#`) at `at`; false when it is not
/// an ignore comment; errors for malformed ones.
bool parseIgnore(StringRef text, const SourcePoint &at, IgnoreComment &out,
                 std::vector<SuppressionError> &errors) {
  StringRef rest = text.drop_front().trim();
  if (!rest.consume_front("detc:"))
    return false;
  rest = rest.ltrim();
  if (!rest.consume_front("ignore"))
    return false;
  auto error = [&](const Twine &message) {
    errors.push_back({at, message.str()});
    return false;
  };
  if (!rest.consume_front("["))
    return error("a bare 'detc: ignore' is not accepted: name the rules it "
                 "suppresses, as in '# detc: ignore[detc-unsafe-rng] -- "
                 "reason'");
  size_t close = rest.find(']');
  if (close == StringRef::npos)
    return error("the rule list of 'detc: ignore[' has no closing ']'");
  SmallVector<StringRef, 4> names;
  rest.take_front(close).split(names, ',');
  for (StringRef name : names) {
    name = name.trim();
    if (name.empty())
      return error("an empty rule name in 'detc: ignore[...]'");
    bool known = false;
    const char *closest = nullptr;
    unsigned best = ~0u;
    for (const RuleInfo &rule : rules()) {
      known |= name == rule.id;
      unsigned d = name.edit_distance(rule.id);
      if (d < best)
        best = d, closest = rule.id;
    }
    if (!known)
      return error("unknown rule '" + name + "' in 'detc: ignore[...]'" +
                   (best <= 4 ? "; did you mean '" + Twine(closest) + "'?"
                              : Twine()));
    // Each rule once: a list is then never longer than the rule table
    // (300k repeats of one name took minutes, one unused-ignore each).
    if (llvm::is_contained(out.rules, name))
      return error("rule '" + name + "' is listed twice in 'detc: ignore[...]'");
    out.rules.push_back(name.str());
  }
  out.used.assign(out.rules.size(), false);
  rest = rest.drop_front(close + 1).trim();
  if (rest.consume_front("--"))
    out.reason = rest.trim().str();
  out.at = at;
  return true;
}

} // namespace

void assignFingerprints(Report &r) {
  Sources sources;
  std::vector<Finding *> all;
  for (Finding &f : r.findings)
    all.push_back(&f);
  fingerprint(all, sources, r);
}

std::vector<SuppressionError> applySuppressions(Report &r) {
  Sources sources;
  std::vector<std::string> files{r.file};
  auto addFile = [&](const SourcePoint &p) {
    std::string f = fileOf(p, r);
    if (p.valid() && !llvm::is_contained(files, f))
      files.push_back(f);
  };
  for (const Finding &f : r.findings) {
    addFile(f.at);
    for (const ReportNote &n : f.notes)
      addFile(n.at);
  }
  std::vector<SuppressionError> errors;
  std::vector<IgnoreComment> comments;
  for (const std::string &file : files) {
    StringRef src = sources.text(file);
    frontend::ByteScanner(src, 0).run(
        [](uint32_t, char) { return true; },
        [&](uint32_t offset, StringRef text) {
          auto [line, column] = sources.position(file, offset);
          // The ignore may follow another tool's comment on the line
          // (`# noqa: E501  # detc: ignore[...]`): each `#` after a blank
          // starts one (one quoted in prose, "`# detc: ignore[...]`",
          // does not).
          for (size_t hash = 0; hash != StringRef::npos;
               hash = text.find('#', hash + 1)) {
            if (hash > 0 && text[hash - 1] != ' ' && text[hash - 1] != '\t')
              continue;
            IgnoreComment c;
            if (parseIgnore(text.drop_front(hash),
                            SourcePoint{file, line, column + unsigned(hash)},
                            c, errors)) {
              comments.push_back(std::move(c));
              break;
            }
          }
        });
  }
  std::map<std::pair<std::string, unsigned>, std::vector<size_t>> byLine;
  for (size_t i = 0; i < comments.size(); ++i)
    byLine[{comments[i].at.file, comments[i].at.line}].push_back(i);

  // A finding is suppressed by a comment on its own line or on the line of
  // one of its notes.
  auto suppressor = [&](const Finding &f) -> std::optional<Suppression> {
    std::vector<SourcePoint> places{f.at};
    for (const ReportNote &n : f.notes)
      places.push_back(n.at);
    for (const SourcePoint &p : places) {
      if (!p.valid())
        continue;
      auto it = byLine.find({fileOf(p, r), p.line});
      if (it == byLine.end())
        continue;
      for (size_t i : it->second)
        for (size_t k = 0; k < comments[i].rules.size(); ++k)
          if (comments[i].rules[k] == f.rule) {
            comments[i].used[k] = true;
            return Suppression{Suppression::InSource, comments[i].at,
                               comments[i].reason};
          }
    }
    return std::nullopt;
  };
  std::vector<Finding> kept;
  // Exactly: a growing vector's spare capacity and its copy while it grew
  // were the report's largest allocations (20k findings, 360 bytes each).
  kept.reserve(r.findings.size());
  for (Finding &f : r.findings) {
    if (std::optional<Suppression> s = suppressor(f)) {
      f.suppression = std::move(s);
      r.suppressed.push_back(std::move(f));
    } else {
      kept.push_back(std::move(f));
    }
  }
  r.findings = std::move(kept);

  std::vector<Finding *> unused;
  size_t before = r.findings.size();
  for (const IgnoreComment &c : comments)
    for (size_t k = 0; k < c.rules.size(); ++k)
      if (!c.used[k]) {
        Finding f;
        f.rule = "detc-unused-ignore";
        f.at = c.at;
        f.message = "'detc: ignore[" + c.rules[k] +
                    "]' suppresses no finding on this line";
        r.findings.push_back(std::move(f));
      }
  for (size_t i = before; i < r.findings.size(); ++i)
    unused.push_back(&r.findings[i]);
  fingerprint(unused, sources, r);
  return errors;
}

/// `file` relative to `dir` when it is below it, with `/` separators.
static std::string relativeTo(StringRef file, StringRef dir) {
  SmallString<256> abs(file), base(dir);
  sys::fs::make_absolute(abs);
  sys::fs::make_absolute(base);
  sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
  sys::path::remove_dots(base, /*remove_dot_dot=*/true);
  StringRef a = abs, b = base;
  if (a.consume_front(b) && (a.consume_front("/") || b.ends_with("/")))
    return sys::path::convert_to_slash(a);
  return sys::path::convert_to_slash(abs);
}

static std::string baselineKey(StringRef rule, StringRef file,
                               StringRef fingerprint) {
  return (rule + "\n" + file + "\n" + fingerprint).str();
}

Error applyBaseline(Report &r, StringRef baselinePath) {
  Expected<std::string> text = base::readInputFile(baselinePath);
  if (!text)
    return createStringError(inconvertibleErrorCode(),
                             "cannot read the baseline: " +
                                 toString(text.takeError()));
  auto bad = [&](const Twine &why) {
    return createStringError(inconvertibleErrorCode(),
                             "not a detc baseline: " + why);
  };
  Expected<json::Value> doc = base::parseBoundedJSON(*text);
  if (!doc)
    return bad(toString(doc.takeError()));
  const json::Object *root = doc->getAsObject();
  const json::Array *entries = root ? root->getArray("findings") : nullptr;
  if (!root || root->getInteger("version") != 1 || !entries)
    return bad("expected {\"version\": 1, \"findings\": [...]}");
  StringMap<unsigned> known;
  for (const json::Value &v : *entries) {
    const json::Object *e = v.getAsObject();
    std::optional<StringRef> rule = e ? e->getString("rule") : std::nullopt;
    std::optional<StringRef> file = e ? e->getString("file") : std::nullopt;
    std::optional<StringRef> fp =
        e ? e->getString("fingerprint") : std::nullopt;
    if (!rule || !file || !fp)
      return bad("an entry lacks its rule, file or fingerprint");
    ++known[baselineKey(*rule, *file, *fp)];
  }
  StringRef dir = sys::path::parent_path(baselinePath);
  std::vector<Finding> kept;
  // Exactly: a growing vector's spare capacity and its copy while it grew
  // were the report's largest allocations (20k findings, 360 bytes each).
  kept.reserve(r.findings.size());
  for (Finding &f : r.findings) {
    auto it = known.find(baselineKey(
        f.rule, relativeTo(fileOf(f.at, r), dir.empty() ? "." : dir),
        f.fingerprint));
    if (it != known.end() && it->second > 0) {
      --it->second;
      f.suppression = Suppression{Suppression::Baseline, {}, ""};
      r.suppressed.push_back(std::move(f));
    } else {
      kept.push_back(std::move(f));
    }
  }
  r.findings = std::move(kept);
  return Error::success();
}

void writeBaseline(raw_ostream &os, const Report &r, StringRef baselineDir) {
  json::Array entries;
  for (const Finding &f : r.findings)
    entries.push_back(json::Object{
        {"rule", f.rule},
        {"file", relativeTo(fileOf(f.at, r),
                            baselineDir.empty() ? "." : baselineDir)},
        {"fingerprint", f.fingerprint},
        {"message", f.message}});
  json::Object root{{"version", 1}, {"findings", std::move(entries)}};
  os << formatv("{0:2}", json::Value(std::move(root))) << "\n";
}

} // namespace detc::analysis

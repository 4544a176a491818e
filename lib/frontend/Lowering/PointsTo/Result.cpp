//===- Result.cpp - Running the analysis and reading its result -----------===//

#include "Constraints.h"
#include "ResultImpl.h"

#include "detc/frontend/ASTDump.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace detc;
using namespace detc::frontend;
using Kind = AbstractObject::Kind;

PointsToResult::PointsToResult() = default;
PointsToResult::~PointsToResult() = default;
PointsToResult::PointsToResult(PointsToResult &&) = default;
PointsToResult &PointsToResult::operator=(PointsToResult &&) = default;

std::optional<PointsToResult>
detc::frontend::analyzePointsTo(llvm::StringRef path,
                                const PointsToOptions &options,
                                const ApiModel &api, DiagnosticEngine &diags) {
  auto start = std::chrono::steady_clock::now();
  PointsToResult result;
  result.impl = std::make_unique<PointsToResult::Impl>();
  PointsToResult::Impl &impl = *result.impl;
  std::vector<std::string> search = options.searchPath;
  if (const char *env = std::getenv("PYTHONPATH")) {
    llvm::SmallVector<llvm::StringRef> dirs;
    llvm::StringRef(env).split(dirs, ':', -1, false);
    for (llvm::StringRef d : dirs)
      search.push_back(d.str());
  }
  impl.program = std::make_unique<pta::Program>(diags, std::move(search),
                                                options.parseCache);
  impl.program->setInstalledPath(options.installedPath);
  // (The tables outlive every analysis: getBuiltin()'s, or the caller's.)
  impl.program->setStandardLibrary(
      [&api](llvm::StringRef m) { return api.isStandardLibrary(m); });
  if (!impl.program->loadMain(path))
    return std::nullopt;
  pta::Builder builder(*impl.program, api, diags, impl);
  builder.evalAnyNameAsUnknown = options.evalAnyNameAsUnknown;
  // Always: a truncated analysis names the statements behind it.
  impl.solver.profile = true;
  if (options.memberLimit)
    impl.solver.memberLimit = options.memberLimit;
  builder.run();
  if (options.profileSources)
    impl.stats.topSources = builder.topSources(20);
  if (diags.hasErrors())
    return std::nullopt;
  impl.freeze();
  PointsToStats &s = impl.stats;
  s.objects = impl.objects.size();
  s.nodes = impl.solver.numNodes();
  s.copyEdges = impl.solver.copyEdges;
  s.complexConstraints = impl.solver.handlers;
  s.iterations = impl.solver.visits;
  s.members = impl.solver.members;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                            start)
                  .count();
  return result;
}

namespace {
/// The ids of the results alive (Impl::claim).
struct LiveResults {
  std::mutex mutex;
  llvm::DenseSet<uint64_t> ids;
  uint64_t next = 1;
};
LiveResults &liveResults() {
  static LiveResults live;
  return live;
}
uint64_t newResultId() {
  LiveResults &live = liveResults();
  std::lock_guard<std::mutex> lock(live.mutex);
  uint64_t id = live.next++;
  live.ids.insert(id);
  return id;
}
} // namespace

PointsToResult::Impl::Impl() : id(newResultId()) {}

PointsToResult::Impl::~Impl() {
  LiveResults &live = liveResults();
  std::lock_guard<std::mutex> lock(live.mutex);
  live.ids.erase(id);
}

bool PointsToResult::Impl::claim(const ast::ASTContext &context,
                                 const ast::Module *root) {
  uint64_t before = context.getAnnotator();
  if (before == id)
    return true;
  if (before != 0) {
    {
      LiveResults &live = liveResults();
      std::lock_guard<std::mutex> lock(live.mutex);
      if (live.ids.contains(before))
        return false;
    }
    // A result gone before annotated these nodes: clear them (a walk
    // without recursion, as deep as the AST is).
    std::vector<const ast::Node *> work{root};
    while (!work.empty()) {
      const ast::Node *n = work.back();
      work.pop_back();
      if (auto *e = llvm::dyn_cast<ast::Expr>(n))
        e->setPointsToNode(~0u);
      ast::forEachChild(n, [&](llvm::StringRef, const ast::Node *c) {
        if (c)
          work.push_back(c);
      });
    }
  }
  context.setAnnotator(id);
  return true;
}

void PointsToResult::Impl::freeze() {
  auto holds = [&](pta::Node n) { return !solver.pointsTo(n).empty(); };
  size_t kept = 0;
  for (const auto &scope : vars)
    for (const auto &v : scope.second)
      kept += holds(v.second);
  frozenVars.reserve(kept);
  for (const auto &scope : vars) {
    unsigned begin = frozenVars.size();
    for (const auto &v : scope.second)
      if (holds(v.second))
        frozenVars.push_back({labels.save(v.getKey()).data(), v.second});
    if (frozenVars.size() == begin)
      continue;
    std::sort(frozenVars.begin() + begin, frozenVars.end(),
              [](const VarEntry &a, const VarEntry &b) {
                return std::strcmp(a.name, b.name) < 0;
              });
    frozenScopes.push_back(
        {labels.save(scope.getKey()), begin, unsigned(frozenVars.size())});
  }
  llvm::sort(frozenScopes, [](const ScopeVars &a, const ScopeVars &b) {
    return a.scope < b.scope;
  });
  vars = {};
  // To an exact fit (shrink_to_fit does nothing without exceptions).
  std::vector<AbstractObject>(objects.begin(), objects.end()).swap(objects);
}

std::vector<PointsToResult::ObjectId>
PointsToResult::pointsTo(llvm::StringRef scope, llvm::StringRef name) const {
  using VarEntry = Impl::VarEntry;
  auto s =
      llvm::partition_point(impl->frozenScopes, [&](const Impl::ScopeVars &v) {
        return v.scope < scope;
      });
  if (s == impl->frozenScopes.end() || s->scope != scope)
    return {};
  llvm::ArrayRef<VarEntry> own = llvm::ArrayRef<VarEntry>(impl->frozenVars)
                                     .slice(s->begin, s->end - s->begin);
  auto it = llvm::partition_point(
      own, [&](const VarEntry &v) { return llvm::StringRef(v.name) < name; });
  if (it == own.end() || llvm::StringRef(it->name) != name)
    return {};
  return impl->toVector(impl->solver.pointsTo(it->node));
}

std::vector<PointsToResult::ObjectId>
PointsToResult::pointsTo(const ast::Expr *e) const {
  uint32_t node = e->getPointsToNode();
  if (node == ~0u)
    return {};
  return impl->toVector(impl->solver.pointsTo(node));
}

static std::string realPathOf(llvm::StringRef file) {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(file, real))
    return file.str();
  return std::string(real);
}

std::vector<PointsToResult::ObjectId>
PointsToResult::objectsAt(llvm::StringRef file, unsigned line,
                          unsigned column) const {
  using SiteEntry = Impl::SiteEntry;
  if (impl->bySite.empty()) {
    // Real paths once per file, not once per object.
    llvm::StringMap<unsigned> fileIds;
    for (ObjectId o = 0; o < impl->objects.size(); ++o)
      if (const ast::Node *site = impl->objects[o].site) {
        auto [named, added] = fileIds.try_emplace(impl->objects[o].file(), 0);
        if (added)
          named->second = impl->siteFiles
                              .try_emplace(realPathOf(impl->objects[o].file()),
                                           impl->siteFiles.size())
                              .first->second;
        const ast::SourcePos &p = site->getRange().begin;
        impl->bySite.push_back({named->second, p.line, p.column, o});
      }
    std::vector<Impl::SiteEntry>(impl->bySite.begin(), impl->bySite.end())
        .swap(impl->bySite);
    llvm::sort(impl->bySite);
  }
  auto [real, added] = impl->realPaths.try_emplace(file);
  if (added)
    real->second = realPathOf(file);
  auto inFile = impl->siteFiles.find(real->second);
  if (inFile == impl->siteFiles.end())
    return {};
  auto [first, last] = std::equal_range(
      impl->bySite.begin(), impl->bySite.end(),
      SiteEntry{inFile->second, line, column, 0},
      [](const SiteEntry &a, const SiteEntry &b) {
        return std::tie(a.file, a.line, a.column) <
               std::tie(b.file, b.line, b.column);
      });
  std::vector<ObjectId> objs;
  for (auto it = first; it != last; ++it)
    objs.push_back(it->object);
  return objs;
}

std::vector<PointsToResult::ObjectId>
PointsToResult::field(ObjectId object, llvm::StringRef name) const {
  pta::Solver &solver = impl->solver;
  pta::FieldId id = solver.findFieldId(name);
  if (id == ~0u)
    return {};
  pta::Node n = solver.findField(object, id);
  if (n == ~0u)
    return {};
  return impl->toVector(solver.pointsTo(n));
}

std::vector<llvm::StringRef>
PointsToResult::fieldNames(ObjectId object) const {
  std::vector<llvm::StringRef> names;
  for (pta::FieldId f : impl->solver.fieldsOf(object))
    names.push_back(impl->solver.fieldName(f));
  return names;
}

const AbstractObject &PointsToResult::object(ObjectId id) const {
  return impl->objects[id];
}

const PointsToStats &PointsToResult::getStats() const { return impl->stats; }

std::string PointsToResult::describe(ObjectId id) const {
  const AbstractObject &o = impl->objects[id];
  std::string at;
  if (o.site) {
    const ast::SourcePos &p = o.site->getRange().begin;
    at = "@" + std::to_string(p.line) + ":" + std::to_string(p.column + 1);
    // Objects of other files say which.
    if (!impl->program->modules().empty() &&
        o.file() != impl->program->modules().front()->path)
      at = "@" + llvm::sys::path::filename(o.file()).str() + ":" +
           std::to_string(p.line) + ":" + std::to_string(p.column + 1);
  }
  std::string label = o.label().str();
  switch (o.kind) {
  case Kind::Constant:
    return label;
  case Kind::Function:
    return "def " + label;
  case Kind::Class:
    return "class " + label;
  case Kind::Module:
    return "module " + label;
  case Kind::LibName:
    return "<" + label + ">";
  case Kind::Generator:
    return "generator " + label + at;
  default:
    return label + at;
  }
}

void PointsToResult::print(llvm::raw_ostream &os) const {
  auto set = [&](const std::vector<ObjectId> &objs) {
    std::vector<std::string> names;
    for (ObjectId o : objs)
      names.push_back(describe(o));
    llvm::sort(names);
    return "{" + llvm::join(names, ", ") + "}";
  };
  for (const Impl::ScopeVars &s : impl->frozenScopes) {
    if (s.scope == "<builtins>")
      continue;
    os << "scope " << s.scope << "\n";
    for (unsigned i = s.begin; i < s.end; ++i) {
      const Impl::VarEntry &v = impl->frozenVars[i];
      os << "  " << v.name << " -> "
         << set(impl->toVector(impl->solver.pointsTo(v.node))) << "\n";
    }
  }
  // Fields of the program's own objects (not constants or library names).
  std::vector<std::pair<std::string, ObjectId>> objects;
  for (ObjectId o = 0; o < impl->objects.size(); ++o) {
    Kind k = impl->objects[o].kind;
    if (k != Kind::Constant && k != Kind::LibName && k != Kind::Function &&
        k != Kind::Module)
      objects.push_back({describe(o), o});
  }
  llvm::sort(objects);
  for (const auto &[name, o] : objects) {
    std::vector<std::pair<std::string, std::string>> fields;
    for (pta::FieldId f : impl->solver.fieldsOf(o)) {
      pta::Node n = impl->solver.findField(o, f);
      std::vector<ObjectId> objs = impl->toVector(impl->solver.pointsTo(n));
      if (!objs.empty())
        fields.push_back({impl->solver.fieldName(f).str(), set(objs)});
    }
    if (fields.empty())
      continue;
    llvm::sort(fields);
    os << "object " << name << "\n";
    for (const auto &[f, s] : fields)
      os << "  ." << f << " -> " << s << "\n";
  }
}

std::optional<std::pair<std::string, std::string>>
PointsToResult::importedModule(const ast::Stmt *import,
                               llvm::StringRef dotted) const {
  if (const auto *found = impl->program->importedModule(import, dotted))
    return *found;
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>>
PointsToResult::modulesImportedByName(const ast::Node *call) const {
  if (const auto *at = impl->program->modulesImportedByName(call))
    return *at;
  return {};
}

std::vector<PointsToResult::ObjectId>
PointsToResult::namedDefinitions(const ast::Node *call) const {
  auto it = impl->namedAt.find(call);
  return it == impl->namedAt.end() ? std::vector<ObjectId>{} : it->second;
}

bool PointsToResult::truncated() const { return impl->solver.truncated; }

unsigned PointsToResult::evalsOfAnyName() const {
  return impl->evalsOfAnyName;
}

bool PointsToResult::neverMade(const ast::Node *def) const {
  return !impl->solver.truncated && !impl->made.contains(def);
}

std::vector<std::pair<std::string, std::string>>
PointsToResult::modulesImportedByName() const {
  std::vector<std::pair<std::string, std::string>> all;
  for (const auto &[call, modules] : impl->program->allImportedByName())
    for (const auto &m : modules)
      if (!llvm::is_contained(all, m))
        all.push_back(m);
  llvm::sort(all);
  return all;
}

const std::vector<std::string> &PointsToResult::searchDirs() const {
  return impl->program->searchDirs();
}

//===- Transform.cpp - The determinism rewrite ----------------------------===//
//
// Site numbers: every rewritten construct gets its own site (1, 2, ... in
// source order of planning), the `site` word of its streams. Generator ids
// are the analyses' generator objects (index + 1): the runtime keys a site's
// streams with the seed recorded for its generator.
//
//===----------------------------------------------------------------------===//

#include "detc/codegen/Transform.h"
#include "PlanContext.h"

#include "detc/codegen/PythonScan.h"
#include "detc/frontend/ASTDump.h"
#include "detc/ir/DetcOps.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

#include <set>

using namespace llvm;
using namespace mlir;

namespace detc::codegen {
namespace {

/// How a batch-region draw is rewritten, by its resolved API.
enum class DrawRewrite { None, Function, Module };

DrawRewrite rewriteFor(StringRef api) {
  if (api.consume_front("*."))
    api = api; // a tensor method on a receiver of unknown type
  else
    api.consume_front("torch.Tensor.");
  if (llvm::StringSwitch<bool>(api)
          .Cases("uniform_", "normal_", "bernoulli_", "random_", "bernoulli",
                 true)
          .Default(false))
    return DrawRewrite::Function;
  return llvm::StringSwitch<DrawRewrite>(api)
      .Cases("torch.rand", "torch.randn", "torch.rand_like", "torch.randn_like",
             DrawRewrite::Function)
      .Cases("torch.randint", "torch.randint_like", "torch.bernoulli",
             "torch.normal", "torch.dropout", DrawRewrite::Function)
      .Cases("torch.nn.functional.dropout", "torch.nn.functional.dropout1d",
             "torch.nn.functional.dropout2d", "torch.nn.functional.dropout3d",
             DrawRewrite::Function)
      .Cases("torch.nn.Dropout", "torch.nn.Dropout1d", "torch.nn.Dropout2d",
             "torch.nn.Dropout3d", DrawRewrite::Module)
      .Default(DrawRewrite::None);
}

class Planner : PlanContext {
public:
  using PlanContext::PlanContext;
  const std::vector<std::string> &left() const { return leftNondeterministic; }
  const std::vector<uint32_t> &ownLines() const { return ownLineRequests; }
  /// `file:line` of the draws rewritten with batch_keyed.
  std::vector<std::string> batchKeyedDraws;

  bool run() {
    if (alreadyTransformed() || definesRuntimeFlag())
      return false;
    collectDatasetGenerators();
    // A counted step's draws stay on their generator (inCountedRegion).
    std::vector<analysis::UnsafeUse> keyed;
    llvm::copy_if(a.ts.unsafe, std::back_inserter(keyed),
                  [&](const analysis::UnsafeUse &u) {
                    return !analysis::inCountedRegion(a.graph, u);
                  });
    batchScope = llvm::any_of(keyed, [&](const analysis::UnsafeUse &u) {
      return servedByBatchScope(u);
    });
    keyLoaders();
    for (const analysis::UnsafeUse &u : keyed)
      rewriteUnsafe(u);
    recordSeeds();
    noteUnseeded();
    warnUnseenTraining();
    seedEntropyGenerators();
    planReplay(*this);
    if (!planHints(*this) || !planJitSteps(*this) || !planVaccination(*this) ||
        !planTrace(*this))
      return false;
    flushGuards();
    // Imported modules the planners edited (a JIT boundary in DeiT's
    // `engine.py`): the header installs each edited text in place of the
    // file, before the script imports it (runtime overlay.py), and only
    // over the file detc read: another is exit 3, never the old edits.
    modules = finishModules();
    for (const EditedModule &m : modules)
      extraHeader.push_back(formatv("{0}.overlay.install({1}, \"{2}\", {3})",
                                    kRuntimeAlias,
                                    pyString(m.name),
                                    m.sha256, pyString(m.text))
                                .str());
    insertHeader();
    return !diags.hasErrors();
  }
  std::vector<EditedModule> modules;

private:
  // ---- Run-time flags ---------------------------------------------------------
  /// The transformed script's runtime takes these off sys.argv before the
  /// script's parser runs (runtime/python/detc_runtime/replay.py FLAGS). A
  /// script with a flag of the same name would silently lose it: refused,
  /// at the string that names it.
  bool definesRuntimeFlag() {
    static constexpr StringLiteral kRuntimeFlags[] = {
        "--detc-resume",     "--detc-replay",  "--detc-until",
        "--detc-checkpoint", "--detc-restart", "--detc-profile",
        "--detc-recovery",   "--detc-recovery-log", "--detc-recovery-shared"};
    std::vector<const ast::Node *> work{&tree};
    bool found = false;
    while (!work.empty()) {
      const ast::Node *n = work.back();
      work.pop_back();
      if (auto *c = dyn_cast<ast::Constant>(n))
        for (StringRef flag : kRuntimeFlags)
          if (c->kind == ast::ConstantKind::Str &&
              (c->value == flag || c->value.starts_with((flag + "=").str()))) {
            diags.error(&file, c->getRange().begin,
                        "the script uses the flag '" + flag.str() +
                            "', which the transformed script's detc runtime "
                            "takes off the command line; rename the "
                            "script's flag");
            found = true;
          }
      if (std::optional<StringRef> name = reservedName(n)) {
        diags.error(&file, n->getRange().begin,
                    "the script uses the name '" + name->str() +
                        "'; names starting with '_detc_' are detc's own in "
                        "the transformed script (its runtime module, "
                        "checkpoint helpers, cells): rename it");
        found = true;
      }
      size_t first = work.size();
      ast::forEachChild(n, [&](StringRef, const ast::Node *child) {
        if (child)
          work.push_back(child);
      });
      std::reverse(work.begin() + first, work.end()); // source order
    }
    return found;
  }

  /// A name the script binds or reads that the emitted code uses for
  /// itself (`_detc_rt`, `_detc_ckpt`, ...): the script's would shadow it.
  static std::optional<StringRef> reservedName(const ast::Node *n) {
    auto reserved = [](StringRef name) -> std::optional<StringRef> {
      if (name.starts_with("_detc_"))
        return name;
      return std::nullopt;
    };
    if (auto *name = dyn_cast<ast::Name>(n))
      return reserved(name->id);
    if (auto *arg = dyn_cast<ast::Arg>(n))
      return reserved(arg->arg);
    if (auto *def = dyn_cast<ast::FunctionDef>(n))
      return reserved(def->name);
    if (auto *cls = dyn_cast<ast::ClassDef>(n))
      return reserved(cls->name);
    if (auto *alias = dyn_cast<ast::Alias>(n))
      return reserved(alias->asname.empty()
                          ? alias->name.split('.').first
                          : alias->asname);
    if (auto *global = dyn_cast<ast::Global>(n))
      for (StringRef name : global->names)
        if (std::optional<StringRef> r = reserved(name))
          return r;
    return std::nullopt;
  }

  // ---- Already transformed --------------------------------------------------
  /// A script detc transformed imports the runtime at the start of a line
  /// (text in comments or strings does not count).
  bool alreadyTransformed() {
    for (size_t at = 0; at < src.size();) {
      size_t code = src.find_first_not_of(" \t", at);
      StringRef rest = code == StringRef::npos ? "" : src.substr(code);
      if (rest.starts_with("import detc_runtime") ||
          rest.starts_with("from detc_runtime")) {
        diags.error(&file, posAt(code),
                    "this script was already transformed by detc (it imports "
                    "detc_runtime); transform the original script instead");
        return true;
      }
      size_t nl = src.find('\n', at);
      if (nl == StringRef::npos)
        break;
      at = nl + 1;
    }
    return false;
  }

  // ---- Rewrites -------------------------------------------------------------
  void keyLoaders() {
    // A loader given to a library's loop may be rebuilt there, and
    // accelerate's prepare makes a new DataLoader over its sampler: keyed
    // at run time where the library constructs it.
    module.walk([&](Operation *op) {
      if (op->hasAttr("library_loop") || op->hasAttr("rebuilds_loaders"))
        importedLoaders = true;
    });
    module.walk([&](ir::BatchesOp op) {
      std::optional<StringRef> api = op.getApi();
      // A subclass of DataLoader the program defines (yolov5's
      // InfiniteDataLoader, which keeps one iterator for all epochs) is
      // keyed as DataLoader is: keyed_loader builds the keyed subclass of
      // the class the call names (the runtime: docs/replay.md, "Loaders
      // that repeat").
      if (!api || !api->starts_with("torch.utils.data.DataLoader")) {
        // A loader a library's function makes (timm's create_loader): its
        // DataLoader is built in code detc does not rewrite, and keyed at
        // run time where the library constructs torch's DataLoader, as
        // for the script's own modules (so is a subclass of it the
        // library defines: docs/analysis.md, "Library source").
        if (op->getAttrOfType<StringAttr>("library_loader"))
          importedLoaders = true;
        return;
      }
      // Built in a module the script imports: keyed at run time where that
      // module looks DataLoader up (key_imported_loaders in the header).
      if (!spanOf(op)) {
        importedLoaders = true;
        return;
      }
      unsigned site = streamSite(op, "loader");
      // Loaders over the same dataset variable share the examples' scope
      // streams (a DDP branch and a single-process branch of one script
      // give an example the same augmentation).
      auto fn = op->getParentOfType<ir::FuncOp>();
      std::string dataset =
          (fn ? fn.getSymName().str() : std::string()) + "/" +
          op.getDataset().str();
      auto [it, added] = scopeSites.try_emplace(dataset, 0);
      if (added)
        it->second = streamSite(nullptr, "scope|" + dataset);
      std::string attrs;
      for (auto &[attr, gen] : datasetGenerators)
        attrs += formatv("(\"{0}\", {1}), ", attr, gen).str();
      if (!attrs.empty())
        attrs = formatv("scope_attrs=({0}), ", attrs).str();
      allLoadersKeyed &= wrapCallee(
          op,
          formatv("{0}.keyed_loader({1}, gens={2}, scope_site={3}, "
                  "{4}{5}loader_class=",
                  kRuntimeAlias, site, scopeGenerators(), it->second, attrs,
                  batchScope ? batchScopeArgument() + ", " : "")
              .str(),
          "the DataLoader",
          formatv("keyed sampler and example scopes (site {0})", site).str());
    });
    // A keyed loader draws its shuffle and its workers' base seed from a
    // generator of its own, so iterating it leaves torch's global one as
    // it was (unless a batch scope reseeds the global generators around
    // each batch).
    if (!allLoadersKeyed || batchScope)
      return;
    module.walk([&](ir::DrawOp d) {
      std::optional<StringRef> api = d.getApi();
      if (api && api->starts_with("torch.utils.data.DataLoader") &&
          api->ends_with(".__iter__"))
        stateKeepingDraws.insert(d);
    });
  }
  bool allLoadersKeyed = true;

  /// Whether the keyed loaders open a batch scope (servedByBatchScope).
  bool batchScope = false;
  unsigned batchScopeSite = 0;
  /// `batch_scope=SITE` when the loaders open one (one site for all).
  std::string batchScopeArgument() {
    if (!batchScope)
      return "";
    if (!batchScopeSite)
      batchScopeSite = streamSite(nullptr, "batch_scope");
    return formatv("batch_scope={0}", batchScopeSite).str();
  }

  /// A draw from a library's global generator in code of a module the
  /// script imports (a TRADES loss, a mixup helper), inside a loop over
  /// batches: detc does not edit that module, but the keyed loader's batch
  /// scope reseeds the global generators from each batch's stream, so what
  /// it draws depends on the batch only (keyed_loader's batch_scope).
  bool servedByBatchScope(const analysis::UnsafeUse &u) {
    Operation *draw = a.graph.node(u.draw).op;
    if (!draw || spanOf(draw) || u.region == analysis::kNoNode)
      return false;
    auto region = dyn_cast_or_null<ir::ParallelOp>(a.graph.node(u.region).op);
    const analysis::GeneratorObject &obj = a.gens->objects()[u.object];
    // Dropout layers imported modules build are keyed per example where
    // those modules look their class up (key_imported_layers).
    auto drawOp = dyn_cast<ir::DrawOp>(draw);
    StringRef api = drawOp && drawOp.getApi() ? *drawOp.getApi() : "";
    if (api.starts_with("torchvision.models.") ||
        rewriteFor(api) == DrawRewrite::Module)
      return false;
    return region && region.getKind() == ir::ParallelKind::PerBatch &&
           obj.kind == analysis::GeneratorObject::Global &&
           (obj.library == "torch" || obj.library == "numpy" ||
            obj.library == "random");
  }

  /// The scope site of each dataset variable (function/variable).
  std::map<std::string, unsigned> scopeSites;

  /// What every example scope of a keyed loader reseeds: torch's global
  /// generator, and numpy's and random's when something may draw from them
  /// during a fetch (mayDrawHidden), each with the id of its generator
  /// object (whose recorded seed its streams follow; 0, the run's seed,
  /// when the script never uses it). A reseed costs 1.4 (torch), 2.7
  /// (numpy) and 5.5 us (random) per example (bench/rng_throughput.py).
  std::string scopeGenerators() {
    std::vector<std::string> pairs;
    for (StringRef library : {"torch", "numpy", "random"}) {
      if (library != "torch" && !mayDrawHidden(library))
        continue;
      unsigned id = 0;
      for (auto [o, obj] : llvm::enumerate(a.gens->objects()))
        if (obj.kind == analysis::GeneratorObject::Global &&
            obj.library == library)
          id = o + 1;
      pairs.push_back(formatv("({0}, \"{1}\")", id, library).str());
    }
    return "(" + llvm::join(pairs, ", ") + (pairs.size() == 1 ? ",)" : ")");
  }

  /// Whether code running in an example scope may draw from `library`'s
  /// global generator: the program draws from it somewhere (its own code
  /// and the local modules, API-modelled library calls included), or it
  /// imports a module whose code detc does not see and that may draw
  /// from it unseen (timm's and albumentations' augmentations draw from
  /// `random` and numpy): the lowering's `detc.unread_imports`, the
  /// imports neither modelled by a table nor declared quiet in
  /// api/python.api.
  bool mayDrawHidden(StringRef library) {
    if (auto imports = module->getAttrOfType<ArrayAttr>("detc.unread_imports"))
      if (!imports.empty())
        return true;
    // A draw in code the expansion does not reach (a transform's
    // `__call__` that a library Compose calls) is still in the IR.
    std::string global = ("<" + library + ">").str();
    bool drawn = false;
    module.walk([&](ir::DrawOp d) { drawn |= d.getGen() == global; });
    if (drawn)
      return true;
    for (analysis::NodeId n = 0; n < a.graph.numNodes(); ++n)
      if (a.graph.node(n).kind == analysis::NodeKind::Draw)
        for (unsigned o : a.gens->drawn(n)) {
          const analysis::GeneratorObject &obj = a.gens->objects()[o];
          if (obj.library == library &&
              obj.kind != analysis::GeneratorObject::Site)
            return true;
        }
    return false;
  }

  void rewriteUnsafe(const analysis::UnsafeUse &u) {
    Operation *draw = a.graph.node(u.draw).op;
    if (!draw || !done.insert(draw).second)
      return;
    auto region =
        u.region == analysis::kNoNode
            ? ir::ParallelOp()
            : dyn_cast_or_null<ir::ParallelOp>(a.graph.node(u.region).op);
    const analysis::GeneratorObject &obj = a.gens->objects()[u.object];
    unsigned gen = u.object + 1;
    errGens.insert(u.object);
    std::string name = obj.describe(a.graph);
    if (region && region.getKind() == ir::ParallelKind::PerExample) {
      if (checkScoped(draw, obj, name, u.object))
        stateKeepingDraws.insert(draw);
      return;
    }
    auto drawOp = dyn_cast<ir::DrawOp>(draw);
    StringRef api = drawOp && drawOp.getApi() ? *drawOp.getApi() : "";
    DrawRewrite how = rewriteFor(api);
    if (servedByBatchScope(u)) {
      batchKeyedDraws.push_back(where(draw));
      return;
    }
    // A torchvision model whose layers include nn.Dropout: torchvision
    // builds them through torch.nn, keyed the same way. An architecture
    // chosen at run time (`models.__dict__[args.arch]()`) may be one of
    // those, or one detc cannot key (stochastic depth, functional dropout).
    StringRef dist = drawOp ? drawOp.getDist() : "";
    if (api.starts_with("torchvision.models.") && obj.library == "torch" &&
        (dist == "dropout" || dist == "any_model")) {
      importedLayers["torch.nn.Dropout"] = gen;
      if (dist != "any_model")
        stateKeepingDraws.insert(draw);
      if (dist == "any_model")
        warning(spanOf(draw) ? spanOf(draw)->exprBegin : 0,
                "the model's architecture is chosen at run time: its "
                "nn.Dropout layers are keyed, but stochastic depth "
                "(convnext, swin, efficientnet, maxvit) and the functional "
                "dropout of googlenet/inception_v3 auxiliary heads stay "
                "nondeterministic [detc-unrewritable]");
      return;
    }
    // Dropout inside torch's own layers (an encoder layer, an LSTM's
    // dropout between layers, attention), fractional pooling's regions: no
    // per-example key reaches them. They draw in this process from torch's
    // global generator, so runs stay deterministic and every checkpoint
    // restores that generator; what changes the values is the batch order,
    // not the worker count.
    if ((dist == "library_dropout" || dist == "library_draw") &&
        obj.library == "torch" &&
        obj.kind == analysis::GeneratorObject::Global) {
      stateKeepingDraws.insert(draw);
      bool dropout = dist == "library_dropout";
      warning(spanOf(draw) ? spanOf(draw)->exprBegin : 0,
              "'" + api + "' draws its " +
                  (dropout ? "dropout masks" : "random samples") +
                  " from torch's global generator inside torch: detc "
                  "cannot key them per example; runs stay deterministic "
                  "and checkpoints restore the generator, but the " +
                  (dropout ? "masks" : "samples") +
                  " follow the order of the draws, not the examples" +
                  (dropout ? " (dropout=0 draws nothing)" : "") +
                  " [detc-library-draw]");
      return;
    }
    if ((how == DrawRewrite::None || obj.library != "torch") &&
        batchKeyable(obj, api)) {
      // One value per batch (a mixup lambda, a permutation of the batch):
      // keyed by the batch, not per example.
      unsigned site = streamSite(draw, "batch");
      if (wrapCallee(draw,
                     formatv("{0}.batch_keyed({1}, {2}, ", kRuntimeAlias, site,
                             gen)
                         .str(),
                     "'" + api.str() + "'",
                     formatv("per-batch keyed draw (site {0})", site).str())) {
        stateKeepingDraws.insert(draw);
        batchKeyedDraws.push_back(where(draw));
      }
      return;
    }
    if (how == DrawRewrite::None || obj.library != "torch") {
      unrewritable(draw, "cannot make the random call '" + api + "' (generator " +
                      name +
                      ") deterministic inside a batch region: detc has no "
                      "per-example keyed version of it [detc-unrewritable]");
      return;
    }
    // A layer built in a module the script imports: the runtime keys its
    // class where the module looks it up (key_imported_layers).
    if (!spanOf(draw) && how == DrawRewrite::Module) {
      importedLayers[api.str()] = gen;
      stateKeepingDraws.insert(draw);
      return;
    }
    unsigned site = streamSite(draw, "draw");
    const char *fn = how == DrawRewrite::Module ? "keyed_module" : "keyed";
    if (wrapCallee(draw,
                   formatv("{0}.{1}({2}, {3}, ", kRuntimeAlias, fn, site, gen),
                   "'" + api.str() + "'",
                   formatv("per-example keyed {0} (site {1})",
                           how == DrawRewrite::Module ? "module" : "draw", site)
                       .str()))
      stateKeepingDraws.insert(draw);
  }

  /// A draw of a library-global generator that the runtime can key per
  /// batch (batch_keyed): numpy's and random's module functions, and the
  /// torch functions that take a `generator=`.
  static bool batchKeyable(const analysis::GeneratorObject &obj,
                           StringRef api) {
    if (obj.kind != analysis::GeneratorObject::Global)
      return false;
    if (obj.library == "numpy")
      return api.starts_with("numpy.random.") &&
             !api.ends_with(".seed") && !api.ends_with("_state");
    if (obj.library == "random")
      return api.starts_with("random.") && !api.ends_with(".seed") &&
             !api.ends_with("state");
    return obj.library == "torch" &&
           llvm::is_contained({"torch.randperm", "torch.multinomial",
                               "torch.poisson"},
                              api);
  }

  /// Generator objects a dataset keeps (`self.rng = np.random.RandomState(0)`
  /// in `__init__`, drawn from in `__getitem__`): every worker has a copy,
  /// so the draws depend on which worker loads an example. The keyed
  /// loader's scope reseeds them per example too (attribute of the
  /// dataset -> generator id).
  void collectDatasetGenerators() {
    for (const analysis::UnsafeUse &u : a.ts.unsafe) {
      auto region =
          u.region == analysis::kNoNode
              ? ir::ParallelOp()
              : dyn_cast_or_null<ir::ParallelOp>(a.graph.node(u.region).op);
      const analysis::GeneratorObject &obj = a.gens->objects()[u.object];
      if (!region || region.getKind() != ir::ParallelKind::PerExample ||
          obj.kind == analysis::GeneratorObject::Global)
        continue;
      // `self.rng` in __getitem__ (whose `self` is the caller's
      // `loader.dataset`): an attribute of the dataset, at the path a
      // variable holding the generator names below the region's
      // `loader.dataset` (`transform.mask_func.rng`: a mask function the
      // script made and gave the dataset's transform), else its last
      // attribute (the runtime warns when the dataset, or one it wraps,
      // has no generator there).
      std::string below;
      if (!region.getUses().empty())
        below = (cast<StringAttr>(region.getUses()[0]).getValue() +
                 ".dataset.")
                    .str();
      auto isPath = [](StringRef path) {
        return !path.empty() && llvm::all_of(path, [](char c) {
          return llvm::isAlnum(c) || c == '_' || c == '.';
        });
      };
      std::string attr;
      for (analysis::VarId v = 0; v < a.graph.vars.size(); ++v) {
        if (!is_contained(a.gens->pointsTo(v), u.object))
          continue;
        std::string name = a.graph.displayName(v);
        if (!below.empty() && StringRef(name).starts_with(below) &&
            isPath(StringRef(name).drop_front(below.size()))) {
          attr = name.substr(below.size());
          break;
        }
        StringRef last = StringRef(name).rsplit('.').second;
        if (attr.empty() && StringRef(name).contains('.') &&
            isPath(last) && !last.contains('.'))
          attr = last.str();
      }
      if (!attr.empty()) {
        datasetGenerators[attr] = u.object + 1;
        heldByDataset.insert(u.object);
      }
    }
  }
  /// Dataset attribute -> generator id (collectDatasetGenerators).
  std::map<std::string, unsigned> datasetGenerators;
  /// The generators at those attributes: each is reseeded there, whichever
  /// one the dataset holds at run time (a class making its `self.rng`,
  /// constructed on two branches, gives two).
  std::set<unsigned> heldByDataset;

  /// Unsafe draws inside a per-example region (a DataLoader's workers) are
  /// served where they are, whatever code draws them (a torchvision
  /// transform, a dataset of an imported module): every example a keyed
  /// loader fetches runs in an example scope reseeding the library-global
  /// generators (keyLoaders; runtime ScopedDataset). Other generator
  /// objects are shared by the workers: no scope can key them.
  /// Whether the draw is keyed by the example scope.
  bool checkScoped(Operation *draw, const analysis::GeneratorObject &obj,
                   const std::string &name, unsigned object) {
    if (obj.kind != analysis::GeneratorObject::Global &&
        heldByDataset.count(object))
      return true; // reseeded as an attribute of the dataset
    if (obj.kind != analysis::GeneratorObject::Global ||
        (obj.library != "torch" && obj.library != "numpy" &&
         obj.library != "random")) {
      unrewritable(draw, "cannot make draws from generator " + name +
                      " deterministic inside a DataLoader's workers: the "
                      "object is shared by every worker; detc keys the "
                      "library-global generators (torch, np.random, random) "
                      "and generators the dataset holds as attributes "
                      "(self.rng) there [detc-unrewritable]");
      return false;
    }
    return true;
  }

  /// Whether modules the script imports construct DataLoaders.
  bool importedLoaders = false;

  /// Dropout classes whose layers imported modules build (qualified API
  /// name -> generator id), keyed at run time before the script imports
  /// those modules.
  std::map<std::string, unsigned> importedLayers;

  /// The seed calls of ERR generators record their seed: the keyed streams
  /// of a generator follow the script's own seed.
  void recordSeeds() {
    // By call: one call may seed several libraries (seed_everything
    // makes a create op per library), and is wrapped once for all.
    llvm::MapVector<uint32_t, std::pair<Operation *, std::set<unsigned>>>
        byCall;
    for (analysis::NodeId n = 0; n < a.graph.numNodes(); ++n) {
      if (a.graph.node(n).kind != analysis::NodeKind::Create)
        continue;
      auto create = dyn_cast_or_null<ir::CreateGeneratorOp>(a.graph.node(n).op);
      if (!create || !create.getSeeded() || !spanOf(create))
        continue;
      for (unsigned o : a.gens->created(n))
        if (errGens.count(o)) {
          auto &entry = byCall[spanOf(create)->exprBegin];
          if (!entry.first)
            entry.first = create;
          entry.second.insert(o + 1);
        }
    }
    for (auto &[begin, entry] : byCall) {
      std::string gens;
      for (unsigned g : entry.second)
        gens += (gens.empty() ? "" : ", ") + std::to_string(g);
      if (entry.second.size() > 1)
        gens = "(" + gens + ")";
      wrapCallee(entry.first,
                 formatv("{0}.seeding({1}, ", kRuntimeAlias, gens).str(),
                 "the seed call", "seed recorded for the keyed streams");
    }
  }

  /// A generator object made without a seed from the operating system's
  /// entropy (`rng = np.random.default_rng()`, `random.Random()`, any
  /// `random.SystemRandom()`: the tables' `entropy`) draws another sequence
  /// every run, whatever seeds the script sets: its construction is
  /// wrapped so that it is seeded from the run's seed and the site (each
  /// construction there in turn, and the example or worker it runs in).
  /// So is a seed call that seeds from that entropy (`random.seed()`,
  /// `torch.seed()`), and one whose seed may be None when it runs
  /// (`random.seed(args.seed)`, `--seed` defaulting to None): the runtime
  /// seeds from the run's seed when it is, and says so.
  void seedEntropyGenerators() {
    std::set<Operation *> done;
    for (analysis::NodeId n = 0; n < a.graph.numNodes(); ++n) {
      auto create =
          dyn_cast_or_null<ir::CreateGeneratorOp>(a.graph.node(n).op);
      if (!create || !create->hasAttr("entropy") ||
          !done.insert(create).second)
        continue;
      // A seed that may be None: one in a module the script imports (no
      // call of this script) is left as it is — it is a seed there. One
      // without any (`random.Random()`) wrapCallee reports, loudly.
      bool maybeNone = create->hasAttr("seeded");
      if (maybeNone && !calleeWrappable(create))
        continue;
      // (A seed call reseeds a global generator or its receiver.)
      bool construction =
          !create->hasAttr("reseed") &&
          none_of(a.gens->created(n), [&](unsigned o) {
            return a.gens->objects()[o].kind ==
                   analysis::GeneratorObject::Global;
          });
      unsigned site = streamSite(create, "entropy");
      std::string suffix = ")";
      if (auto param = create->getAttrOfType<StringAttr>("seed_param"))
        suffix = formatv(", {0})", pyString(param.getValue())).str();
      if (!wrapCallee(create,
                      formatv("{0}.entropy_seeded({1}, ", kRuntimeAlias, site)
                          .str(),
                      construction ? "the construction of a generator that "
                                     "takes its seed from the operating "
                                     "system's entropy"
                                   : "a seed call that seeds from the "
                                     "operating system's entropy",
                      maybeNone ? "seeded from the run's seed if its seed "
                                  "is None (the operating system's entropy)"
                                : "seeded from the run's seed (it took the "
                                  "operating system's entropy)",
                      suffix))
        continue;
      if (maybeNone)
        continue; // (the runtime says so when it is None)
      note(create,
           construction
               ? "this generator takes its seed from the operating system's "
                 "entropy (a different sequence every run): the transformed "
                 "script seeds it from --seed or DETC_SEED (0 by default) "
                 "and its site [detc-seed]"
               : "this call seeds from the operating system's entropy (a "
                 "different sequence every run): the transformed script "
                 "seeds from --seed or DETC_SEED (0 by default) and its "
                 "site instead [detc-seed]");
    }
  }

  /// The transformed script seeds every global generator before the
  /// script's first statement (configure(): from --seed / DETC_SEED, 0 by
  /// default), so a script that never seeds one is deterministic from its
  /// first line; the report names the ones this script never seeds (torch
  /// always counts: model initialisation draws from it).
  void noteUnseeded() {
    std::set<std::string> used = {"torch"}, seeded;
    for (const analysis::GeneratorObject &obj : a.gens->objects())
      if (obj.kind == analysis::GeneratorObject::Global)
        used.insert(obj.library);
    for (analysis::NodeId n = 0; n < a.graph.numNodes(); ++n) {
      auto create =
          dyn_cast_or_null<ir::CreateGeneratorOp>(a.graph.node(n).op);
      if (!create || !create.getSeeded() ||
          a.graph.node(n).kind != analysis::NodeKind::Create)
        continue;
      for (unsigned o : a.gens->created(n))
        if (a.gens->objects()[o].kind == analysis::GeneratorObject::Global)
          seeded.insert(a.gens->objects()[o].library);
    }
    std::vector<std::string> never;
    for (const char *lib : {"torch", "numpy", "random"})
      if (used.count(lib) && !seeded.count(lib))
        never.push_back(lib);
    if (never.empty())
      return;
    diags.report(frontend::Severity::Note, &file, ast::SourcePos{},
                 "the script never seeds the global generator of " +
                     llvm::join(never, ", ") +
                     ": the transformed script seeds torch, numpy and "
                     "random before its first statement, from --seed or "
                     "DETC_SEED (0 by default), so its runs are "
                     "deterministic [detc-seed]");
  }

  /// The script's training may run in code detc could not read
  /// (detc-unseen-training): the transformed script keys and checkpoints
  /// only what detc sees, so the transform says so, as `analyze` does.
  void warnUnseenTraining() {
    std::optional<analysis::Finding> f =
        analysis::unseenTraining(a, file.getName());
    if (!f)
      return;
    diags.report(frontend::Severity::Warning, &file, ast::SourcePos{},
                 "detc found no training step in the code it could read; "
                 "the training may run in code it could not read, at " +
                     f->at.file + ":" + std::to_string(f->at.line) + ":" +
                     std::to_string(f->at.column) + ": " +
                     f->notes.front().message +
                     ". Its random draws and data loading are not keyed, "
                     "and its state is not checkpointed, by the "
                     "transformed script [detc-unseen-training]");
  }

  /// `import detc_runtime` goes after the shebang, the coding cookie, the
  /// docstring and the `from __future__` imports.
  void insertHeader() {
    unsigned after = leadingBlockEnd();
    // The import alone: where it fails (ModuleNotFoundError), Python's
    // traceback shows this line, and its note says what to do.
    std::vector<std::string> imports;
    if (!options.runtimePath.empty())
      imports.push_back(
          formatv("import sys as _detc_sys; _detc_sys.path.insert(0, {0})",
                  pyString(options.runtimePath)));
    imports.push_back(formatv("import detc_runtime as {0}", kRuntimeAlias));
    edits.insertLines(after + 1, imports,
                      "per-example RNG runtime (not found? install detc "
                      "into this Python, or PYTHONPATH=<detc build>/python)");
    std::vector<std::string> lines;
    std::string args;
    if (options.seed)
      args += formatv("seed={0}", *options.seed).str();
    if (!options.deterministicKernels)
      args +=
          std::string(args.empty() ? "" : ", ") + "deterministic_kernels=False";
    // Ties the checkpoints the script writes to this script (docs/replay.md).
    std::array<uint8_t, 32> digest = SHA256::hash(arrayRefFromStringRef(src));
    args += std::string(args.empty() ? "" : ", ") + "script_sha256=\"" +
            toHex(digest, /*LowerCase=*/true) + "\"";
    // Scripts with hints can be profiled (--detc-profile): the runtime
    // needs what a checkpoint at each hint saves, and where lines were
    // inserted (these included) to name lines as in the original.
    // DataLoaders and dropout layers that imported modules build are keyed
    // before the script imports those modules.
    std::vector<std::string> layers;
    if (importedLoaders) {
      unsigned site = streamSite(nullptr, "imported_loaders");
      layers.push_back(
          formatv("{0}.key_imported_loaders({1}, gens={2}{3})", kRuntimeAlias,
                  site, scopeGenerators(),
                  batchScope ? ", " + batchScopeArgument() : "")
              .str());
    }
    for (auto &[api, gen] : importedLayers)
      layers.push_back(formatv("{0}.key_imported_layers({1}, {2}, (\"{3}\",))",
                               kRuntimeAlias,
                               streamSite(nullptr, "imported_layer|" + api),
                               gen, api)
                           .str());
    std::map<unsigned, std::vector<std::string>> saves = hintSaveTable(*this);
    if (!saves.empty()) {
      std::map<unsigned, unsigned> inserted = edits.insertedBefore();
      // The imports are among the lines inserted already.
      inserted[after + 1] += 1 + layers.size() +
                             extraHeader.size() +
                             (options.hint && options.hint->jit ? 1 : 0);
      std::string map, table;
      for (auto [line, count] : inserted)
        map += formatv("{0}{1}:{2}", map.empty() ? "" : ",", line, count);
      for (auto &[line, keys] : saves) {
        std::string names;
        for (const std::string &k : keys)
          names += "\"" + k + "\", ";
        table +=
            formatv("{0}{1}: ({2})", table.empty() ? "" : ", ", line, names);
      }
      args +=
          formatv(", inserted_lines=\"{0}\", hint_values={{{1}}", map, table)
              .str();
    }
    if (!leftNondeterministic.empty()) {
      std::string list;
      for (const std::string &at : leftNondeterministic)
        list += pyString(at) + ", ";
      args += formatv(", left_nondeterministic=({0})", list).str();
    }
    lines.push_back(formatv("{0}.configure({1})", kRuntimeAlias, args));
    if (options.hint && options.hint->jit)
      lines.push_back(formatv("{0}.jit.enable({1})", kRuntimeAlias,
                              options.hint->guardStep ? "guard_step=True" : ""));
    lines.insert(lines.end(), layers.begin(), layers.end());
    lines.insert(lines.end(), extraHeader.begin(), extraHeader.end());
    edits.insertLines(after + 1, lines,
                      "per-example RNG runtime; deterministic kernels");
  }


  llvm::DenseSet<Operation *> done;
  llvm::DenseSet<unsigned> errGens;
};

} // namespace

bool planDeterminism(const frontend::SourceFile &file, const ast::Module &tree,
                     ModuleOp module, const analysis::ProgramAnalysis &a,
                     const TransformOptions &options,
                     frontend::DiagnosticEngine &diags, EditList &edits,
                     TransformSummary *summary) {
  Planner planner(file, tree, module, a, options, diags, edits);
  bool ok = planner.run();
  if (summary) {
    summary->leftAsIs = planner.left();
    summary->batchKeyed = planner.batchKeyedDraws;
    summary->ownLineRequests = planner.ownLines();
    summary->modules = planner.modules;
  }
  return ok;
}

} // namespace detc::codegen

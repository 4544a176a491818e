//===- Constraints.h - Python semantics as inclusion constraints -*- C++ -*-===//
//
// Walks the AST of every module once and states, for each statement and
// expression, what flows where (Solver.h). Calls register handlers on
// their callee: every function, class, method or library callable that
// reaches it is bound as CPython binds a call.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_LOWERING_POINTSTO_CONSTRAINTS_H
#define DETC_LIB_FRONTEND_LOWERING_POINTSTO_CONSTRAINTS_H

#include "Program.h"
#include "Solver.h"

#include "../Scopes.h"

#include "detc/frontend/ApiModel.h"
#include "detc/frontend/PointsTo.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <deque>
#include <map>
#include <set>

namespace detc::frontend::pta {

/// A function, lambda, module body or class body being analysed.
struct Frame {
  std::string symbol;
  ProgramModule *module = nullptr;
  const ast::FunctionDef *def = nullptr; ///< Functions (not lambdas).
  Frame *parent = nullptr; ///< Enclosing function (closures).
  Scope scope;
  bool isModule = false, isClassBody = false;
  Obj classObj = ~0u;          ///< Class body: its class.
  std::string enclosingClass;  ///< Methods: their class symbol.
  Node selfNode = ~0u;         ///< Methods: the first parameter.
  /// Functions: holds an object once the function may run (it is called,
  /// a library is given it, it is a method of an instantiated class). The
  /// script's functions are analysed before that (their findings are the
  /// user's), but the functions and lambdas they define exist only then:
  /// a lambda of a method no instance runs (a subclass's override never
  /// instantiated) is no candidate callee of the helpers it would be
  /// given to.
  Node ran = ~0u;
  Node returns = 0, yields = 0;
  /// Straight-line values of locals (a function's): a local assigned by
  /// `name = value` earlier in the same statement list, with nothing in
  /// between that may bind it, holds that value's objects only where it is
  /// read (`boxes = [...]; boxes = torch.as_tensor(boxes); boxes[:, 0]`);
  /// the variable itself keeps every value (closures, queries by name).
  llvm::StringMap<Node> current;
  /// The locals that qualify: not bound by a comprehension or a walrus, not
  /// `nonlocal` in a nested function (computed on first use).
  std::optional<llvm::StringSet<>> straightLine;
};

/// What calling a function object binds.
struct FunctionInfo {
  const ast::Arguments *args = nullptr;
  Frame *frame = nullptr;
  std::vector<Node> params; ///< posonly, args, vararg, kwonly, kwarg order
  bool isGenerator = false;
  Obj generator = ~0u;
  /// The body's constraints are made when the function may run (it is
  /// called, a library is given it, its class is instantiated), not where
  /// it is defined: a package's unused functions (a model zoo's thousand
  /// builders) cost nothing.
  const ast::Node *def = nullptr;
  const ast::Expr *lambdaBody = nullptr;
  bool active = false;
};

struct ClassInfo {
  std::string symbol;
  std::vector<Node> bases;
  std::vector<Node> decorators;
  const ast::ClassDef *def = nullptr;
};

class Builder {
public:
  Builder(Program &program, const ApiModel &api, DiagnosticEngine &diags,
          PointsToResult::Impl &out);
  void run();
  /// PointsToOptions::evalAnyNameAsUnknown.
  bool evalAnyNameAsUnknown = false;
  /// With the solver's `profile` set: the `n` statements that made the
  /// most constraints, as `file:line` and count.
  std::vector<std::pair<std::string, size_t>> topSources(size_t n) const;

private:
  friend struct PointsToResult::Impl;
  // ---- Objects ----
  Obj newObject(AbstractObject::Kind kind, std::string label,
                const ast::Node *site, const ProgramModule *m);
  /// One object per (site, label): handlers may run more than once.
  Obj objectAt(AbstractObject::Kind kind, llvm::StringRef label,
               const ast::Node *site, const ProgramModule *m);
  Obj constant(llvm::StringRef text);
  Obj libName(llvm::StringRef qualName);
  /// Whether `label` (of a Library object) names code of a module declared
  /// quiet, so that its parts (attributes, elements) are its code too.
  bool quietLibrary(llvm::StringRef label) const;
  /// Whether `label` names library code that neither a table describes
  /// nor a quiet declaration covers: it may do anything with what it is
  /// given.
  bool unmodelledLibraryCode(llvm::StringRef label) const;
  /// The object of local module `m`, made once. Importing `a.b` makes `b`
  /// an attribute of package `a` (CPython sets it, whichever import loads
  /// it: `from .util import f` in `a/__init__.py` too), so `a.b.f()` works.
  Obj moduleObject(ProgramModule *m);
  /// Entries of `dict` for the globals of `module`'s frame, by name and
  /// at any key (`globals()`, a module's `__dict__`).
  void fillGlobals(Obj dict, const Frame &module);

  // ---- Nodes ----
  Node varNode(Frame &f, llvm::StringRef name);
  /// Whether `name`, read in `f`, is bound nowhere: no scope of `f`'s
  /// binds it, no function of its module declares it `global`, it is no
  /// type parameter and no builtin (builtins.api), and its module has no
  /// way of binding names unseen (ModuleBindings::bindsUnseen).
  bool undefinedIn(Frame &f, llvm::StringRef name);
  /// Whether any module may read `name` without binding it: a builtin, or
  /// detc's `_checkpoint` hint.
  bool readsUnbound(llvm::StringRef name) const;
  /// What a module binds besides its top-level statements.
  struct ModuleBindings {
    /// Names its functions declare `global`.
    llvm::StringSet<> declaredGlobal;
    /// Type parameters anywhere in it (PEP 695 `def f[T]`, `type A[K] =
    /// ...`), which their own scopes bind (taken as bound everywhere).
    llvm::StringSet<> typeParams;
    /// It may bind names no statement shows: a star import, `globals()`,
    /// `exec`, `builtins`.
    bool bindsUnseen = false;
  };
  const ModuleBindings &bindingsOf(ProgramModule &m);
  /// Whether reads of local `name` of `f` may take its straight-line value
  /// (Frame::current).
  bool straightLine(Frame &f, llvm::StringRef name);
  Node scopeNode(llvm::StringRef scope, llvm::StringRef name);
  Node field(Obj o, llvm::StringRef name) {
    return solver.fieldNode(o, solver.fieldId(name));
  }
  /// `dst` ⊇ field `name` of every object of `base`.
  void load(Node base, llvm::StringRef name, Node dst);
  /// Field `name` of every object of `base` ⊇ `src`.
  /// `base.<fid>` (also `getattr(base, "name")`) into `n`: the field,
  /// and: attributes of library names are library names
  /// (`torch.nn.Linear`; `lib.__dict__` is a name table); an attribute of
  /// what a method of unknown type returned (`args.workers` of
  /// `parser.parse_args()`) or of a quiet library's object is some value:
  /// not absent, not modelled.
  void loadAttribute(Node base, FieldId fid, Node n);
  /// `mod.<name>` of a module imported by a name detc cannot compute (a
  /// file or name from the command line): besides some library's
  /// attribute, the class or function `name` of each of the project's
  /// modules that defines one (Program::modulesDefining), which that
  /// module may be — YOLOX's `get_exp(file).Exp()` over exps/*.py.
  void loadRuntimeModuleAttribute(llvm::StringRef name, Node n);
  /// A node holding every named attribute of `o` (not its `[i]`
  /// elements): what `getattr(o, computed)` may give. One per object,
  /// shared by every such site: a copy edge per site and object instead of
  /// one per site, object and attribute (timm's `module = getattr(module,
  /// name)` loops made 9.7 million edges and 80 s of resnet.py).
  Node anyNamedAttribute(Obj o);
  /// `x.__dict__` (the attribute expression), whose entries are the
  /// attributes of x; null for any other expression.
  static const ast::Attribute *namespaceOf(const ast::Expr *e);
  /// The node of the object `a` (an attribute expression) is read off.
  Node ownerNode(Frame &f, const ast::Attribute *a);
  /// `obj.name` where the class of instance `obj` defines `name` as a
  /// `@property` (or `cached_property`): what its getter returns.
  void loadProperty(Obj instance, llvm::StringRef name, Node dst);
  void store(Node base, llvm::StringRef name, Node src);
  /// `setattr(base, name, src)` with a computed `name` (and
  /// `add_module(name, layer)`): into the attributes possibleNames says
  /// it may be; a head (`"head" + str(i)`) into every attribute starting
  /// with it and into a marker field, `head<*>`, that a computed read with
  /// a matching head reads; a name the source does not show into the
  /// marker `<*>` only (computed reads and iteration see it).
  void storeComputed(Node base, const ast::Expr *name,
                     const ast::FunctionDef *where, Node src);
  /// `dst` ⊇ what iterating any object of `iterable` yields.
  void elements(Node iterable, Node dst);
  /// Every field of every object of `src` flows to the same field of every
  /// object of `dst` (dict.update, `{**a}`).
  void mergeFields(Node src, Node dst);

  // ---- Statements and expressions ----
  void body(Frame &f, llvm::ArrayRef<ast::Stmt *> stmts);
  void stmt(Frame &f, const ast::Stmt *s);
  Node expr(Frame &f, const ast::Expr *e);
  void assign(Frame &f, const ast::Expr *target, Node value);
  void functionDef(Frame &f, const ast::Node *def, llvm::StringRef name,
                   const ast::Arguments *args,
                   llvm::ArrayRef<const ast::Node *> bodyNodes,
                   const ast::Expr *lambdaBody, Node into);
  void classDef(Frame &f, const ast::ClassDef *c);
  /// `@reg.register("name")` above a def or class: the decorator call's
  /// result, when it is the program's function (a lambda, a nested def, a
  /// bound method), is called with what `decorated` holds — a registry
  /// keeps the class there (Microsoft's USB: `@ALGORITHMS.register(
  /// 'fixmatch')`, looked up as `ALGORITHMS[args.algorithm]`). The name
  /// stays bound to the definition itself.
  void applyDecorators(Frame &f, llvm::ArrayRef<const ast::Expr *> exprs,
                       llvm::ArrayRef<Node> nodes, Node decorated);
  /// Makes the constraints of function `fn`'s body, once: it may run
  /// (`runs`; false: a script's function analysed for its findings alone,
  /// which defines no function until it runs, Frame::ran).
  void activate(Obj fn, bool runs = true);
  /// What `node` holds may reach code detc does not analyse (a library
  /// call's arguments, a library object's attributes), which may call
  /// any function in it, in its attributes or elements, any method of a
  /// class in it: they are activated, transitively.
  void escape(Node node);
  void escapeObject(Obj o);
  llvm::DenseSet<Obj> escapedObjects;
  llvm::DenseSet<Node> escapingNodes;
  /// Functions of the program a library's decorator was given (timm's
  /// `@register_model`): what they return, a call of that library module's
  /// code no table describes may hand back (`create_model(name)`).
  void registered(Node functions, llvm::StringRef module);
  /// What the functions registered with `module` or a module below it
  /// return.
  Node registryOf(llvm::StringRef module);
  llvm::StringMap<Node> registries;
  void importStmt(Frame &f, const ast::Stmt *s);
  /// The public globals `from m import *` binds: m's own, and those its
  /// own star imports of program modules bind (`from .parts import *`
  /// re-exports parts' `import torch.nn as nn`).
  const std::vector<std::string> &starNames(ProgramModule &m);
  llvm::DenseMap<ProgramModule *, std::vector<std::string>> starNamesOf;
  /// m's top-level `from X import *` of a program module (X) or of a
  /// library the tables know (nullptr).
  std::vector<std::pair<const ast::ImportFrom *, ProgramModule *>>
  starImports(ProgramModule &m);
  /// The names m's star imports bind in it.
  std::vector<std::string> starImported(ProgramModule &m);
  void module(ProgramModule &m);

  // ---- Calls ----
  struct KeywordArg {
    llvm::StringRef name; ///< The AST's text.
    Node value;
  };
  /// What a call passes, fixed once built; the arrays live in
  /// `callArgStorage` (a call site took ~200 bytes in vectors, a tenth of
  /// the solver's peak).
  struct CallSite {
    const ast::Call *call = nullptr;
    Frame *frame = nullptr;
    llvm::ArrayRef<Node> args; ///< positional (starred: its node)
    llvm::ArrayRef<bool> starred;
    llvm::ArrayRef<KeywordArg> keywords;
    llvm::ArrayRef<Node> doubleStar;
    Node result = 0;
    /// `x.m(...)`: what `x.m` holds, and `m`.
    Node attribute = ~0u;
    FieldId method = ~0u;
  };
  /// Calls `fn` with the node of each argument of `cs`: the positional
  /// ones, the keywords' values, the `**` mappings.
  template <typename Fn> static void forEachArgument(const CallSite &cs, Fn fn) {
    for (Node a : cs.args)
      fn(a);
    for (const KeywordArg &k : cs.keywords)
      fn(k.value);
    for (Node d : cs.doubleStar)
      fn(d);
  }
  /// A copy of `items` that lives as long as the builder.
  template <typename T> llvm::ArrayRef<T> keep(llvm::ArrayRef<T> items) {
    if (items.empty())
      return {};
    T *mem = callArgStorage.Allocate<T>(items.size());
    std::uninitialized_copy(items.begin(), items.end(), mem);
    // Not `{mem, size}`: for bool that is an initializer list of two.
    return llvm::ArrayRef<T>(mem, items.size());
  }
  Node call(Frame &f, const ast::Call *c);
  void callObject(CallSite &cs, Obj callee, Node self);
  void callFunction(CallSite &cs, Obj fn, Node self);
  /// Whether function `fn` is decorated `@name` (a plain name).
  bool hasDecorator(Obj fn, llvm::StringRef name) const;
  /// Whether function `fn` is decorated `@classmethod`.
  bool isClassMethod(Obj fn) const;
  /// `o` holds `cs`'s arguments as a library object `entry` describes
  /// does (fields by name and position; a container's elements).
  void rememberArguments(CallSite &cs, const ApiEntry *entry, Obj o);
  void callClass(CallSite &cs, Obj cls);
  /// A library dataset's constructor (`super().__init__(root, transform=
  /// t)` of a VisionDataset subclass) keeps on the instance `self` the
  /// arguments table `e` names: transform, target_transform, loader (its
  /// `KEY_default` where none is given), transforms.
  void storeDatasetArguments(CallSite &cs, const ApiEntry &e, Node self);
  /// A program class deriving from dict, without an `__init__` of its
  /// own, built at `cs` (`EasyDict(class_name='...', lr=0.1)`): the
  /// arguments are its entries.
  void constructDictBase(CallSite &cs, Obj inst);
  /// Whether function `info` finds what it returns by a name computed at
  /// run time: it imports a module by a computed name, or calls a
  /// function of its module that does (NVlabs' dnnlib:
  /// construct_class_by_name -> call_func_by_name -> get_obj_by_name ->
  /// importlib.import_module). NamedFactories.cpp.
  bool isNameFactory(const ast::Node *def, const ProgramModule *m);
  /// At a call of such a factory: each dotted-name string among the
  /// arguments, or among the entries of what they hold (`**G_kwargs`
  /// with `G_kwargs.class_name = 'training.networks.Generator'`), that
  /// names a program module's class or function, or a library name a
  /// table describes, is called with the call's arguments, and what it
  /// returns is the call's. What the factory itself returns stays too:
  /// a name detc cannot read still gives what detc cannot see.
  void callNamedDefinitions(CallSite &cs);
  /// Binds `self` of every method of `cls` and its bases to `instance`:
  /// a library may call any of them (a DataLoader calls `__getitem__`, a
  /// trainer its hooks), so what they read off `self` is known.
  void bindSelfOfMethods(Obj cls, Obj instance);
  void callLibrary(CallSite &cs, llvm::StringRef qualName, Node receiver,
                   const ApiEntry *entry);
  /// The node of the argument `ref` names at `cs` (positional, else
  /// keyword), or ~0u when it is absent or a `*iterable` may supply it.
  Node argumentNode(const CallSite &cs, const ArgRef &ref) const;
  /// What calling method `cs.method` of `receiver` does (for each object
  /// reaching the receiver).
  void callMethod(CallSite &cs, Obj receiver);
  /// `o.m(...)` as a container's store (append/add/insert/add_module/
  /// register_module, extend/update) into its elements; false for any
  /// other method.
  /// `returns=args`: the call's result is its positional arguments in
  /// order (the one, or an exact tuple of them). False, nothing done, for
  /// a call with none or with a `*iterable`.
  bool returnArguments(CallSite &cs);
  bool storeElements(CallSite &cs, Obj o, llvm::StringRef m);
  /// A dict's method `m` called on `o` (a dict, or a library mapping).
  void dictMethod(CallSite &cs, Obj o, llvm::StringRef m);
  /// The field of `cls` holding `method` when the class defines it itself
  /// (a function in its body); ~0u otherwise.
  Node ownMethod(Obj cls, llvm::StringRef method);
  /// The table entry of `base` when it names a library container
  /// (`nn.Sequential`): a subclass's constructor arguments are its parts.
  const ApiEntry *libraryContainer(Obj base) const;
  /// `cls(...)` made `inst`: when no class on the way defines `__init__`,
  /// a library container base keeps the call's arguments as its parts.
  /// A class `@dataclasses.dataclass` makes an `__init__` for (none of
  /// its own): its instance `inst` holds each field the call `cs` passes,
  /// by keyword or in the order the class body annotates them.
  void constructDataclass(CallSite &cs, Obj cls, Obj inst);
  std::set<std::pair<const ast::Call *, Obj>> dataclassCalls;
  void constructLibraryBase(CallSite &cs, Obj cls, Obj inst, unsigned depth);
  /// `o.children()`, `named_children()`, `modules()`, `named_modules()`
  /// of an instance of the program's class (an nn.Module subclass): a
  /// list of its attributes' and entries' objects, as (name, part) pairs
  /// for the named ones.
  void iterateParts(CallSite &cs, Obj o, llvm::StringRef m);
  /// `d.update(a, **b, k=v)` and `dict(a, **b, k=v)`: entries of the
  /// positional mappings (or pairs) from the `firstArg`-th on, the `**`
  /// mappings and the keywords go into `dict`.
  void updateDict(CallSite &cs, Obj dict, size_t firstArg = 0);
  /// The entries `src` gives a mapping made or updated from it
  /// (`dict(src)`, `OrderedDict(src)`, `d.update(src)`): a mapping's
  /// entries by their names; an iterable's pairs (`[("fc", nn.Linear(..)),
  /// ("drop", nn.Dropout(p))]`) as entries whose keys detc does not know.
  void fillMapping(Node src, Obj dict);
  /// Whether `o` is a dict: the program's or a library's (table flag
  /// `mapping`: `collections.OrderedDict`).
  bool isMapping(Obj o) const;
  bool callBuiltin(CallSite &cs, llvm::StringRef name);
  /// `importlib.import_module(name)` with a name the source shows (a
  /// constant, or `"models." + name + "_model"`: a head): the program's
  /// modules it may be, loaded; false when some may be no module of the
  /// program's (then the call may give any module).
  bool importByName(CallSite &cs);
  /// The program's modules below package `pkg` whose names (the part
  /// after `pkg.`) start with `stem`, in name order; nullopt when `pkg`
  /// is no package of the program's.
  std::optional<std::vector<ProgramModule *>>
  modulesBelow(const ProgramModule &from, llvm::StringRef pkg,
               llvm::StringRef stem);
  /// `eval("models." + name + ".get_cls_net")` (HRNet's model factory): a
  /// dotted name whose middle is computed is that attribute of each
  /// module of the package the head names; false when the string is not
  /// of that shape (eval stays code detc cannot see).
  bool evalByName(CallSite &cs);
  /// Calls what `function` holds with `args`, at `cs` (a builtin that
  /// calls a function it is given); the node of what the call returns.
  Node callWithElements(CallSite &cs, Node function,
                        llvm::ArrayRef<Node> args);
  /// A node holding the elements of what `container` holds.
  Node elementNode(Node container);
  /// The node holding what `method` resolves to on class `cls`: its own
  /// function, else its bases' (memoized: one per class and name).
  Node methodNode(Obj cls, llvm::StringRef method);
  /// The node holding what attribute `name` of class `cls` or its bases
  /// holds (memoized beside the methods, keyed ".name").
  Node classAttributeNode(Obj cls, llvm::StringRef name);
  /// Adds to `dst` (an attribute expression read as a value) the method
  /// `name` of `instance`'s class bound to it, when the class has one.
  void loadBoundMethod(Obj instance, llvm::StringRef name, Node dst);
  /// Runs `fn` with the table entry of each library base of program class
  /// `cls` whose method `name` runs one of the class's own (role
  /// `subclass_call`: `Fn.apply` runs `Fn.forward`).
  void onSubclassCall(Obj cls, llvm::StringRef name,
                      std::function<void(const ApiEntry &)> fn);
  /// Adds to `dst` (an attribute expression read as a value) what
  /// `cls.name` calls when it is such a method, bound as it binds it:
  /// `grid_sample = GridSample.apply` is `GridSample.forward` with the
  /// context torch makes bound first.
  void loadSubclassCall(Obj cls, llvm::StringRef name, Node dst);
  /// The context object such a call passes first, made at `site`.
  Obj subclassCallContext(const ApiEntry &e, const ast::Node *site,
                          ProgramModule *module);
  /// Adds to `dst` function `fn` with `first` bound as its first argument:
  /// a functools.partial made at `site`, as Python's bound methods are.
  void bindFirst(Obj fn, Obj first, const ast::Node *site,
                 ProgramModule *module, Node dst);
  /// The attribute expressions read as values, by their node.
  llvm::DenseMap<Node, std::pair<const ast::Node *, ProgramModule *>>
      valueAttributes;
  /// Adds to `dst` what a data attribute `name` of `instance`'s class (or
  /// its bases) holds: `blur = Blur()` in a class body, read as
  /// `self.blur`. Its methods are not added: calls bind those.
  void loadClassData(Obj instance, llvm::StringRef name, Node dst);
  /// Calls `method` of class `cls` at `cs` with `self` ⊇ {instance}: one
  /// self node and one handler per (call site, class, method), however
  /// many instances of the class reach the site.
  void callBoundMethod(CallSite &cs, Obj cls, Obj instance,
                       llvm::StringRef method);

  /// The class object named `symbol`, or ~0u.
  Obj classOf(llvm::StringRef symbol) const {
    auto it = classBySymbol.find(symbol);
    return it == classBySymbol.end() ? ~0u : it->second;
  }

  /// Reports a warning once per place and message; false when it was
  /// reported before.
  bool warn(const ProgramModule *m, const ast::Node *at,
            const std::string &message);

  Program &program;
  const ApiModel &api;
  DiagnosticEngine &diags;
  PointsToResult::Impl &out;
  Solver &solver;

  /// Every call site, kept while handlers may run (a deque: handlers hold
  /// pointers to them).
  std::deque<CallSite> callSites;
  llvm::BumpPtrAllocator callArgStorage;
  std::vector<std::unique_ptr<Frame>> frames;
  std::map<std::string, Frame *> moduleFrames;
  llvm::DenseMap<Obj, FunctionInfo> functions;
  llvm::DenseMap<Obj, ClassInfo> classes;
  llvm::StringMap<Obj> classBySymbol;
  llvm::DenseMap<const ast::Node *, Obj> defObjects;
  std::map<std::tuple<const ast::Node *, std::string, int>, Obj> sited;
  llvm::StringMap<Obj> constants, libNames, moduleObjects;
  /// Names of the program's property getters (a load of another name
  /// looks for none); each getter's value per instance.
  llvm::StringSet<> propertyNames;
  std::map<std::pair<Obj, Obj>, Node> propertyValues;
  /// isNameFactory's answers, by definition.
  llvm::DenseMap<const ast::Node *, bool> nameFactories;
  llvm::StringSet<> usedSymbols;
  /// Tuples whose every position is known (`(a, b)`, enumerate's pairs).
  llvm::DenseSet<Obj> exactTuples;
  std::map<std::pair<Obj, std::string>, Node> methodNodes;
  llvm::DenseMap<Obj, Node> anyAttributeNodes;
  /// Per object: its parts (attributes and entries), and those with the
  /// object itself and its parts' parts, transitively (iterateParts).
  llvm::DenseMap<Obj, Node> partNodes, moduleNodes;
  Node partsOf(Obj o);
  Node modulesOf(Obj o);
  std::map<std::tuple<const ast::Call *, Obj, std::string>, Node> boundSelf;
  /// (class, instance) pairs bindSelfOfMethods has handled.
  std::set<std::pair<Obj, Obj>> selfBoundClasses;
  std::set<std::tuple<const ast::Call *, Obj, Node>> boundCalls;
  /// (call, partial object) pairs whose bound function has been called: a
  /// variable rebound to a partial of itself (`f = partial(f, **kw)`) holds
  /// the partial in its own `arg0`, and calling it would nest forever.
  std::set<std::pair<const ast::Call *, Obj>> partialCalls;
  llvm::StringSet<> warned;
  std::map<const ProgramModule *, ModuleBindings> moduleBindings;
  /// The statements constraints are attributed to (the solver's source
  /// ids index it; 0 is "none").
  std::vector<std::pair<const ProgramModule *, const ast::Node *>> sources{
      {nullptr, nullptr}};
};

} // namespace detc::frontend::pta

#endif // DETC_LIB_FRONTEND_LOWERING_POINTSTO_CONSTRAINTS_H

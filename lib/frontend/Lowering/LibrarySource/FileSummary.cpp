//===- FileSummary.cpp - One library file's definitions and their calls --===//
//
// A definition reaches every module-level name its body mentions (not only
// the ones it calls: `return OPS[k]` hands out the functions of OPS, and a
// caller calls them), every imported name it mentions, and every draw it
// makes on a value of any type. What it calls through its parameters,
// `self` or local variables is what it was given or made itself: the
// making is an event of its own, the giving is the caller's (whose
// arguments detc reads). A callee chosen at run time by name (`getattr`,
// `eval`) is Unknown. Annotations, decorators and `isinstance` checks
// mention classes without running them and are not read.
//
//===----------------------------------------------------------------------===//

#include "FileSummary.h"

#include "detc/frontend/AST.h"
#include "detc/frontend/ASTDump.h"
#include "detc/frontend/ApiModel.h"
#include "detc/frontend/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

#include <functional>

using namespace detc;
using namespace detc::frontend;
using namespace detc::frontend::library;
using llvm::StringRef;

namespace {

/// Builtins whose result, called, is a callee chosen at run time.
bool isDynamicLookup(StringRef name) {
  return name == "getattr" || name == "eval" || name == "exec" ||
         name == "__import__" || name == "compile" || name == "globals" ||
         name == "vars" || name == "locals";
}

/// The module `from ... import` names, relative imports resolved against
/// the importing module (`level` dots).
std::string importedModule(StringRef module, bool isPackage, unsigned level,
                           StringRef target) {
  if (level == 0)
    return target.str();
  std::string base = module.str();
  if (!isPackage)
    base = StringRef(base).rsplit('.').first.str();
  for (unsigned i = 1; i < level; ++i)
    base = StringRef(base).rsplit('.').first.str();
  if (target.empty())
    return base;
  return base.empty() ? target.str() : base + "." + target.str();
}

class Summariser {
public:
  Summariser(FileSummary &out, const ApiModel &api) : out(out), api(api) {}

  void run(const ast::Module &m) {
    for (const ast::Stmt *s : m.body)
      collectModuleNames(s);
    for (const ast::Stmt *s : m.body)
      summariseModuleStmt(s);
  }

private:
  // ---- Module scope ----

  void bindImport(const ast::Stmt *s, llvm::StringMap<std::string> &into,
                  std::vector<std::string> *stars) {
    if (const auto *imp = llvm::dyn_cast<ast::Import>(s)) {
      for (const ast::Alias *a : imp->names) {
        if (!a->asname.empty())
          into[a->asname] = a->name.str();
        else
          into[a->name.split('.').first] = a->name.split('.').first.str();
      }
      return;
    }
    const auto *from = llvm::cast<ast::ImportFrom>(s);
    std::string mod =
        importedModule(out.module, out.isPackage, from->level, from->module);
    for (const ast::Alias *a : from->names) {
      if (a->name == "*") {
        if (stars)
          stars->push_back(mod);
        continue;
      }
      into[a->asname.empty() ? a->name : a->asname] =
          mod.empty() ? a->name.str() : mod + "." + a->name.str();
    }
  }

  /// Names bound at module level, also inside `if`/`try`/`with` (every
  /// alternative of a conditional import).
  void collectModuleNames(const ast::Stmt *s) {
    switch (s->getKind()) {
    case ast::NodeKind::Import:
    case ast::NodeKind::ImportFrom:
      bindImport(s, out.bindings, &out.starModules);
      return;
    case ast::NodeKind::FunctionDef:
      defs.insert(llvm::cast<ast::FunctionDef>(s)->name);
      return;
    case ast::NodeKind::ClassDef:
      defs.insert(llvm::cast<ast::ClassDef>(s)->name);
      return;
    case ast::NodeKind::Assign:
      for (const ast::Expr *t : llvm::cast<ast::Assign>(s)->targets)
        collectValueTargets(t);
      return;
    case ast::NodeKind::AnnAssign:
      if (llvm::cast<ast::AnnAssign>(s)->value)
        collectValueTargets(llvm::cast<ast::AnnAssign>(s)->target);
      return;
    default:
      break;
    }
    forEachNestedBody(s, [&](const ast::Stmt *c) { collectModuleNames(c); });
  }

  void collectValueTargets(const ast::Expr *t) {
    if (const auto *n = llvm::dyn_cast<ast::Name>(t)) {
      values.insert(n->id);
      return;
    }
    if (const auto *seq = llvm::dyn_cast<ast::Sequence>(t))
      for (const ast::Expr *e : seq->elts)
        collectValueTargets(e);
  }

  /// The statements of `s`'s bodies (if/else, try/except/finally, with,
  /// for, while), for the module scope's conditional definitions.
  static void
  forEachNestedBody(const ast::Stmt *s,
                    llvm::function_ref<void(const ast::Stmt *)> fn) {
    ast::forEachChild(s, [&](StringRef, const ast::Node *c) {
      if (const auto *st = llvm::dyn_cast<ast::Stmt>(c))
        fn(st);
      else if (const auto *h = llvm::dyn_cast<ast::ExceptHandler>(c))
        for (const ast::Stmt *b : h->body)
          fn(b);
    });
  }

  void summariseModuleStmt(const ast::Stmt *s) {
    switch (s->getKind()) {
    case ast::NodeKind::FunctionDef: {
      const auto *f = llvm::cast<ast::FunctionDef>(s);
      Definition &d = out.definitions[f->name];
      d.line = f->getRange().begin.line;
      readBody(f, d);
      return;
    }
    case ast::NodeKind::ClassDef: {
      const auto *c = llvm::cast<ast::ClassDef>(s);
      Definition &d = out.definitions[c->name];
      d.kind = Definition::Kind::Class;
      d.line = c->getRange().begin.line;
      readBody(c, d);
      locals.clear(); // the bases are read in the module's scope
      imports.clear();
      for (const ast::Expr *b : c->bases)
        if (Event ev; chainEvent(b, ev))
          d.bases.push_back(std::move(ev));
      return;
    }
    case ast::NodeKind::Assign: {
      const auto *a = llvm::cast<ast::Assign>(s);
      llvm::SmallVector<StringRef, 2> names;
      for (const ast::Expr *t : a->targets)
        targetNames(t, names);
      for (StringRef n : names) {
        Definition &d = out.definitions["=" + n.str()];
        d.kind = Definition::Kind::Value;
        if (!d.line)
          d.line = a->getRange().begin.line;
        readExpression(a->value, d);
      }
      return;
    }
    case ast::NodeKind::AnnAssign: {
      const auto *a = llvm::cast<ast::AnnAssign>(s);
      llvm::SmallVector<StringRef, 2> names;
      targetNames(a->target, names);
      if (a->value)
        for (StringRef n : names) {
          Definition &d = out.definitions["=" + n.str()];
          d.kind = Definition::Kind::Value;
          d.line = a->getRange().begin.line;
          readExpression(a->value, d);
        }
      return;
    }
    default:
      break;
    }
    forEachNestedBody(s, [&](const ast::Stmt *c) { summariseModuleStmt(c); });
  }

  static void targetNames(const ast::Expr *t,
                          llvm::SmallVectorImpl<StringRef> &names) {
    if (const auto *n = llvm::dyn_cast<ast::Name>(t))
      names.push_back(n->id);
    else if (const auto *seq = llvm::dyn_cast<ast::Sequence>(t))
      for (const ast::Expr *e : seq->elts)
        targetNames(e, names);
  }

  // ---- A definition's body ----

  /// The names a def binds in its own scopes (parameters, assignments,
  /// loop and `with` targets, nested defs, local imports), `global` ones
  /// excepted; local imports also go to `imports`.
  void collectLocals(const ast::Node *n) {
    if (const auto *a = llvm::dyn_cast<ast::Arg>(n)) {
      locals.insert(a->arg);
      return;
    }
    if (const auto *name = llvm::dyn_cast<ast::Name>(n)) {
      if (name->ctx != ast::ExprContext::Load)
        locals.insert(name->id);
      return;
    }
    if (const auto *g = llvm::dyn_cast<ast::Global>(n)) {
      for (StringRef id : g->names)
        globals.insert(id);
      return;
    }
    if (llvm::isa<ast::Import, ast::ImportFrom>(n)) {
      bindImport(llvm::cast<ast::Stmt>(n), imports, nullptr);
      return;
    }
    if (const auto *f = llvm::dyn_cast<ast::FunctionDef>(n))
      locals.insert(f->name);
    else if (const auto *c = llvm::dyn_cast<ast::ClassDef>(n))
      locals.insert(c->name);
    else if (const auto *h = llvm::dyn_cast<ast::ExceptHandler>(n);
             h && !h->name.empty())
      locals.insert(h->name);
    ast::forEachChild(n, [&](StringRef, const ast::Node *c) {
      collectLocals(c);
    });
  }

  template <typename DefNode> void readBody(const DefNode *def, Definition &d) {
    locals.clear();
    globals.clear();
    imports.clear();
    // A class's own name inside it is the module's (a classmethod making
    // `cls(...)` or `HorizontalFlip(...)`), not a local; so are the names
    // its body binds (methods, class attributes): a method does not see
    // them unqualified. A method's locals are its own.
    auto collectIn = [&](const ast::Node *n) {
      ast::forEachChild(n, [&](StringRef field, const ast::Node *c) {
        if (field != "decorator_list" && field != "bases" &&
            field != "keywords")
          collectLocals(c);
      });
    };
    if (const auto *cls = llvm::dyn_cast<ast::ClassDef>(def)) {
      for (const ast::Stmt *st : cls->body)
        if (llvm::isa<ast::FunctionDef>(st))
          collectIn(st);
    } else {
      collectIn(def);
    }
    for (const auto &g : globals)
      locals.erase(g.getKey());
    seededGenerators.clear();
    seededMakers.clear();
    findSeededGenerators(def);
    ast::forEachChild(def, [&](StringRef field, const ast::Node *c) {
      if (field == "decorator_list" || field == "returns" ||
          field == "type_params" || field == "keywords")
        return;
      read(c, d);
    });
  }

  void readExpression(const ast::Expr *e, Definition &d) {
    locals.clear();
    globals.clear();
    imports.clear();
    read(e, d);
  }

  /// The qualified name `e` stands for when it is a name chain rooted at a
  /// module-level or imported name (`F.dropout`, `np.random.rand`), with
  /// the event kind; false for a chain rooted at a local, a parameter or
  /// `self`, or a builtin.
  bool chainEvent(const ast::Expr *e, Event &ev) {
    llvm::SmallVector<StringRef, 4> attrs;
    const ast::Expr *root = e;
    while (const auto *a = llvm::dyn_cast<ast::Attribute>(root)) {
      attrs.push_back(a->attr);
      root = a->value;
    }
    const auto *name = llvm::dyn_cast<ast::Name>(root);
    if (!name)
      return false;
    std::string path;
    for (StringRef a : llvm::reverse(attrs))
      path += "." + a.str();
    ev.line = e->getRange().begin.line;
    if (auto it = imports.find(name->id); it != imports.end()) {
      ev.kind = Event::Kind::External;
      ev.text = it->second + path;
      return true;
    }
    if (locals.contains(name->id))
      return false;
    if (defs.contains(name->id)) {
      // A class or function of this file; `Cls.method` is the class.
      ev.kind = Event::Kind::Local;
      ev.text = name->id.str();
      return true;
    }
    if (auto it = out.bindings.find(name->id); it != out.bindings.end()) {
      ev.kind = Event::Kind::External;
      ev.text = it->second + path;
      return true;
    }
    if (values.contains(name->id)) {
      ev.kind = Event::Kind::Local;
      ev.text = "=" + name->id.str();
      return true;
    }
    if (!out.starModules.empty()) {
      ev.kind = Event::Kind::Star;
      ev.text = name->id.str() + path;
      return true;
    }
    return false; // a builtin
  }

  void add(Definition &d, Event ev) {
    for (const Event &e : d.events)
      if (e.kind == ev.kind && e.text == ev.text)
        return;
    d.events.push_back(std::move(ev));
  }

  void read(const ast::Node *n, Definition &d) {
    if (const auto *call = llvm::dyn_cast<ast::Call>(n)) {
      readCall(call, d);
      return;
    }
    if (llvm::isa<ast::Name, ast::Attribute>(n) &&
        llvm::cast<ast::Expr>(n)->ctx == ast::ExprContext::Load) {
      Event ev;
      if (chainEvent(llvm::cast<ast::Expr>(n), ev)) {
        add(d, std::move(ev));
        return;
      }
    }
    if (const auto *a = llvm::dyn_cast<ast::Arg>(n)) {
      (void)a; // annotations mention types without running them
      return;
    }
    if (const auto *ann = llvm::dyn_cast<ast::AnnAssign>(n)) {
      read(ann->target, d);
      if (ann->value)
        read(ann->value, d);
      return;
    }
    ast::forEachChild(n, [&](StringRef field, const ast::Node *c) {
      if (field == "decorator_list" || field == "returns" ||
          field == "annotation" || field == "type_params")
        return;
      read(c, d);
    });
  }

  /// `g = torch.Generator()` followed at once by `g.manual_seed(...)` in
  /// the same block (timm's schedulers: `g.manual_seed(self.noise_seed +
  /// t)` before drawing their noise): a generator made and seeded from the
  /// function's own values each call, whose draws repeat exactly — no
  /// generator of the program's, nothing to key. Its construction and the
  /// draws given `generator=g` are left out of the summary.
  void findSeededGenerators(const ast::Stmt *def) {
    std::function<void(ast::NodeList<ast::Stmt>)> scan =
        [&](ast::NodeList<ast::Stmt> body) {
          for (size_t i = 0; i + 1 < body.size(); ++i)
            noteSeeded(body[i], body[i + 1]);
          for (const ast::Stmt *st : body)
            ast::forEachBody(st, scan);
        };
    ast::forEachBody(def, scan);
  }

  /// `made` is `g = torch.Generator(...)` and `next` is `g.manual_seed(x)`.
  void noteSeeded(const ast::Stmt *made, const ast::Stmt *next) {
    const auto *a = llvm::dyn_cast<ast::Assign>(made);
    const auto *target = a && a->targets.size() == 1
                             ? llvm::dyn_cast<ast::Name>(a->targets[0])
                             : nullptr;
    const auto *call = a ? llvm::dyn_cast<ast::Call>(a->value) : nullptr;
    Event ev;
    if (!target || !call || !chainEvent(call->func, ev) ||
        ev.kind != Event::Kind::External ||
        api.canonicalize(ev.text) != "torch.Generator")
      return;
    const auto *stmt = llvm::dyn_cast<ast::ExprStmt>(next);
    const auto *seed = stmt ? llvm::dyn_cast<ast::Call>(stmt->value) : nullptr;
    const auto *method =
        seed ? llvm::dyn_cast<ast::Attribute>(seed->func) : nullptr;
    const auto *on =
        method ? llvm::dyn_cast<ast::Name>(method->value) : nullptr;
    if (on && on->id == target->id && method->attr == "manual_seed" &&
        !seed->args.empty()) {
      seededGenerators.insert(target->id);
      seededMakers.insert(call);
    }
  }

  /// Whether `call` is the making of a seeded generator, or a draw from
  /// one (`torch.randn(1, generator=g)`).
  bool fromSeededGenerator(const ast::Call *call) const {
    if (seededMakers.contains(call))
      return true;
    for (const ast::Keyword *k : call->keywords)
      if (k->arg == "generator")
        if (const auto *n = llvm::dyn_cast<ast::Name>(k->value))
          return seededGenerators.contains(n->id);
    return false;
  }

  void readCall(const ast::Call *call, Definition &d) {
    const ast::Expr *callee = call->func;
    unsigned line = call->getRange().begin.line;
    if (fromSeededGenerator(call)) {
      // What it is given still runs; the call itself draws nothing of the
      // program's.
      ast::forEachChild(call, [&](StringRef field, const ast::Node *c) {
        if (field != "func")
          read(c, d);
      });
      return;
    }
    // A draw on a value of any type (`x.new_empty(s).bernoulli_(p)`).
    if (const auto *attr = llvm::dyn_cast<ast::Attribute>(callee))
      if (const ApiEntry *e = api.lookupAnyReceiver(attr->attr);
          e && e->role == "draw")
        add(d, {Event::Kind::Draw, line, "*." + attr->attr.str()});
    const auto *name = llvm::dyn_cast<ast::Name>(callee);
    bool builtin = name && !locals.contains(name->id) &&
                   !imports.count(name->id) && !defs.contains(name->id) &&
                   !out.bindings.count(name->id) &&
                   !values.contains(name->id) &&
                   (out.starModules.empty() || isDynamicLookup(name->id));
    if (builtin && isDynamicLookup(name->id) && name->id != "getattr" &&
        name->id != "globals" && name->id != "vars" &&
        name->id != "locals") {
      add(d, {Event::Kind::Unknown, line,
              "'" + name->id.str() + "(...)' runs code chosen at run time"});
    }
    // `isinstance(x, Cls)` mentions a class without running it.
    if (builtin && (name->id == "isinstance" || name->id == "issubclass"))
      return;
    // A callee that is itself a call or a subscript of a dynamic lookup:
    // `getattr(self, name)(x)`, `globals()[k](x)`.
    const ast::Expr *inner = callee;
    while (const auto *sub = llvm::dyn_cast<ast::Subscript>(inner))
      inner = sub->value;
    if (const auto *made = llvm::dyn_cast<ast::Call>(inner))
      if (const auto *fn = llvm::dyn_cast<ast::Name>(made->func);
          fn && isDynamicLookup(fn->id) && !locals.contains(fn->id) &&
          !defs.contains(fn->id) && !out.bindings.count(fn->id))
        add(d, {Event::Kind::Unknown, line,
                "a callee chosen by '" + fn->id.str() + "(...)' at run time"});
    ast::forEachChild(call, [&](StringRef, const ast::Node *c) {
      read(c, d);
    });
  }

  FileSummary &out;
  const ApiModel &api;
  llvm::StringSet<> defs, values;
  // Per definition being read.
  llvm::StringSet<> locals, globals;
  /// Generators made and seeded in place, and the calls making them
  /// (findSeededGenerators).
  llvm::StringSet<> seededGenerators;
  llvm::SmallPtrSet<const ast::Call *, 4> seededMakers;
  llvm::StringMap<std::string> imports;
};

} // namespace

FileSummary library::summariseFile(const ParsedModule &parsed,
                                   StringRef path, StringRef module,
                                   bool isPackage, const ApiModel &api) {
  FileSummary s;
  s.module = module.str();
  s.path = path.str();
  s.isPackage = isPackage;
  Summariser(s, api).run(*parsed.module);
  return s;
}

// ---- The cache's text format ----
//
//   detc-library-summary 1
//   module <dotted> <0|1>
//   path <path>
//   bind <name> <qualified>
//   star <qualified>
//   def <f|c|v> <line> <name>
//   ev <E|L|S|D|U> <line> <text>     (of the def above)
//   end                              (a file without it is not read: a
//                                     cut summary would miss draws)

static constexpr StringRef kMagic = "detc-library-summary 1";

std::string library::serialise(const FileSummary &s) {
  std::string t = kMagic.str() + "\n";
  t += "module " + s.module + " " + (s.isPackage ? "1" : "0") + "\n";
  t += "path " + s.path + "\n";
  for (const auto &b : s.bindings)
    t += "bind " + b.getKey().str() + " " + b.getValue() + "\n";
  for (const std::string &m : s.starModules)
    t += "star " + m + "\n";
  for (const auto &d : s.definitions) {
    t += std::string("def ") + char(d.getValue().kind) + " " +
         std::to_string(d.getValue().line) + " " + d.getKey().str() + "\n";
    for (const Event &e : d.getValue().events)
      t += std::string("ev ") + char(e.kind) + " " + std::to_string(e.line) +
           " " + e.text + "\n";
    for (const Event &e : d.getValue().bases)
      t += std::string("base ") + char(e.kind) + " " +
           std::to_string(e.line) + " " + e.text + "\n";
  }
  return t + "end\n";
}

std::optional<FileSummary> library::deserialise(StringRef text) {
  FileSummary s;
  Definition *current = nullptr;
  StringRef first;
  std::tie(first, text) = text.split('\n');
  if (first != kMagic)
    return std::nullopt;
  while (!text.empty()) {
    StringRef line;
    std::tie(line, text) = text.split('\n');
    if (line == "end")
      return text.empty() ? std::optional<FileSummary>(std::move(s))
                          : std::nullopt;
    auto [tag, rest] = line.split(' ');
    if (tag == "module") {
      auto [name, pkg] = rest.rsplit(' ');
      s.module = name.str();
      s.isPackage = pkg == "1";
    } else if (tag == "path") {
      s.path = rest.str();
    } else if (tag == "bind") {
      auto [name, target] = rest.split(' ');
      s.bindings[name] = target.str();
    } else if (tag == "star") {
      s.starModules.push_back(rest.str());
    } else if (tag == "def") {
      auto [kind, lineAndName] = rest.split(' ');
      auto [ln, name] = lineAndName.split(' ');
      if (kind.size() != 1 || !StringRef("fcv").contains(kind[0]))
        return std::nullopt;
      current = &s.definitions[name];
      current->kind = Definition::Kind(kind[0]);
      if (ln.getAsInteger(10, current->line))
        return std::nullopt;
    } else if ((tag == "ev" || tag == "base") && current &&
               rest.size() >= 2) {
      Event e;
      e.kind = Event::Kind(rest[0]);
      if (!StringRef("ELSDU").contains(rest[0]))
        return std::nullopt;
      auto [ln, what] = rest.drop_front(2).split(' ');
      if (ln.getAsInteger(10, e.line))
        return std::nullopt;
      e.text = what.str();
      std::vector<Event> &into =
          tag == "ev" ? current->events : current->bases;
      into.push_back(std::move(e));
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt; // cut before its end
}

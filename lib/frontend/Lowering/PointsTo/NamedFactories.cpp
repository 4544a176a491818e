//===- NamedFactories.cpp - Objects built from a dotted-name string -------===//
//
// Configuration-driven training code builds its model, loss, dataset and
// optimizer from strings: NVlabs' dnnlib (StyleGAN2-ADA, StyleGAN3, EDM)
// calls `construct_class_by_name(class_name='training.loss.StyleGAN2Loss',
// **kwargs)`, which imports a prefix of the name with
// importlib.import_module and reads the rest with getattr. Followed as
// code, the name is computed (split and joined) and the result is "any
// module's any attribute": every draw of the loss, the networks and the
// augmentation pipeline is a may-draw at the call at best. The string
// itself is in the program; a call of such a factory is also a call of
// what each string given to it names — per call site, so the model's
// call builds the model and the loss's call the loss.
//
//===----------------------------------------------------------------------===//

#include "AttributeNames.h"
#include "Constraints.h"
#include "ResultImpl.h"

#include "detc/frontend/ASTDump.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace detc;
using namespace detc::frontend;
using namespace detc::frontend::pta;
using llvm::StringRef;
using Kind = AbstractObject::Kind;

namespace {

/// Whether `call` imports a module by a name the source computes:
/// `importlib.import_module(x)`, `import_module(x)`, `__import__(x)` with
/// `x` no literal.
bool importsComputedName(const ast::Call *call) {
  StringRef callee;
  if (auto *n = llvm::dyn_cast<ast::Name>(call->func))
    callee = n->id;
  else if (auto *a = llvm::dyn_cast<ast::Attribute>(call->func))
    callee = a->attr;
  return (callee == "import_module" || callee == "__import__") &&
         !call->args.empty() && !llvm::isa<ast::Constant>(call->args[0]);
}

/// The module-level functions of `module` by name.
llvm::StringMap<const ast::FunctionDef *>
topLevelFunctions(const ast::Module *module) {
  llvm::StringMap<const ast::FunctionDef *> out;
  for (const ast::Stmt *s : module->body)
    if (auto *f = llvm::dyn_cast<ast::FunctionDef>(s))
      out[f->name] = f;
  return out;
}

/// Whether `def` imports by a computed name, itself or through the
/// module-level functions of its module it calls by name (at most `depth`
/// calls down).
bool findsByComputedName(const ast::Node *def,
                         const llvm::StringMap<const ast::FunctionDef *> &fns,
                         llvm::SmallPtrSetImpl<const ast::Node *> &seen,
                         unsigned depth) {
  if (!seen.insert(def).second)
    return false;
  bool found = false;
  std::vector<const ast::Node *> work{def};
  while (!work.empty() && !found) {
    const ast::Node *n = work.back();
    work.pop_back();
    if (auto *call = llvm::dyn_cast<ast::Call>(n)) {
      if (importsComputedName(call))
        return true;
      if (auto *name = llvm::dyn_cast<ast::Name>(call->func); name && depth)
        if (auto it = fns.find(name->id); it != fns.end())
          found = findsByComputedName(it->second, fns, seen, depth - 1);
    }
    forEachChild(n, [&](StringRef, const ast::Node *child) {
      work.push_back(child);
    });
  }
  return found;
}

/// `'pkg.mod.Name'` (a string constant's label) as the dotted name, or
/// empty when it is none.
StringRef dottedName(StringRef label) {
  if (label.size() < 5 || !label.starts_with("'") || !label.ends_with("'"))
    return {};
  StringRef text = label.drop_front().drop_back();
  if (!text.contains('.') || text.starts_with(".") || text.ends_with(".") ||
      text.contains("..") || !isDottedName(text))
    return {};
  return text;
}

} // namespace

bool Builder::isNameFactory(const ast::Node *def, const ProgramModule *m) {
  if (!def || !m || !m->parsed || !m->parsed->module)
    return false;
  auto [it, inserted] = nameFactories.try_emplace(def, false);
  if (!inserted)
    return it->second;
  llvm::SmallPtrSet<const ast::Node *, 8> seen;
  bool factory = findsByComputedName(
      def, topLevelFunctions(m->parsed->module), seen, /*depth=*/4);
  nameFactories[def] = factory;
  return factory;
}

void Builder::callNamedDefinitions(CallSite &cs) {
  // Inside a factory (construct_class_by_name calling call_func_by_name),
  // the names are every caller's at once: the callers' sites have them
  // one by one.
  if (isNameFactory(cs.frame->def, cs.frame->module))
    return;
  // The call's arguments, again, for each definition a string names.
  auto *inner = &callSites.emplace_back(cs);
  inner->attribute = ~0u;
  inner->method = ~0u;
  auto named = std::make_shared<llvm::StringSet<>>();
  auto consider = [this, inner, named](Obj o) {
    const AbstractObject &ob = out.objects[o];
    if (ob.kind != Kind::Constant)
      return;
    StringRef text = dottedName(ob.label());
    if (text.empty() || !named->insert(text).second)
      return;
    Node callee = solver.newNode();
    if (api.lookup(text)) {
      solver.addObject(callee, libName(text));
    } else {
      auto [moduleName, name] = text.rsplit('.');
      ProgramModule *m =
          program.resolve(*inner->frame->module, moduleName, 0, nullptr);
      if (!m || isInstalledLibrary(m->path))
        return;
      program.noteImportByName(nullptr, m);
      solver.addCopy(field(moduleObject(m), name), callee);
    }
    solver.onObject(callee, [this, inner](Obj definition) {
      Kind k = out.objects[definition].kind;
      if (k == Kind::Class || k == Kind::Function)
        out.namedAt[inner->call].push_back(definition);
      callObject(*inner, definition, ~0u);
    });
  };
  // A string given as an argument, or held by what one is given (a dict or
  // an object of settings, one level down).
  auto strings = [this, consider](Node given) {
    solver.onObject(given, [this, consider](Obj o) {
      consider(o);
      Kind k = out.objects[o].kind;
      if (k != Kind::Dict && k != Kind::Instance)
        return;
      solver.onField(o, [this, o, consider](FieldId f) {
        solver.onObject(solver.fieldNode(o, f), consider);
      });
    });
  };
  forEachArgument(cs, strings);
}

//===- Calls.cpp - Calls resolved on the fly, bound as CPython binds ------===//
//
// A call registers a handler on its callee expression's node: each object
// that reaches it is called — a user function (arguments bound to
// parameters: positions, keywords, defaults, *args, **kwargs, `*xs` and
// `**d` at the call), a class (an instance per call site, `__init__` with
// it as self), an instance (`__call__`, or `forward` of a module), a
// library callable (a library object per call site whose fields are its
// arguments, by parameter name when the API tables give the signature),
// a builtin with container semantics (dict, list, enumerate, zip, ...).
// A method call `x.m(...)` resolves per receiver object: a method of its
// class with x as self, a callable stored in the attribute, a container
// method (append, extend, update, setdefault, ...), a library method.
//
//===----------------------------------------------------------------------===//

#include "AttributeNames.h"
#include "Constraints.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "ResultImpl.h"

#include "llvm/ADT/STLExtras.h"

#include <memory>

using namespace detc;
using namespace detc::frontend;
using namespace detc::frontend::pta;

/// The path a `sys.path` argument denotes, when it is a constant or built
/// from `__file__` with os.path.dirname/abspath/realpath/join. (Recursive
/// over the expression, whose depth the parser bounds: kMaxNestingDepth.)
static std::optional<std::string> constantPath(const ast::Expr *e,
                                               llvm::StringRef file) {
  if (auto *k = llvm::dyn_cast<ast::Constant>(e))
    return k->kind == ast::ConstantKind::Str
               ? std::optional<std::string>(k->value.str())
               : std::nullopt;
  if (auto *n = llvm::dyn_cast<ast::Name>(e))
    return n->id == "__file__" ? std::optional<std::string>(file.str())
                               : std::nullopt;
  auto *call = llvm::dyn_cast<ast::Call>(e);
  auto *fn = call ? llvm::dyn_cast<ast::Attribute>(call->func) : nullptr;
  auto *mod = fn ? llvm::dyn_cast<ast::Attribute>(fn->value) : nullptr;
  auto *os = mod ? llvm::dyn_cast<ast::Name>(mod->value) : nullptr;
  if (!os || os->id != "os" || mod->attr != "path" || call->args.empty() ||
      !call->keywords.empty())
    return std::nullopt;
  if (fn->attr == "join") {
    llvm::SmallString<256> out;
    for (const ast::Expr *part : call->args) {
      std::optional<std::string> p = constantPath(part, file);
      if (!p)
        return std::nullopt;
      llvm::sys::path::append(out, *p);
    }
    return std::string(out);
  }
  if (call->args.size() != 1)
    return std::nullopt;
  std::optional<std::string> inner = constantPath(call->args[0], file);
  if (!inner)
    return std::nullopt;
  if (fn->attr == "dirname")
    return llvm::sys::path::parent_path(*inner).str();
  if (fn->attr == "abspath" || fn->attr == "realpath") {
    llvm::SmallString<256> abs(*inner);
    llvm::sys::fs::make_absolute(abs);
    return std::string(abs);
  }
  return std::nullopt;
}
using Kind = AbstractObject::Kind;
using llvm::StringRef;

Node Builder::call(Frame &f, const ast::Call *c) {
  llvm::SmallVector<Node, 8> args, doubleStar;
  llvm::SmallVector<bool, 8> starred;
  llvm::SmallVector<KeywordArg, 8> keywords;
  for (const ast::Expr *a : c->args) {
    starred.push_back(llvm::isa<ast::Starred>(a));
    args.push_back(expr(f, a));
  }
  for (const ast::Keyword *k : c->keywords) {
    Node v = expr(f, k->value);
    if (k->arg.empty())
      doubleStar.push_back(v);
    else
      keywords.push_back({k->arg, v});
  }
  CallSite *cs = &callSites.emplace_back();
  cs->call = c;
  cs->frame = &f;
  cs->args = keep<Node>(args);
  cs->starred = keep<bool>(starred);
  cs->keywords = keep<KeywordArg>(keywords);
  cs->doubleStar = keep<Node>(doubleStar);
  cs->result = solver.newNode();

  // `super().m(...)`: m of the enclosing class's bases, self bound.
  if (auto *a = llvm::dyn_cast<ast::Attribute>(c->func))
    if (auto *inner = llvm::dyn_cast<ast::Call>(a->value))
      if (auto *n = llvm::dyn_cast<ast::Name>(inner->func);
          n && n->id == "super" && f.selfNode != ~0u) {
        std::string method = a->attr.str();
        if (Obj cls = classOf(f.enclosingClass); cls != ~0u)
          for (Node base : classes[cls].bases)
            solver.onObject(base, [this, cs, method, self = f.selfNode](
                                      Obj b) {
              if (out.objects[b].kind == Kind::Class)
                solver.onObject(methodNode(b, method),
                                [this, cs, self](Obj fn) {
                                  callFunction(*cs, fn, self);
                                });
              // A container's (`class Joiner(nn.Sequential)`:
              // `super().__init__(backbone, pos)`, then `self[0](x)`) holds
              // its parts as the library object does.
              if (const ApiEntry *e = libraryContainer(b);
                  e && method == "__init__")
                solver.onObject(self, [this, cs, e](Obj inst) {
                  if (out.objects[inst].kind == Kind::Instance)
                    rememberArguments(*cs, e, inst);
                });
              // A library dataset's constructor keeps the transform (and a
              // folder dataset its loader) it is given on the instance
              // (torchvision's VisionDataset: `super().__init__(root,
              // transform=transform)`, then `self.transform(img)` in the
              // subclass's `__getitem__`); the table's `KEY_default` where
              // the call gives none.
              if (out.objects[b].kind == Kind::LibName &&
                  method == "__init__")
                if (const ApiEntry *e =
                        api.lookup(api.canonicalize(out.objects[b].label()));
                    e && e->role == "dataset")
                  storeDatasetArguments(*cs, *e, self);
            });
        return cs->result;
      }

  // `sys.path.insert(0, 'dir')` / `sys.path.append(os.path.join(
  // os.path.dirname(__file__), 'lib'))`: later imports look there too.
  if (auto *a = llvm::dyn_cast<ast::Attribute>(c->func))
    if (auto *p = llvm::dyn_cast<ast::Attribute>(a->value))
      if (auto *n = llvm::dyn_cast<ast::Name>(p->value);
          n && n->id == "sys" && p->attr == "path" &&
          (a->attr == "insert" || a->attr == "append") && !c->args.empty())
        if (std::optional<std::string> dir =
                constantPath(c->args.back(), f.module->path))
          program.addSearchDir(*dir);

  if (auto *a = llvm::dyn_cast<ast::Attribute>(c->func)) {
    Node receiver = expr(f, a->value);
    cs->attribute = solver.newNode();
    cs->method = solver.fieldId(a->attr);
    c->func->setPointsToNode(cs->attribute);
    // What the attribute holds is called as it is: a module's function, a
    // class's function (unbound), a callable stored on an instance.
    solver.onObject(cs->attribute,
                    [this, cs](Obj o) { callObject(*cs, o, ~0u); });
    // The attribute's load and the method's effects, in one handler (one
    // for each method call of a program: 40 bytes and a closure each).
    solver.onObject(receiver, [this, cs](Obj o) {
      solver.addCopy(solver.fieldNode(o, cs->method), cs->attribute);
      const AbstractObject &ob = out.objects[o];
      if (ob.kind == Kind::Instance) {
        loadClassData(o, solver.fieldName(cs->method), cs->attribute);
        // `self.head(x)` of a property returning a layer: the layer.
        if (propertyNames.contains(solver.fieldName(cs->method)))
          loadProperty(o, solver.fieldName(cs->method), cs->attribute);
      }
      if (ob.kind == Kind::LibName && ob.label() == kRuntimeModule)
        loadRuntimeModuleAttribute(solver.fieldName(cs->method),
                                   cs->attribute);
      callMethod(*cs, o);
    });
    return cs->result;
  }
  Node callee = expr(f, c->func);
  solver.onObject(callee, [this, cs](Obj o) { callObject(*cs, o, ~0u); });
  return cs->result;
}

bool Builder::isMapping(Obj o) const {
  const AbstractObject &ob = out.objects[o];
  if (ob.kind == Kind::Dict)
    return true;
  if (ob.kind != Kind::Library)
    return false;
  const ApiEntry *made = api.lookup(api.canonicalize(ob.label()));
  return made && made->has("mapping");
}

void Builder::fillMapping(Node src, Obj dict) {
  solver.onObject(src, [this, dict](Obj s) {
    if (s == dict)
      return;
    if (isMapping(s)) {
      solver.onField(s, [this, s, dict](FieldId f) {
        solver.addCopy(solver.fieldNode(s, f), solver.fieldNode(dict, f));
      });
      return;
    }
    // Pairs: each element of a pair (its key too, a harmless constant
    // when written) may be the value of an entry of any key.
    Node one = solver.newNode();
    solver.addObject(one, s);
    Node pair = elementNode(one);
    Node value = elementNode(pair);
    solver.addCopy(value, field(dict, "[?]"));
    solver.addCopy(value, field(dict, "[*]"));
  });
}

void Builder::updateDict(CallSite &cs, Obj dict, size_t firstArg) {
  for (size_t i = firstArg; i < cs.args.size(); ++i)
    if (!cs.starred[i])
      fillMapping(cs.args[i], dict);
  for (Node d : cs.doubleStar)
    fillMapping(d, dict);
  for (auto &[k, v] : cs.keywords) {
    solver.addCopy(v, field(dict, ("['" + k + "']").str()));
    solver.addCopy(v, field(dict, "[*]"));
  }
}

void Builder::storeComputed(Node base, const ast::Expr *name,
                            const ast::FunctionDef *where, Node src) {
  std::optional<std::vector<NameChoice>> names = possibleNames(name, where);
  // A name the source does not show (timm's `for name, child in
  // module.named_children(): mod.add_module(name, convert(child))`): only
  // reads by a computed name (the `<*>` marker) and iteration see the
  // value. Sent into every attribute, the converted children of every
  // module went into every field of every module (timm's train.py: 101
  // more may-draws, two loops over named_children taken for batch loops);
  // `setattr` with such a name is also reported as a construct detc
  // cannot see.
  if (!names) {
    solver.onObject(base, [this, src](Obj o) {
      if (out.objects[o].kind != Kind::LibName)
        solver.addCopy(src, solver.fieldNode(o, solver.fieldId("<*>")));
    });
    return;
  }
  std::vector<std::string> heads;
  for (const NameChoice &c : *names) {
    if (c.prefix)
      heads.push_back(c.text);
    else
      store(base, c.text, src);
  }
  if (heads.empty())
    return;
  solver.onObject(base, [this, heads, src](Obj o) {
    if (out.objects[o].kind == Kind::LibName)
      return;
    for (const std::string &h : heads)
      solver.addCopy(src, solver.fieldNode(o, solver.fieldId(h + "<*>")));
    // Every attribute read by a name with a head the store may have
    // written: those read so far and those read later.
    solver.onField(o, [this, o, heads, src](FieldId fid) {
      StringRef field = solver.fieldName(fid);
      if (field.starts_with("[") || field.ends_with("<*>"))
        return;
      if (llvm::any_of(heads, [&](const std::string &h) {
            return field.starts_with(h);
          }))
        solver.addCopy(src, solver.fieldNode(o, fid));
    });
  });
}

Node Builder::partsOf(Obj o) {
  auto [it, inserted] = partNodes.try_emplace(o, 0);
  if (!inserted)
    return it->second;
  Node parts = solver.newNode();
  it->second = parts;
  // Only what may be a module: an instance of the program's class or an
  // object a library call made (a layer). Names of a library (`<torch>`,
  // an attribute of one) are not: a name's attribute is a new, longer
  // name, so torch.jit.quantized's `for name, mod in
  // module.named_modules(): setattr(module, name, quantize(mod))`, with
  // `self.weight = other.weight` in the wrapper it builds, grew names
  // without end (the points-to ran out of memory).
  auto modulesOnly = [this, parts](Obj x) {
    Kind k = out.objects[x].kind;
    if (k == Kind::Instance || k == Kind::Library)
      solver.addObject(parts, x);
  };
  solver.onObject(anyNamedAttribute(o), modulesOnly);
  solver.onObject(field(o, "[*]"), modulesOnly);
  return parts;
}

Node Builder::modulesOf(Obj o) {
  auto [it, inserted] = moduleNodes.try_emplace(o, 0);
  if (!inserted)
    return it->second;
  // One node per module, shared by every `modules()` call on it and by
  // the modules holding it (a copy edge each, not one per call site).
  Node all = solver.newNode();
  it->second = all;
  solver.addObject(all, o);
  solver.onObject(partsOf(o), [this, all](Obj x) {
    if (out.objects[x].kind == Kind::Instance)
      solver.addCopy(modulesOf(x), all);
    else
      solver.addObject(all, x);
  });
  return all;
}

void Builder::iterateParts(CallSite &cs, Obj o, StringRef m) {
  Node parts =
      m == "modules" || m == "named_modules" ? modulesOf(o) : partsOf(o);
  Obj list = objectAt(Kind::List, "list", cs.call, cs.frame->module);
  solver.addObject(cs.result, list);
  if (m == "children" || m == "modules") {
    solver.addCopy(parts, field(list, "[*]"));
    return;
  }
  // (name, part) pairs.
  Obj pair = objectAt(Kind::Tuple, "tuple", cs.call, cs.frame->module);
  exactTuples.insert(pair);
  solver.addObject(field(list, "[*]"), pair);
  solver.addCopy(parts, field(pair, "[1]"));
}

void Builder::dictMethod(CallSite &cs, Obj o, StringRef m) {
  auto keyOf = [&](size_t i) -> std::string {
    if (i >= cs.call->args.size())
      return "";
    auto *c = llvm::dyn_cast<ast::Constant>(cs.call->args[i]);
    return c && c->kind == ast::ConstantKind::Str
               ? "['" + c->value.str() + "']"
               : "";
  };
  Node self = solver.newNode();
  solver.addObject(self, o);
  if (m == "update") {
    updateDict(cs, o);
  } else if (m == "setdefault" || m == "get" || m == "pop") {
    std::string key = keyOf(0);
    Node entry = field(o, key.empty() ? "[*]" : key);
    if (m == "setdefault" && cs.args.size() > 1) {
      solver.addCopy(cs.args[1], entry);
      solver.addCopy(cs.args[1], field(o, "[*]"));
    }
    solver.addCopy(entry, cs.result);
    if (!key.empty())
      solver.addCopy(field(o, "[?]"), cs.result);
    if (m != "setdefault" && cs.args.size() > 1)
      solver.addCopy(cs.args[1], cs.result);
  } else if (m == "copy") {
    Obj copy = objectAt(Kind::Dict, "dict", cs.call, cs.frame->module);
    Node to = solver.newNode();
    solver.addObject(to, copy);
    solver.addObject(cs.result, copy);
    mergeFields(self, to);
  } else if (m == "values") {
    Obj list = objectAt(Kind::List, "list", cs.call, cs.frame->module);
    solver.addObject(cs.result, list);
    solver.addCopy(field(o, "[*]"), field(list, "[*]"));
  } else if (m == "items") {
    Obj list = objectAt(Kind::List, "list", cs.call, cs.frame->module);
    Obj pair = objectAt(Kind::Tuple, "tuple", cs.call, cs.frame->module);
    exactTuples.insert(pair);
    solver.addObject(cs.result, list);
    solver.addObject(field(list, "[*]"), pair);
    solver.addCopy(field(o, "[*]"), field(pair, "[1]"));
  }
}

void Builder::callMethod(CallSite &cs, Obj o) {
  StringRef m = solver.fieldName(cs.method);
  const AbstractObject &ob = out.objects[o];
  switch (ob.kind) {
  case Kind::Instance: {
    // A method of its class, self bound (a callable stored in the
    // attribute is called through the attribute's load, below).
    if (Obj cls = classOf(ob.label()); cls != ~0u)
      callBoundMethod(cs, cls, o, m);
    // nn.Module's `add_module(name, layer)` (and register_*) sets the
    // attribute `name` as setattr does: `self.add_module("extra", drop)`
    // then `self.extra(x)`, or a computed `"head" + str(i)` read back by
    // `getattr(self, "head" + str(i))` (SwAV's prototype heads). The
    // layer is also a child the module's iteration yields.
    if ((m == "add_module" || m == "register_module" ||
         m == "register_buffer" || m == "register_parameter") &&
        cs.call->args.size() >= 2 && cs.args.size() >= 2) {
      Node self = solver.newNode();
      solver.addObject(self, o);
      const ast::Expr *key = cs.call->args[0];
      auto *c = llvm::dyn_cast<ast::Constant>(key);
      if (c && c->kind == ast::ConstantKind::Str)
        store(self, c->value, cs.args[1]);
      else
        storeComputed(self, key, cs.frame->def, cs.args[1]);
      solver.addCopy(cs.args[1], field(o, "[*]"));
    }
    // nn.Module's iteration of its parts (DeepLabV3Plus's
    // IntermediateLayerGetter: `for name, module in
    // self.named_children(): x = module(x)`): what its attributes and
    // entries hold; `modules()` also the module itself and its parts'
    // parts.
    if (m == "children" || m == "named_children" || m == "modules" ||
        m == "named_modules")
      iterateParts(cs, o, m);
    // Methods of a library base (nn.Module.train, .to, .parameters).
    if (m == "to" || m == "cuda" || m == "cpu" || m == "train" || m == "eval" ||
        m == "float" || m == "double" || m == "half" || m == "requires_grad_")
      solver.addObject(cs.result, o);
    return;
  }
  case Kind::Class: { // `Cls.method(x)`: through the attribute's load
    CallSite *site = &cs;
    // A classmethod (EfficientNet's `from_name(cls, name)`, which returns
    // `cls(...)`): the class is its first argument.
    solver.onObject(methodNode(o, m), [this, site, o](Obj fn) {
      if (isClassMethod(fn)) {
        Node cls = solver.newNode();
        solver.addObject(cls, o);
        callFunction(*site, fn, cls);
      }
    });
    // A library base's method that runs one of the class's own (role
    // `subclass_call`): `Checkpointed.apply(fn, x)` runs the class's
    // `forward(ctx, fn, x)`, torch making `ctx`.
    onSubclassCall(o, m, [this, site, o](const ApiEntry &e) {
      Node ctx = solver.newNode();
      solver.addObject(ctx, subclassCallContext(e, site->call,
                                                site->frame->module));
      solver.onObject(methodNode(o, e.get("method")),
                      [this, site, ctx](Obj fn) {
                        callFunction(*site, fn, ctx);
                      });
      // The method the library calls afterwards (autograd's `backward`),
      // with arguments of its own.
      if (StringRef later = e.get("later"); !later.empty()) {
        CallSite *inner = &callSites.emplace_back();
        inner->call = site->call;
        inner->frame = site->frame;
        inner->result = solver.newNode();
        solver.onObject(methodNode(o, later), [this, inner, ctx](Obj fn) {
          callFunction(*inner, fn, ctx);
        });
      }
    });
    return;
  }
  case Kind::Module: // `mod.f(x)`: through the attribute's load
    return;
  case Kind::LibName:
    callObject(cs, libName((ob.label() + "." + m).str()), ~0u);
    return;
  case Kind::List:
  case Kind::Set:
    if (storeElements(cs, o, m))
      return;
    if (m == "pop" || m == "copy") {
      if (m == "pop")
        solver.addCopy(field(o, "[*]"), cs.result);
      else
        solver.addObject(cs.result, o);
    }
    return;
  case Kind::Dict:
    dictMethod(cs, o, m);
    return;
  case Kind::Library: {
    // A module container filled after it is built (hifi-gan's
    // `self.ups = nn.ModuleList()`, then `self.ups.append(layer)` in a
    // loop): its elements are what its forward and its indexing reach.
    // The table entry of the call that made it.
    const ApiEntry *made = api.lookup(api.canonicalize(ob.label()));
    if (made && made->role == "container")
      storeElements(cs, o, m);
    // A dict of the library's (`collections.OrderedDict`, `defaultdict`:
    // table flag `mapping`): its methods are a dict's (minGPT keeps its
    // callbacks in `defaultdict(list)` and runs
    // `self.callbacks.get(event, [])`).
    if (made && made->has("mapping") &&
        llvm::is_contained({"get", "setdefault", "pop", "copy", "values",
                            "items", "update"},
                           m)) {
      dictMethod(cs, o, m);
      return;
    }
    const ApiEntry *entry = api.lookupMethod(ob.label(), m);
    if (entry && entry->get("returns") == "args" && returnArguments(cs))
      return;
    // What a method of an unpickled object returns is unpickled too
    // (`torch.load(f).get("model")`): code detc cannot see, as the object.
    if ((made && made->role == "load") || (entry && entry->has("self")) ||
        m == "to" || m == "cuda" ||
        m == "cpu" || m == "train" || m == "eval" || m == "float" ||
        m == "double" || m == "half" || m == "requires_grad_")
      solver.addObject(cs.result, o);
    // A method no table describes of an object of a library whose code
    // detc does not read (`fabric.setup_dataloaders(loader)` of a
    // lightning version no table has, `engine.prepare(x)`): a value that
    // code returned, of a type detc does not know, as a tuple unpacked
    // from such a call is (its loop is over what that code yields; its
    // methods may be any code). Before, a value of no library: a loop over
    // it was no batch loop. (Not a method result's method: `x = x.f()` in
    // a loop must not make `T.f.f.f...`.)
    else if (!entry && !ob.label().starts_with("*.") &&
             unmodelledLibraryCode(ob.label()))
      solver.addObject(cs.result,
                       libName((kReturnedBy + ob.label() + "." + m + ">").str()));
    else // what the method returns: one library object per call site
      // (labelled by the method alone: `x = x.f()` in a loop must not
      // make `T.f.f.f...`)
      solver.addObject(cs.result, objectAt(Kind::Library, ("*." + m).str(),
                                           cs.call, cs.frame->module));
    return;
  }
  case Kind::Generator:
    if (m == "__next__" || m == "send")
      solver.addCopy(field(o, "[*]"), cs.result);
    return;
  case Kind::Function:
  case Kind::Constant:
  case Kind::Tuple:
    return;
  }
}

bool Builder::returnArguments(CallSite &cs) {
  // `returns=args`: its positional arguments handed back in order, each
  // itself (accelerate's `model, opt, loader = accelerator.prepare(model,
  // opt, loader)`): the one argument, or a tuple of them.
  if (cs.args.empty() || llvm::is_contained(cs.starred, true))
    return false;
  if (cs.args.size() == 1) {
    solver.addCopy(cs.args[0], cs.result);
    return true;
  }
  Obj t = objectAt(Kind::Tuple, "tuple", cs.call, cs.frame->module);
  exactTuples.insert(t);
  solver.addObject(cs.result, t);
  for (size_t i = 0; i < cs.args.size(); ++i) {
    solver.addCopy(cs.args[i], field(t, "[" + std::to_string(i) + "]"));
    solver.addCopy(cs.args[i], field(t, "[*]"));
  }
  return true;
}

bool Builder::storeElements(CallSite &cs, Obj o, StringRef m) {
  // The last argument is the element (`insert(i, x)`, `add_module(name,
  // layer)`); extend/update add an iterable's elements.
  if (m == "append" || m == "add" || m == "insert" || m == "add_module" ||
      m == "register_module") {
    if (!cs.args.empty())
      solver.addCopy(cs.args.back(), field(o, "[*]"));
    return true;
  }
  if (m == "extend" || m == "update") {
    for (Node a : cs.args)
      elements(a, field(o, "[*]"));
    return true;
  }
  return false;
}

Node Builder::ownMethod(Obj cls, StringRef method) {
  // Class bodies are analysed before anything is solved, so what the class
  // defines itself is known now.
  Node own = solver.findField(cls, solver.fieldId(method));
  if (own != ~0u && llvm::any_of(solver.pointsTo(own), [&](Obj fn) {
        return out.objects[fn].kind == Kind::Function;
      }))
    return own;
  return ~0u;
}

const ApiEntry *Builder::libraryContainer(Obj base) const {
  const AbstractObject &b = out.objects[base];
  if (b.kind != Kind::LibName)
    return nullptr;
  const ApiEntry *e = api.lookup(api.canonicalize(b.label()));
  return e && e->role == "container" ? e : nullptr;
}

Node Builder::methodNode(Obj cls, StringRef method) {
  auto key = std::make_pair(cls, method.str());
  auto it = methodNodes.find(key);
  if (it != methodNodes.end())
    return it->second;
  Node n = solver.newNode();
  methodNodes[key] = n; // before the bases: a cycle of bases ends here
  // Only a class that does not define the method itself asks its bases.
  if (Node own = ownMethod(cls, method); own != ~0u) {
    solver.addCopy(own, n);
    return n;
  }
  auto ci = classes.find(cls);
  if (ci == classes.end())
    return n;
  std::string m = method.str();
  for (Node base : ci->second.bases)
    solver.onObject(base, [this, m, n](Obj b) {
      if (out.objects[b].kind == Kind::Class)
        solver.addCopy(methodNode(b, m), n);
    });
  return n;
}

Node Builder::classAttributeNode(Obj cls, StringRef name) {
  auto key = std::make_pair(cls, "." + name.str());
  auto it = methodNodes.find(key);
  if (it != methodNodes.end())
    return it->second;
  Node n = solver.newNode();
  methodNodes[key] = n; // before the bases: a cycle of bases ends here
  solver.addCopy(solver.fieldNode(cls, solver.fieldId(name)), n);
  auto ci = classes.find(cls);
  if (ci == classes.end())
    return n;
  std::string attr = name.str();
  for (Node base : ci->second.bases)
    solver.onObject(base, [this, attr, n](Obj b) {
      if (out.objects[b].kind == Kind::Class)
        solver.addCopy(classAttributeNode(b, attr), n);
    });
  return n;
}

bool Builder::hasDecorator(Obj fn, StringRef name) const {
  auto it = functions.find(fn);
  return it != functions.end() &&
         ast::hasNamedDecorator(
             llvm::dyn_cast_or_null<ast::FunctionDef>(it->second.def), name);
}

bool Builder::isClassMethod(Obj fn) const {
  return hasDecorator(fn, "classmethod");
}

void Builder::loadClassData(Obj instance, StringRef name, Node dst) {
  Obj cls = classOf(out.objects[instance].label());
  if (cls == ~0u)
    return;
  solver.onObject(classAttributeNode(cls, name), [this, dst](Obj v) {
    if (out.objects[v].kind != Kind::Function)
      solver.addObject(dst, v);
  });
}

void Builder::loadBoundMethod(Obj instance, StringRef name, Node dst) {
  Obj cls = classOf(out.objects[instance].label());
  auto at = valueAttributes.find(dst);
  if (cls == ~0u || at == valueAttributes.end())
    return;
  // `partial(self.diffusion.training_losses, model, x)`, `f = obj.step`:
  // a bound method is a functools.partial of the function with the
  // instance bound first, which calling runs as a method call would.
  auto [site, module] = at->second;
  solver.onObject(methodNode(cls, name), [this, cls, instance, dst,
                                          site = site,
                                          module = module](Obj fn) {
    if (out.objects[fn].kind != Kind::Function)
      return;
    // `obj.static_m` is the function itself; `obj.class_m` has the class
    // bound.
    if (hasDecorator(fn, "staticmethod"))
      solver.addObject(dst, fn);
    else
      bindFirst(fn, isClassMethod(fn) ? cls : instance, site, module, dst);
  });
}

void Builder::bindFirst(Obj fn, Obj first, const ast::Node *site,
                        ProgramModule *module, Node dst) {
  Obj bound = objectAt(Kind::Library, "functools.partial", site, module);
  solver.addObject(field(bound, "arg0"), fn);
  solver.addObject(field(bound, "arg1"), first);
  solver.addObject(dst, bound);
}

void Builder::onSubclassCall(Obj cls, StringRef name,
                             std::function<void(const ApiEntry &)> fn) {
  auto ci = classes.find(cls);
  if (ci == classes.end())
    return;
  for (Node base : ci->second.bases)
    solver.onObject(base, [this, name = name.str(), fn](Obj b) {
      const AbstractObject &bo = out.objects[b];
      const ApiEntry *e = bo.kind == Kind::LibName
                              ? api.lookup((bo.label() + "." + name).str())
                              : nullptr;
      if (e && e->role == "subclass_call")
        fn(*e);
    });
}

Obj Builder::subclassCallContext(const ApiEntry &e, const ast::Node *site,
                                 ProgramModule *module) {
  // Of the type the entry names: its methods are the table's, not calls
  // of code detc cannot read.
  StringRef type = e.get("ctx");
  return objectAt(Kind::Library, type.empty() ? "<context>" : type, site,
                  module);
}

void Builder::loadSubclassCall(Obj cls, StringRef name, Node dst) {
  auto at = valueAttributes.find(dst);
  if (at == valueAttributes.end())
    return;
  auto [site, module] = at->second;
  onSubclassCall(cls, name, [this, cls, dst, site = site,
                             module = module](const ApiEntry &e) {
    Obj ctx = subclassCallContext(e, site, module);
    // Bound as a method is, the context first; with the method the library
    // calls afterwards (`backward`) as another thing the alias may run.
    for (StringRef method : {e.get("method"), e.get("later")})
      if (!method.empty())
        solver.onObject(methodNode(cls, method),
                        [this, ctx, dst, site, module](Obj fn) {
                          if (out.objects[fn].kind == Kind::Function)
                            bindFirst(fn, ctx, site, module, dst);
                        });
  });
}

void Builder::callBoundMethod(CallSite &cs, Obj cls, Obj instance,
                              StringRef method) {
  auto key = std::make_tuple(cs.call, cls, method.str());
  auto it = boundSelf.find(key);
  if (it != boundSelf.end()) {
    solver.addObject(it->second, instance);
    return;
  }
  Node self = solver.newNode();
  boundSelf[key] = self;
  solver.addObject(self, instance);
  CallSite *site = &cs;
  solver.onObject(methodNode(cls, method), [this, site, self, cls](Obj fn) {
    // A static method takes no receiver (`self.wiggle(x)`: its `x` is x;
    // bound to the instance, the instance flowed into what the method
    // returns); a classmethod called on an instance gets the class.
    if (hasDecorator(fn, "staticmethod")) {
      callFunction(*site, fn, ~0u);
      return;
    }
    if (isClassMethod(fn)) {
      Node first = solver.newNode();
      solver.addObject(first, cls);
      callFunction(*site, fn, first);
      return;
    }
    callFunction(*site, fn, self);
  });
}

void Builder::callObject(CallSite &cs, Obj callee, Node self) {
  const AbstractObject &ob = out.objects[callee];
  switch (ob.kind) {
  case Kind::Function:
    callFunction(cs, callee, self);
    return;
  case Kind::Class:
    callClass(cs, callee);
    return;
  case Kind::Instance:
    if (Obj cls = classOf(ob.label()); cls != ~0u) {
      callBoundMethod(cs, cls, callee, "__call__");
      callBoundMethod(cs, cls, callee, "forward");
    }
    return;
  case Kind::LibName: {
    StringRef name = ob.label();
    if (name.starts_with("builtins.") &&
        callBuiltin(cs, name.drop_front(9)))
      return;
    callLibrary(cs, name, ~0u, api.lookup(name));
    return;
  }
  case Kind::Library: {
    // functools.partial(fn, a)(b) calls fn(a, b) (role `bind`).
    const ApiEntry *entry = api.lookup(ob.label());
    if (!entry || entry->role != "bind" ||
        !partialCalls.insert({cs.call, callee}).second)
      return;
    llvm::SmallVector<Node, 4> args;
    for (unsigned i = 1;; ++i) {
      Node bound = solver.findField(callee, solver.fieldId(
                                                "arg" + std::to_string(i)));
      if (bound == ~0u)
        break;
      args.push_back(bound);
    }
    args.append(cs.args.begin(), cs.args.end());
    Node function = solver.findField(callee, solver.fieldId("arg0"));
    if (function != ~0u)
      solver.addCopy(callWithElements(cs, function, args), cs.result);
    return;
  }
  default:
    return;
  }
}

void Builder::callFunction(CallSite &cs, Obj fn, Node self) {
  // Handlers may run twice for an object: bind each (site, callee, self)
  // once.
  if (!boundCalls.insert({cs.call, fn, self}).second)
    return;
  activate(fn);
  auto it = functions.find(fn);
  if (it == functions.end())
    return;
  FunctionInfo &info = it->second;
  const ast::Arguments *args = info.args;
  solver.addCopy(info.isGenerator ? solver.newNode() : info.frame->returns,
                 cs.result);
  if (info.frame && isNameFactory(info.def, info.frame->module))
    callNamedDefinitions(cs);
  if (info.isGenerator)
    solver.addObject(cs.result, info.generator);
  if (!args)
    return;
  size_t posonly = args->posonlyargs.size();
  size_t positional = posonly + args->args.size();
  size_t shift = self != ~0u ? 1 : 0;
  if (self != ~0u && positional > 0)
    solver.addCopy(self, info.params[0]);
  Node vararg = args->vararg ? info.params[positional] : ~0u;
  Node kwarg = args->kwarg ? info.params.back() : ~0u;
  Obj varTuple = ~0u, kwDict = ~0u;
  if (vararg != ~0u) {
    varTuple = objectAt(Kind::Tuple, "tuple", cs.call, cs.frame->module);
    solver.addObject(vararg, varTuple);
  }
  if (kwarg != ~0u) {
    kwDict = objectAt(Kind::Dict, "dict", cs.call, cs.frame->module);
    solver.addObject(kwarg, kwDict);
  }
  // Positional arguments; after a `*xs` every later position may come
  // from xs.
  bool starSeen = false;
  for (size_t i = 0; i < cs.args.size(); ++i) {
    size_t p = i + shift;
    if (cs.starred[i]) {
      // `f(*(a, b))` with the tuple's positions known binds them one by
      // one; anything else may supply any later parameter.
      bool exact = !starSeen;
      starSeen = true;
      std::vector<Node> params(info.params.begin() + std::min(p, positional),
                               info.params.begin() + positional);
      solver.onObject(cs.args[i], [this, exact, params, varTuple](Obj o) {
        if (exact && exactTuples.count(o)) {
          for (size_t j = 0; j < params.size(); ++j)
            solver.addCopy(field(o, "[" + std::to_string(j) + "]"),
                           params[j]);
        } else {
          for (Node param : params)
            solver.addCopy(field(o, "[*]"), param);
        }
        if (varTuple != ~0u)
          solver.addCopy(field(o, "[*]"), field(varTuple, "[*]"));
      });
      continue;
    }
    if (starSeen) {
      for (size_t q = p; q < positional; ++q)
        solver.addCopy(cs.args[i], info.params[q]);
    } else if (p < positional) {
      solver.addCopy(cs.args[i], info.params[p]);
      continue;
    }
    if (varTuple != ~0u)
      solver.addCopy(cs.args[i], field(varTuple, "[*]"));
  }
  // Keywords by name (positional-only parameters are not names).
  auto paramIndex = [&](StringRef name) -> int {
    for (size_t i = posonly; i < info.params.size(); ++i) {
      if (Node(i) == positional && vararg != ~0u)
        continue;
      if (kwarg != ~0u && i + 1 == info.params.size())
        continue;
      if (getParamNames(args)[i] == name)
        return int(i);
    }
    return -1;
  };
  for (auto &[name, value] : cs.keywords) {
    int i = paramIndex(name);
    if (i >= 0) {
      solver.addCopy(value, info.params[i]);
    } else if (kwDict != ~0u) {
      solver.addCopy(value, field(kwDict, ("['" + name + "']").str()));
      solver.addCopy(value, field(kwDict, "[*]"));
    }
  }
  // `**d`: each named parameter from d's entry of that name.
  llvm::SmallVector<StringRef> names = getParamNames(args);
  for (Node d : cs.doubleStar) {
    for (size_t i = posonly; i < names.size(); ++i) {
      if ((vararg != ~0u && i == positional) ||
          (kwarg != ~0u && i + 1 == names.size()))
        continue;
      load(d, "['" + names[i].str() + "']", info.params[i]);
      load(d, "[?]", info.params[i]);
      // A dict subclass whose attributes are its entries (dnnlib's and
      // many projects' EasyDict: `c.G_kwargs = ...`, then `f(**c)`).
      load(d, names[i], info.params[i]);
    }
    if (kwDict != ~0u) {
      Node to = solver.newNode();
      solver.addObject(to, kwDict);
      mergeFields(d, to);
    }
  }
}

void Builder::callClass(CallSite &cs, Obj cls) {
  const ClassInfo &info = classes[cls];
  Obj inst = objectAt(Kind::Instance, info.symbol, cs.call, cs.frame->module);
  solver.addObject(cs.result, inst);
  callBoundMethod(cs, cls, inst, "__init__");
  bindSelfOfMethods(cls, inst);
  // A class deriving from a library class (nn.Module, Dataset): its
  // library constructor runs too. One without an `__init__` of the
  // program's, deriving from a library container (improved-diffusion's
  // `class TimestepEmbedSequential(nn.Sequential, TimestepBlock)`, built
  // with its layers and iterated with `for layer in self`), holds the
  // parts it is given as the container does.
  constructLibraryBase(cs, cls, inst, 0);
  constructDataclass(cs, cls, inst);
}

void Builder::constructDataclass(CallSite &cs, Obj cls, Obj inst) {
  auto ci = classes.find(cls);
  if (ci == classes.end() || !ci->second.def ||
      ownMethod(cls, "__init__") != ~0u)
    return;
  CallSite *site = &cs;
  for (Node d : ci->second.decorators)
    solver.onObject(d, [this, site, cls, inst](Obj o) {
      // `@dataclass`, `@dataclasses.dataclass(frozen=True)`.
      const AbstractObject &ob = out.objects[o];
      if ((ob.kind != Kind::LibName && ob.kind != Kind::Library) ||
          ob.label() != "dataclasses.dataclass" ||
          !dataclassCalls.insert({site->call, inst}).second)
        return;
      Node self = solver.newNode();
      solver.addObject(self, inst);
      for (const KeywordArg &k : site->keywords)
        if (!k.name.empty())
          store(self, k.name, k.value);
      // Positional arguments in the order of the annotated fields. A
      // base's fields would come first, and a base is not followed here;
      // nor are the positions after a `*args`: there, each positional
      // argument may be any field.
      std::vector<llvm::StringRef> fields;
      for (const ast::Stmt *st : classes[cls].def->body)
        if (auto *a = llvm::dyn_cast<ast::AnnAssign>(st); a && a->simple)
          if (auto *n = llvm::dyn_cast<ast::Name>(a->target))
            fields.push_back(n->id);
      bool known = classes[cls].bases.empty();
      for (size_t i = 0; i < site->args.size(); ++i) {
        known = known && !site->starred[i];
        for (size_t k = 0; k < fields.size(); ++k) {
          if (known && k != i)
            continue;
          if (site->starred[i])
            elements(site->args[i], field(inst, fields[k]));
          else
            store(self, fields[k], site->args[i]);
        }
      }
    });
}

void Builder::constructLibraryBase(CallSite &cs, Obj cls, Obj inst,
                                   unsigned depth) {
  if (depth > 16)
    return;
  // The class's own `__init__` runs instead of its bases'.
  if (ownMethod(cls, "__init__") != ~0u)
    return;
  auto ci = classes.find(cls);
  if (ci == classes.end())
    return;
  CallSite *site = &cs;
  for (Node base : ci->second.bases)
    solver.onObject(base, [this, site, inst, depth](Obj b) {
      const AbstractObject &bo = out.objects[b];
      if (bo.kind == Kind::Class)
        constructLibraryBase(*site, b, inst, depth + 1);
      else if (const ApiEntry *e = libraryContainer(b))
        rememberArguments(*site, e, inst);
      else if (bo.kind == Kind::LibName && bo.label() == "builtins.dict")
        constructDictBase(*site, inst);
      else if (const ApiEntry *e =
                   bo.kind == Kind::LibName
                       ? api.lookup(api.canonicalize(bo.label()))
                       : nullptr;
               e && e->role == "dataset") {
        // A library dataset's constructor (`class MyCelebA(CelebA)` with
        // no `__init__` of its own, built as `MyCelebA(root,
        // transform=t)`): it keeps the transform on the instance, as
        // `super().__init__(root, transform=t)` does.
        Node self = solver.newNode();
        solver.addObject(self, inst);
        storeDatasetArguments(*site, *e, self);
      }
    });
}

void Builder::constructDictBase(CallSite &cs, Obj inst) {
  Node self = solver.newNode();
  solver.addObject(self, inst);
  // Its entries, also as attributes: a dict subclass is most often one
  // whose attributes are its entries (EasyDict, AttrDict), and one that
  // is not only gains attributes no code reads.
  for (const KeywordArg &k : cs.keywords) {
    if (k.name.empty())
      continue;
    store(self, ("['" + k.name + "']").str(), k.value);
    store(self, k.name, k.value);
  }
  if (!cs.args.empty() && !cs.starred[0])
    fillMapping(cs.args[0], inst);
  for (Node d : cs.doubleStar)
    mergeFields(d, self);
}

void Builder::bindSelfOfMethods(Obj cls, Obj instance) {
  if (!selfBoundClasses.insert({cls, instance}).second)
    return;
  solver.onField(cls, [this, cls, instance](FieldId fid) {
    solver.onObject(solver.fieldNode(cls, fid), [this, cls,
                                                 instance](Obj fn) {
      // Its methods may run: the program's calls, a library's (a
      // DataLoader calls `__getitem__`), the interpreter's (`__iter__`).
      activate(fn);
      auto it = functions.find(fn);
      if (it == functions.end() || !it->second.args ||
          it->second.params.empty() ||
          it->second.args->posonlyargs.size() + it->second.args->args.size() ==
              0)
        return;
      // A static method's first parameter is an argument like the others;
      // a classmethod's is the class.
      if (hasDecorator(fn, "staticmethod"))
        return;
      solver.addObject(it->second.params[0],
                       isClassMethod(fn) ? cls : instance);
    });
  });
  auto ci = classes.find(cls);
  if (ci == classes.end())
    return;
  for (Node base : ci->second.bases)
    solver.onObject(base, [this, instance](Obj b) {
      if (out.objects[b].kind == Kind::Class)
        bindSelfOfMethods(b, instance);
    });
}

void Builder::storeDatasetArguments(CallSite &cs, const ApiEntry &e,
                                    Node self) {
  llvm::StringMap<Node> stored;
  for (StringRef key :
       {"transform", "target_transform", "loader", "transforms"}) {
    if (!e.has(key))
      continue;
    Node given = argumentNode(cs, e.getArg(key));
    if (given == ~0u && (llvm::is_contained(cs.starred, true) ||
                         !cs.doubleStar.empty())) {
      // Forwarded (`super().__init__(*args, **kwargs)`, DINOv2's
      // ExtendedVisionDataset): any element of the `*` iterables, or the
      // `**` mappings' entry of that name.
      given = solver.newNode();
      for (size_t i = 0; i < cs.args.size(); ++i)
        if (cs.starred[i])
          elements(cs.args[i], given);
      StringRef name = e.getArg(key).keyword;
      for (Node d : cs.doubleStar) {
        load(d, ("['" + (name.empty() ? key : name) + "']").str(), given);
        load(d, "[?]", given);
      }
    }
    StringRef fallback = e.get((key + "_default").str());
    if (given == ~0u && !fallback.empty()) {
      given = solver.newNode();
      solver.addObject(given, libName(fallback));
    }
    // Not given, and None by the signature (`target_transform=None`): the
    // attribute holds None.
    if (given == ~0u && e.getArg(key).defaultValue == "None" &&
        key != "transforms") {
      given = solver.newNode();
      solver.addObject(given, constant("None"));
    }
    // VisionDataset's `transforms`, when none is given, calls the
    // transform and the target transform (StandardTransform).
    if (given == ~0u && key == "transforms") {
      given = solver.newNode();
      for (StringRef part : {"transform", "target_transform"})
        if (auto it = stored.find(part); it != stored.end())
          solver.addCopy(it->second, given);
    }
    if (given == ~0u)
      continue;
    stored[key] = given;
    store(self, key, given);
  }
}

Node Builder::argumentNode(const CallSite &cs, const ArgRef &ref) const {
  bool starredBefore = false;
  for (int i = 0; ref.position >= 0 && i <= ref.position &&
                  size_t(i) < cs.args.size();
       ++i)
    starredBefore |= cs.starred[i];
  if (starredBefore)
    return ~0u;
  if (ref.position >= 0 && size_t(ref.position) < cs.args.size())
    return cs.args[ref.position];
  for (const KeywordArg &k : cs.keywords)
    if (!ref.keyword.empty() && k.name == ref.keyword)
      return k.value;
  return ~0u;
}

/// `o` remembers the arguments of `cs`: by parameter name (signature) or
/// keyword, `**d` entries by their key, positional ones also as `arg<i>`.
/// A container of parts (Compose, Sequential) holds them as elements.
void Builder::rememberArguments(CallSite &cs, const ApiEntry *entry, Obj o) {
  bool container = entry && entry->role == "container";
  const std::vector<ApiParam> *sig = entry ? &entry->signature : nullptr;
  size_t positional = 0;
  if (sig)
    for (const ApiParam &p : *sig)
      if (p.kind == ApiParam::Kind::PositionalOnly ||
          p.kind == ApiParam::Kind::PositionalOrKeyword)
        ++positional;
  bool starSeen = false;
  for (size_t i = 0; i < cs.args.size(); ++i) {
    if (cs.starred[i]) {
      starSeen = true;
      // At positions the call does not show (`DataPipeline(*stages)`):
      // what the object was made from all the same.
      elements(cs.args[i], field(o, container ? "[*]" : "arg*"));
      continue;
    }
    if (container && i > 0)
      solver.addCopy(cs.args[i], field(o, "[*]"));
    if (starSeen)
      continue;
    solver.addCopy(cs.args[i], field(o, "arg" + std::to_string(i)));
    if (sig && i < positional)
      solver.addCopy(cs.args[i], field(o, (*sig)[i].name));
  }
  for (auto &[name, value] : cs.keywords)
    solver.addCopy(value, field(o, name));
  for (Node d : cs.doubleStar) {
    Obj target = o;
    solver.onObject(d, [this, target](Obj dict) {
      solver.onField(dict, [this, dict, target](FieldId f) {
        StringRef name = solver.fieldName(f);
        if (name.starts_with("['") && name.ends_with("']"))
          solver.addCopy(solver.fieldNode(dict, f),
                         field(target, name.drop_front(2).drop_back(2)));
      });
    });
  }
  // Containers of parts (Compose, Sequential): their list is kept as the
  // `transforms` attribute, so `t.transforms.append(x)` adds a part.
  if (container && !cs.args.empty() && !cs.starred[0]) {
    // Compose(list): the list itself; Sequential(a, b): the parts.
    solver.addCopy(cs.args[0], field(o, "transforms"));
    elements(cs.args[0], field(o, "[*]"));
    solver.onObject(cs.args[0], [this, o](Obj part) {
      Kind k = out.objects[part].kind;
      if (k != Kind::List && k != Kind::Tuple)
        solver.addObject(field(o, "[*]"), part);
      if (!isMapping(part))
        return;
      // Sequential(OrderedDict([...])): the entries are the parts.
      solver.addCopy(field(part, "[*]"), field(o, "[*]"));
      // ModuleDict({"h": ...}) or ModuleDict(dict(h=...)): each entry is
      // also an attribute (`self.transformer.h`).
      solver.onField(part, [this, part, o](FieldId f) {
        StringRef name = solver.fieldName(f);
        if (name.size() > 4 && name.starts_with("['") && name.ends_with("']"))
          solver.addCopy(solver.fieldNode(part, f),
                         field(o, name.drop_front(2).drop_back(2)));
      });
    });
  }
}

void Builder::callLibrary(CallSite &cs, StringRef qualName, Node receiver,
                          const ApiEntry *entry) {
  // A module imported by a name computed at run time: the program's
  // modules the source shows it may be (`"models." + name + "_model"`:
  // every module of the package `models` — pix2pix's, CUT's and SPADE's
  // model and dataset registries); else any module, the program's or a
  // library's, and what it defines may do anything.
  if ((qualName == "importlib.import_module" ||
       qualName == "builtins.__import__") &&
      !cs.call->args.empty() && !cs.starred[0]) {
    if (importByName(cs))
      return;
    if (!llvm::isa<ast::Constant>(cs.call->args[0])) {
      solver.addObject(cs.result, libName(kRuntimeModule));
      return;
    }
  }

  // functools.partial() without the function to bind raises TypeError
  // (its function is positional-only): no result. A candidate of a
  // dynamic lookup called with keywords only, as I-JEPA's
  // `vit.__dict__[name](img_size=..., patch_size=...)` over a module that
  // imports partial, is no partial object of an unknown function.
  if (entry && entry->role == "bind" && cs.args.empty())
    return;

  Obj o = objectAt(Kind::Library, qualName, cs.call, cs.frame->module);
  // Library code may call what it is given, now or later (a DataLoader's
  // collate_fn, a scheduler's lr_lambda, a Compose's callables). Not a
  // builtin's arguments: those call only the methods of what they are
  // given, and instantiating a class activates its methods; the builtins
  // that call their arguments (map, sorted's key) are modelled as calls.
  // Nor, in a name factory, what it calls by the name it looked up: the
  // factory's callers call what their names name with these arguments
  // (callNamedDefinitions), and a name detc cannot resolve leaves its
  // result unknown there.
  bool looked = qualName == kRuntimeModule &&
                isNameFactory(cs.frame->def, cs.frame->module);
  if (!qualName.starts_with("builtins.") && !looked)
    forEachArgument(cs, [this](Node a) { escape(a); });
  // `returns=ARG`: the call hands back that argument itself
  // (`nn.SyncBatchNorm.convert_sync_batchnorm(model)` converts the model in
  // place and returns it); where it is not bound at the call (absent, or a
  // `*iterable` or `**mapping` may supply it), any argument it was given.
  // `returns=args`: all of them in order (returnArguments).
  bool returnsGiven = entry && entry->role == "call" && entry->has("returns");
  bool handedBack = returnsGiven && entry->get("returns") == "args" &&
                    returnArguments(cs);
  if (returnsGiven && !handedBack) {
    Node given = argumentNode(cs, entry->getArg("returns"));
    if (given != ~0u) {
      solver.addCopy(given, cs.result);
    } else {
      for (Node a : cs.args)
        solver.addCopy(a, cs.result);
      for (auto &[name, value] : cs.keywords)
        solver.addCopy(value, cs.result);
      for (Node d : cs.doubleStar)
        solver.onObject(d, [this, result = cs.result](Obj dict) {
          solver.onField(dict, [this, dict, result](FieldId f) {
            solver.addCopy(solver.fieldNode(dict, f), result);
          });
        });
    }
  } else if (!handedBack) {
    solver.addObject(cs.result, o);
    // Code no table describes may return what functions registered with
    // its module return (timm's `create_model(name)`, whose registry
    // `@register_model` fills): the result may be any of it, as well as
    // the library's own object.
    if (!entry && unmodelledLibraryCode(qualName))
      solver.addCopy(registryOf(qualName.rsplit('.').first), cs.result);
  }
  // `elements=ARG`: the result's elements are views of that argument
  // (`random_split(dataset, lengths)`'s subsets).
  if (entry && entry->has("elements"))
    if (Node of = argumentNode(cs, entry->getArg("elements")); of != ~0u) {
      solver.addCopy(of, field(o, "[*]"));
      exactTuples.erase(o);
    }
  if (entry && entry->role == "call" && entry->has("self") &&
      receiver != ~0u)
    solver.addCopy(receiver, cs.result);
  rememberArguments(cs, entry, o);
  // A library's dict (`OrderedDict([("fc", fc), ("drop", drop)])`, then
  // `nn.Sequential(that)`): its entries are what it was made from.
  // (defaultdict's first argument is its factory, below.)
  if (entry && entry->has("mapping"))
    updateDict(cs, o, entry->has("factory") ? 1 : 0);
  // `factory=ARG`: the result's entries are what calling ARG returns
  // (`meters = defaultdict(SmoothedValue)`, then `meters[k].update(v)`).
  if (entry && entry->has("factory"))
    if (Node fn = argumentNode(cs, entry->getArg("factory")); fn != ~0u)
      solver.addCopy(callWithElements(cs, fn, {}), field(o, "[*]"));
  // Role `apply`: calls its first argument with the others.
  if (entry && entry->role == "apply" && !cs.args.empty() && !cs.starred[0])
    solver.addCopy(callWithElements(cs, cs.args[0], cs.args.drop_front()),
                   cs.result);
  // Library functions that hand back one of their argument's elements, or
  // call a function they are given (a process or thread target runs it
  // with `args`; torch.multiprocessing.spawn with the rank first).
  StringRef leaf = qualName.rsplit('.').second;
  if ((leaf == "choice" || leaf == "sample" || leaf == "choices") &&
      !cs.args.empty() && !cs.starred[0]) {
    elements(cs.args[0], cs.result);
    if (leaf != "choice") {
      Obj picked = objectAt(Kind::List, "list", cs.call, cs.frame->module);
      solver.addObject(cs.result, picked);
      elements(cs.args[0], field(picked, "[*]"));
    }
  }
  if (leaf == "Process" || leaf == "Thread" || leaf == "spawn") {
    Node target = solver.newNode(), argTuple = solver.newNode();
    for (auto &[name, value] : cs.keywords) {
      if (name == "target" || name == "fn")
        solver.addCopy(value, target);
      if (name == "args")
        solver.addCopy(value, argTuple);
    }
    if (leaf == "spawn" && !cs.args.empty())
      solver.addCopy(cs.args[0], target);
    llvm::SmallVector<Node, 2> innerArgs;
    llvm::SmallVector<bool, 2> innerStarred;
    if (leaf == "spawn") { // fn(rank, *args)
      innerArgs.push_back(solver.newNode());
      innerStarred.push_back(false);
    }
    innerArgs.push_back(argTuple);
    innerStarred.push_back(true);
    CallSite *inner = &callSites.emplace_back();
    inner->call = cs.call;
    inner->frame = cs.frame;
    inner->result = solver.newNode();
    inner->args = keep<Node>(innerArgs);
    inner->starred = keep<bool>(innerStarred);
    solver.onObject(target, [this, inner](Obj fn) {
      callObject(*inner, fn, ~0u);
    });
  }

}

bool Builder::importByName(CallSite &cs) {
  const ProgramModule &from = *cs.frame->module;
  std::optional<std::vector<NameChoice>> names =
      possibleNames(cs.call->args[0], cs.frame->def,
                    from.parsed ? from.parsed->module : nullptr);
  if (!names || names->empty())
    return false;
  std::vector<ProgramModule *> found;
  // A name that may be a library's module, or one detc cannot find: that
  // alternative is any module (the others are still the program's).
  bool unknownToo = false;
  for (const NameChoice &c : *names) {
    if (!c.prefix) {
      if (ProgramModule *m = program.resolve(from, c.text, 0, nullptr))
        found.push_back(m);
      else
        unknownToo = true;
      continue;
    }
    // A head `pkg.stem`: the modules of package `pkg` whose names start
    // with `stem`.
    auto [pkg, stem] = StringRef(c.text).rsplit('.');
    std::optional<std::vector<ProgramModule *>> below =
        StringRef(c.text).contains('.') && !pkg.empty()
            ? modulesBelow(from, pkg, stem)
            : std::nullopt;
    if (!below) {
      unknownToo = true;
      continue;
    }
    found.insert(found.end(), below->begin(), below->end());
  }
  if (found.empty())
    return false;
  for (ProgramModule *m : found) {
    solver.addObject(cs.result, moduleObject(m));
    program.noteImportByName(cs.call, m);
  }
  if (unknownToo)
    solver.addObject(cs.result, libName(kRuntimeModule));
  return true;
}

std::optional<std::vector<ProgramModule *>>
Builder::modulesBelow(const ProgramModule &from, StringRef pkg,
                      StringRef stem) {
  ProgramModule *p = program.resolve(from, pkg, 0, nullptr);
  if (!p || !p->isPackage)
    return std::nullopt;
  // The rest of the name being unknown (it may hold dots), every module
  // below a subpackage whose name starts with `stem` too.
  std::vector<std::string> names;
  std::function<void(StringRef, StringRef, StringRef, unsigned)> collect =
      [&](StringRef dir, StringRef prefix, StringRef head, unsigned depth) {
        std::error_code ec;
        std::vector<std::string> here;
        for (llvm::sys::fs::directory_iterator it(dir, ec), end;
             it != end && !ec; it.increment(ec)) {
          StringRef file = llvm::sys::path::filename(it->path());
          StringRef name = llvm::sys::path::stem(file);
          bool isDir = it->type() == llvm::sys::fs::file_type::directory_file;
          if (!name.starts_with(head) || name == "__init__" ||
              (!file.ends_with(".py") && !isDir))
            continue;
          here.push_back(name.str());
          if (isDir && depth < 4)
            collect(it->path(), (prefix + "." + name).str(), "", depth + 1);
        }
        for (const std::string &n : here)
          names.push_back((prefix + "." + n).str());
      };
  collect(llvm::sys::path::parent_path(p->path), pkg, stem, 0);
  llvm::sort(names); // one order, whatever the folders'
  std::vector<ProgramModule *> found;
  for (const std::string &name : names)
    if (ProgramModule *m = program.resolve(from, name, 0, nullptr))
      found.push_back(m);
  return found;
}

bool Builder::evalByName(CallSite &cs) {
  // The operands of the sum, left to right.
  std::vector<const ast::Expr *> parts;
  std::function<void(const ast::Expr *)> flatten = [&](const ast::Expr *e) {
    auto *b = llvm::dyn_cast<ast::BinOp>(e);
    if (b && b->op == ast::BinOpKind::Add) {
      flatten(b->left);
      flatten(b->right);
      return;
    }
    parts.push_back(e);
  };
  flatten(cs.call->args[0]);
  auto text = [](const ast::Expr *e) -> std::optional<StringRef> {
    auto *c = llvm::dyn_cast<ast::Constant>(e);
    if (!c || c->kind != ast::ConstantKind::Str)
      return std::nullopt;
    return StringRef(c->value);
  };
  // `eval("pkg." + name)` (HRNet pose's `eval('dataset.' +
  // cfg.DATASET.DATASET)`, the package re-exporting `coco` and `mpii`):
  // any name the package defines.
  if (parts.size() == 2)
    if (std::optional<StringRef> head = text(parts.front());
        head && head->ends_with(".") && isDottedName(head->drop_back()) &&
        !text(parts.back()))
      if (ProgramModule *pkg =
              program.resolve(*cs.frame->module, head->drop_back(), 0,
                              nullptr)) {
        solver.addCopy(anyNamedAttribute(moduleObject(pkg)), cs.result);
        program.noteImportByName(cs.call, pkg);
        return true;
      }
  // `eval(name)` of a computed name (ncsn's `eval(args.runner)(args,
  // config)` over the runners its module star-imports): any name the
  // calling module defines or imports. The string may also be any
  // expression: the call stays a construct detc cannot see (the lowering
  // warns), and its result may be anything else too.
  if (parts.size() == 1 && !text(parts.front()) &&
      !llvm::isa<ast::Constant>(parts.front())) {
    ProgramModule *self = const_cast<ProgramModule *>(cs.frame->module);
    if (!evalAnyNameAsUnknown) {
      solver.addCopy(anyNamedAttribute(moduleObject(self)), cs.result);
      ++out.evalsOfAnyName;
    }
    solver.addObject(cs.result, libName(kRuntimeModule));
    // Said here, once, in the lowering's stead (the call's candidates
    // replace the lowering of `eval` itself).
    program.noteImportByName(cs.call, self);
    warn(self, cs.call,
         evalAnyNameAsUnknown
             ? "'eval' of a computed string runs code detc cannot see: its "
               "result is taken as unknown (any name of this module made "
               "the analysis too large), and calls of it may draw "
               "[detc-unknown-construct]"
             : "'eval' of a computed string runs code detc cannot see: its "
               "result is taken as any name this module defines or "
               "imports, or anything else [detc-unknown-construct]");
    return true;
  }
  if (parts.size() < 3)
    return false;
  std::optional<StringRef> head = text(parts.front()),
                           tail = text(parts.back());
  // `"pkg." + ... + ".attr"`: the head names a package, the tail an
  // attribute path of the module the middle names.
  if (!head || !tail || !head->ends_with(".") || !tail->starts_with(".") ||
      !isDottedName(*head) || !isDottedName(*tail) || tail->size() < 2)
    return false;
  for (const ast::Expr *middle :
       llvm::ArrayRef(parts).drop_front().drop_back())
    if (std::optional<StringRef> t = text(middle); t && !isDottedName(*t))
      return false;
  std::optional<std::vector<ProgramModule *>> modules =
      modulesBelow(*cs.frame->module, head->drop_back(), "");
  if (!modules || modules->empty())
    return false;
  llvm::SmallVector<StringRef, 4> path;
  tail->drop_front().split(path, '.');
  for (ProgramModule *m : *modules) {
    Node at = solver.newNode();
    solver.addObject(at, moduleObject(m));
    for (StringRef attr : path) {
      Node next = solver.newNode();
      solver.onObject(at, [this, next, attr](Obj o) {
        solver.addCopy(field(o, attr), next);
      });
      at = next;
    }
    solver.addCopy(at, cs.result);
    program.noteImportByName(cs.call, m);
  }
  return true;
}

Node Builder::elementNode(Node container) {
  Node n = solver.newNode();
  elements(container, n);
  return n;
}

Node Builder::callWithElements(CallSite &cs, Node function,
                               llvm::ArrayRef<Node> args) {
  CallSite *inner = &callSites.emplace_back();
  inner->call = cs.call;
  inner->frame = cs.frame;
  inner->result = solver.newNode();
  inner->args = keep<Node>(args);
  llvm::SmallVector<bool, 2> starred(args.size(), false);
  inner->starred = keep<bool>(starred);
  solver.onObject(function, [this, inner](Obj fn) {
    callObject(*inner, fn, ~0u);
  });
  return inner->result;
}

bool Builder::callBuiltin(CallSite &cs, StringRef name) {
  ProgramModule *m = cs.frame->module;
  auto newOf = [&](Kind k, StringRef label) {
    Obj o = objectAt(k, label, cs.call, m);
    solver.addObject(cs.result, o);
    return o;
  };
  if (name == "dict") {
    updateDict(cs, newOf(Kind::Dict, "dict"));
    return true;
  }
  if (name == "list" || name == "tuple" || name == "set" ||
      name == "sorted" || name == "reversed" || name == "frozenset") {
    Kind k = name == "tuple" ? Kind::Tuple
             : (name == "set" || name == "frozenset") ? Kind::Set
                                                       : Kind::List;
    Obj o = newOf(k, k == Kind::Tuple ? "tuple" : k == Kind::Set ? "set"
                                                                 : "list");
    for (Node a : cs.args)
      elements(a, field(o, "[*]"));
    if (name == "sorted")
      for (auto &[keyword, value] : cs.keywords)
        if (keyword == "key" && !cs.args.empty())
          callWithElements(cs, value, {elementNode(cs.args[0])});
    return true;
  }
  if (name == "iter") {
    for (Node a : cs.args)
      solver.addCopy(a, cs.result);
    return true;
  }
  // `sum(datasets, start)`: the program's instances among the elements and
  // the start, as `a + b` of them is either (a ConcatDataset of datasets).
  if (name == "sum") {
    for (size_t i = 0; i < cs.args.size(); ++i) {
      Node part = i == 0 ? elementNode(cs.args[0]) : cs.args[i];
      solver.onObject(part, [this, result = cs.result](Obj o) {
        if (out.objects[o].kind == Kind::Instance)
          solver.addObject(result, o);
      });
    }
    return true;
  }
  // globals(): a dict of the module's names; `globals()[name]` with a
  // computed name may be any of them.
  if (name == "globals" && cs.args.empty()) {
    Obj d = newOf(Kind::Dict, "dict");
    if (auto frame = moduleFrames.find(m->name); frame != moduleFrames.end())
      fillGlobals(d, *frame->second);
    return true;
  }
  // Builtins that call a function they are given on the elements of
  // iterables: map(fn, xs, ys) calls fn(x, y); filter(fn, xs) fn(x);
  // sorted/min/max(xs, key=fn) fn(x). The result of map is a list of what
  // fn returns; of filter and sorted, of the elements.
  if (name == "map" || name == "filter") {
    if (cs.args.size() < 2 || cs.starred[0])
      return false;
    Obj list = newOf(Kind::List, "list");
    llvm::SmallVector<Node, 2> innerArgs;
    for (size_t i = 1; i < cs.args.size(); ++i) {
      Node element = solver.newNode();
      elements(cs.args[i], element);
      innerArgs.push_back(element);
      if (name == "filter")
        elements(cs.args[i], field(list, "[*]"));
    }
    Node returned = callWithElements(cs, cs.args[0], innerArgs);
    if (name == "map")
      solver.addCopy(returned, field(list, "[*]"));
    return true;
  }
  if ((name == "min" || name == "max") && !cs.args.empty()) {
    // min(xs): an element; min(a, b): one of the arguments.
    for (Node a : cs.args)
      cs.args.size() == 1 ? elements(a, cs.result)
                          : solver.addCopy(a, cs.result);
    for (auto &[keyword, value] : cs.keywords)
      if (keyword == "key")
        for (Node a : cs.args)
          callWithElements(cs, value, {elementNode(a)});
    return true;
  }
  if (name == "next") {
    if (!cs.args.empty())
      elements(cs.args[0], cs.result);
    return true;
  }
  if (name == "enumerate" || name == "zip") {
    Obj list = newOf(Kind::List, "list");
    Obj pair = objectAt(Kind::Tuple, "tuple", cs.call->func, m);
    exactTuples.insert(pair);
    solver.addObject(field(list, "[*]"), pair);
    for (size_t i = 0; i < cs.args.size(); ++i) {
      size_t slot = name == "enumerate" ? 1 : i;
      if (name == "enumerate" && i > 0)
        break;
      Node part = field(pair, "[" + std::to_string(slot) + "]");
      elements(cs.args[i], part);
      elements(cs.args[i], field(pair, "[*]"));
    }
    return true;
  }
  if (name == "getattr" || name == "setattr") {
    // What getattr reads is a value, as `obj.name` is: a method of the
    // object's class comes out bound to it (`getattr(self, 'aug_' +
    // kind)(x)` called nothing before: no object came out, and the call
    // was a may-draw finding at best, never followed into the method).
    if (name == "getattr")
      valueAttributes[cs.result] = {cs.call, cs.frame->module};
    if (cs.call->args.size() >= 2)
      if (auto *c = llvm::dyn_cast<ast::Constant>(cs.call->args[1]);
          c && c->kind == ast::ConstantKind::Str) {
        if (name == "getattr")
          loadAttribute(cs.args[0], solver.fieldId(c->value), cs.result);
        else if (cs.args.size() >= 3)
          store(cs.args[0], c->value, cs.args[2]);
      }
    if (name == "setattr" && cs.args.size() >= 3 &&
        !llvm::isa<ast::Constant>(cs.call->args[1]))
      storeComputed(cs.args[0], cs.call->args[1], cs.frame->def, cs.args[2]);
    if (name == "getattr" && cs.args.size() >= 3)
      solver.addCopy(cs.args[2], cs.result);
    // A computed name: `getattr(self, name)` is any field of the object
    // or method of its class, unless the source shows every name it may
    // be (AttributeNames.h): those, or those with its constant head.
    if (name != "getattr" || cs.args.size() < 2 ||
        llvm::isa<ast::Constant>(cs.call->args[1]))
      return true;
    std::optional<std::vector<NameChoice>> names =
        possibleNames(cs.call->args[1], cs.frame->def);
    // `getattr(np, name)`: some name of that library, one object per
    // library (the lowering judges a call of it). Any attribute of a
    // module imported by a name computed at run time may be anything too
    // (latent-diffusion's `getattr(importlib.import_module(module), cls)`
    // was nothing, so the model it makes and trains was None).
    auto libraryAttribute = [this](Obj o, Node result) {
      const AbstractObject &ob = out.objects[o];
      if (ob.label() == kRuntimeModule)
        solver.addObject(result, o);
      else if (!ob.label().starts_with("<"))
        solver.addObject(result,
                         libName("<dynamic attribute of " +
                                 ob.label().split('.').first.str() + ">"));
    };
    std::vector<std::string> heads;
    if (names)
      for (const NameChoice &c : *names) {
        if (!c.prefix)
          loadAttribute(cs.args[0], solver.fieldId(c.text), cs.result);
        else
          heads.push_back(c.text);
      }
    if (names && !heads.empty()) {
      // Each field of the base's objects (and their classes) named with a
      // head, read as `getattr(base, "that name")`, once per site.
      auto loaded = std::make_shared<llvm::DenseSet<FieldId>>();
      Node base = cs.args[0], result = cs.result;
      solver.onObject(base, [this, heads, base, result, loaded,
                             libraryAttribute](Obj o) {
        const AbstractObject &ob = out.objects[o];
        if (ob.kind == Kind::LibName) {
          libraryAttribute(o, result);
          return;
        }
        auto matching = [&](Obj of) {
          solver.onField(of, [this, heads, base, result, loaded](FieldId fid) {
            StringRef field = solver.fieldName(fid);
            // A computed store's marker (`k<*>`, storeComputed) may be
            // any name starting with k: read when some name may start
            // with both.
            bool marker = field.consume_back("<*>");
            if (llvm::any_of(heads,
                             [&](const std::string &h) {
                               return field.starts_with(h) ||
                                      (marker && StringRef(h).starts_with(
                                                     field));
                             }) &&
                loaded->insert(fid).second)
              loadAttribute(base, fid, result);
          });
        };
        matching(o);
        if (ob.kind == Kind::Instance)
          if (Obj cls = classOf(ob.label()); cls != ~0u)
            matching(cls);
      });
    }
    if (!names)
      solver.onObject(cs.args[0], [this, result = cs.result,
                                   libraryAttribute](Obj o) {
        const AbstractObject &ob = out.objects[o];
        if (ob.kind == Kind::LibName) {
          libraryAttribute(o, result);
          return;
        }
        solver.addCopy(anyNamedAttribute(o), result);
        if (ob.kind == Kind::Instance)
          if (Obj cls = classOf(ob.label()); cls != ~0u)
            solver.addCopy(anyNamedAttribute(cls), result);
      });
    return true;
  }
  if (name == "super")
    return true;
  if (name == "eval" && !cs.call->args.empty() && !cs.starred[0])
    evalByName(cs);
  // `__import__(name)` loads a module by name, as importlib.import_module
  // does (callLibrary): BigGAN's `model = __import__(config['model'])`.
  if (name == "__import__")
    return false;
  // Every other builtin (len, print, range, isinstance, ...): no object
  // the analysis tracks comes out.
  return true;
}

//===- UnreadCalls.cpp - Calls into code detc does not read ---------------===//
//
// Sound by default: a call the lowering cannot follow (a library no table
// models, a module it could not find, a callee it cannot trace) may run
// anything, draws included. The lowering records each such call on the ops
// of its statement (`unread_calls`); the analysis reports the ones that run
// inside a data-parallel region (detc-may-draw). Which libraries are known
// to draw nothing is data: api/python.api, each with its reason.
//
//===----------------------------------------------------------------------===//

#include "Lowerer.h"

using namespace detc;
using namespace detc::frontend;
using namespace mlir;
using llvm::StringRef;

/// The library name a points-to object stands for (`torch.nn.Linear`,
/// `albumentations` for `<attribute of albumentations>`), or empty when it
/// is no library's (a function, an instance, a constant) or unknown (an
/// attribute of a method result of unknown type).
static std::string libraryOf(const AbstractObject &o) {
  using Kind = AbstractObject::Kind;
  if (o.kind != Kind::LibName && o.kind != Kind::Library)
    return "";
  StringRef label = o.label();
  if (label.consume_front("<attribute of "))
    return label.drop_back().str();
  if (label.starts_with("<") || label.starts_with("*."))
    return "";
  return label.str();
}

std::optional<Lowerer::UnreadReason>
Lowerer::whyUnread(llvm::StringRef library, bool result) const {
  if (library.empty())
    return std::nullopt;
  StringRef top = library.ltrim('.').split('.').first;
  // A layer or model wrapper a table describes inside a library otherwise
  // unread (apex's FusedLayerNorm and DistributedDataParallel under
  // `unread apex`): building it and calling what it built run the forward
  // the table models (the wrapped model's), not unread code.
  const ApiEntry *entry = api.lookup(api.canonicalize(library));
  if (entry && (entry->role == "layer" || entry->role == "wrapper"))
    return std::nullopt;
  ApiModel::Unmodelled kind = api.classifyUnmodelled(library);
  // A part of a modelled library may run code no table describes
  // (`unread torch.hub`: a repository's model code), unless an entry of
  // its own does (torch.hub's downloaders); a wildcard's does not.
  bool ownEntry = entry && entry->pattern == api.canonicalize(library);
  if (kind == ApiModel::Unmodelled::Unread && api.isLibraryName(library) &&
      !ownEntry)
    return UnreadReason{("code of '" + library +
                         "' that detc does not read (" +
                         api.unmodelledReason(library) + ")")
                            .str()};
  if (api.isLibraryName(library)) {
    // A name of a modelled library that no table describes: new in this
    // version, private, or a function no one listed (torch.names.api
    // lists what torch's own API says draws nothing). It may draw, unless
    // a `quiet` declaration covers it (`quiet torch.utils.tensorboard`).
    if (api.describes(library) || kind == ApiModel::Unmodelled::Quiet)
      return std::nullopt;
    return UnreadReason{
        ("a name of '" + top + "' that no API table describes").str()};
  }
  if (kind == ApiModel::Unmodelled::Quiet)
    return std::nullopt;
  // A library no table models: its source, where the interpreter has it.
  LibraryEffect e = result ? librarySource.effectOfResult(library)
                           : librarySource.effectOfCall(library);
  switch (e.kind) {
  case LibraryEffect::Kind::Pure:
    return std::nullopt;
  case LibraryEffect::Kind::Draws:
    return UnreadReason{"library code that draws: " + e.detail, true,
                        e.ownGenerator};
  case LibraryEffect::Kind::Unknown:
    return UnreadReason{e.detail};
  case LibraryEffect::Kind::NotFound:
    break;
  }
  std::string absent =
      options.librarySource.python.empty()
          ? ""
          : "; its source is not on " + options.librarySource.python +
                "'s search path";
  // A module of the program's own package that is not there (a git
  // submodule not checked out: SPADE's models/networks/sync_batchnorm):
  // named in full, not by the package's top-level name. The package is
  // the longest head of the name that is a module of the program or holds
  // one, and the next part no name it defines.
  for (StringRef head = library.contains('.') ? library.rsplit('.').first
                                               : StringRef();
       !head.empty();
       head = head.contains('.') ? head.rsplit('.').first : StringRef()) {
    bool isPackage = unitsByModule.count(head) ||
                     llvm::any_of(unitsByModule, [&](const auto &u) {
                       return StringRef(u.getKey()).starts_with(
                           (head + ".").str());
                     });
    if (!isPackage)
      continue;
    StringRef missing = library.drop_front(head.size() + 1).split('.').first;
    if (pointsTo && !pointsTo->pointsTo(head, missing).empty())
      break; // a name the module defines: not a missing module
    return UnreadReason{("module '" + head + "." + missing +
                         "' of the program's package '" + head +
                         "', which detc could not find (its import is "
                         "unresolved)")
                            .str()};
  }
  // A module of the standard library no line declares harmless or unread
  // (`pdb`, `mmap` before python.api declared it): its source is
  // the interpreter's, and where it is not read it may do anything.
  if (kind == ApiModel::Unmodelled::Unknown && api.isStandardLibrary(library))
    return UnreadReason{("module '" + top +
                         "' of the standard library, which no API table "
                         "declares harmless")
                            .str() +
                        absent};
  if (kind == ApiModel::Unmodelled::Unread)
    return UnreadReason{("library '" + top +
                         "', whose code detc does not read (" +
                         api.unmodelledReason(library) + ")")
                            .str() +
                        absent};
  return UnreadReason{
      ("module '" + top +
       "', which detc could not find and no API table models")
          .str() +
      absent};
}

bool Lowerer::isUnpickled(PointsToResult::ObjectId o) const {
  const AbstractObject &ob = pointsTo->object(o);
  if (ob.kind != AbstractObject::Kind::Library)
    return false;
  const ApiEntry *e = api.lookup(api.canonicalize(ob.label()));
  return e && e->role == "load";
}

bool Lowerer::isReturnedByUnreadCode(PointsToResult::ObjectId o) const {
  const AbstractObject &ob = pointsTo->object(o);
  // (The module itself, and its attributes, are a LibName; what calling
  // one returned is an object of the call.)
  return ob.label().starts_with(kReturnedBy) ||
         (ob.kind == AbstractObject::Kind::Library &&
          ob.label().starts_with(kRuntimeModule));
}

std::optional<Lowerer::UnreadReason> Lowerer::drawingLibraryCandidate(
    llvm::ArrayRef<PointsToResult::ObjectId> objs) const {
  for (PointsToResult::ObjectId o : objs) {
    const AbstractObject &ob = pointsTo->object(o);
    std::string library = libraryOf(ob);
    // A library model the lowering built: its forward is modelled.
    if (library.empty() ||
        !loweredIds({o}, 'b', ObjectInfo::Build).empty())
      continue;
    // A callable (`models.vgg11`), or a model one made (what a draw
    // returns is a value, not something that draws when called).
    const ApiEntry *e = api.lookup(api.canonicalize(library));
    bool callable = ob.kind == AbstractObject::Kind::LibName
                        ? e && (e->role == "layer" || e->role == "draw")
                        : e && e->role == "layer";
    if (callable && e->has("dist"))
      return UnreadReason{"'" + library +
                          "', a library callable that draws, among what "
                          "the callee may be"};
  }
  return std::nullopt;
}

bool Lowerer::mayCallLibrary(const ast::Expr *callee) const {
  if (!pointsTo)
    return false;
  return llvm::any_of(partialTargets(pointsTo->pointsTo(callee)),
                      [&](PointsToResult::ObjectId o) {
                        return !libraryOf(pointsTo->object(o)).empty();
                      });
}

StringRef Lowerer::programModuleOf(StringRef qualified) const {
  for (size_t dot = qualified.rfind('.'); dot != StringRef::npos;
       dot = qualified.take_front(dot).rfind('.'))
    if (unitsByModule.count(qualified.take_front(dot)))
      return qualified.take_front(dot);
  return "";
}

std::optional<Lowerer::UnreadReason>
Lowerer::whyObjectsUnread(llvm::ArrayRef<PointsToResult::ObjectId> objs,
                          StringRef qualified) const {
  for (PointsToResult::ObjectId o : objs) {
    const AbstractObject &ob = pointsTo->object(o);
    StringRef label = ob.label();
    if (isUnpickled(o))
      return UnreadReason{("an object unpickled by '" + label +
                           "' (a model saved whole with torch.save, say): "
                           "what it runs is the pickled classes' code, "
                           "which detc cannot see")
                              .str()};
    if ((ob.kind == AbstractObject::Kind::LibName ||
         ob.kind == AbstractObject::Kind::Library) &&
        label.starts_with(kRuntimeModule))
      return UnreadReason{"code of a module imported by a name computed at "
                          "run time (importlib.import_module), which may "
                          "be any module: any code, random draws included"};
    if (ob.kind == AbstractObject::Kind::LibName &&
        label.consume_front(kReturnedBy)) {
      auto [library, attrs] = label.split('>');
      if (api.classifyUnmodelled(library) == ApiModel::Unmodelled::Quiet)
        continue;
      // Its method named as one of torch.Tensor's, numpy.ndarray's or
      // PIL.Image's, or one a table gives any receiver: taken as that
      // type's, as on any value detc cannot trace (untracedReceiverMethod;
      // PIL's `y, cb, cr = img.split()`, then `y.copy()`).
      StringRef method = attrs.drop_front().split('.').first;
      if (!method.empty() && api.isKnownResultMethod(method))
        continue;
      std::string by = library.starts_with("*.")
                           ? ("method '" + library.drop_front(2) +
                              "' of a value detc cannot trace")
                                 .str()
                           : ("'" + library + "'").str();
      return UnreadReason{"a value " + by +
                          " returned, whose type detc does not know: its "
                          "methods may be any code, random draws included"};
    }
    if (ob.kind == AbstractObject::Kind::LibName &&
        label.consume_front("<dynamic attribute of ")) {
      StringRef library = label.drop_back();
      if (api.classifyUnmodelled(library) == ApiModel::Unmodelled::Quiet)
        continue;
      return UnreadReason{
          ("a name of '" + library +
           "' chosen at run time (getattr with a computed name): any of "
           "its functions, random ones included")
              .str()};
    }
    // An instance of the program's class called (or its method called)
    // where only a library base defines it: `class Flip(A.DualTransform)`
    // is called through albumentations' `__call__`, which runs the
    // class's `apply`. The base's own code, read from source, may draw;
    // where it does not, it still runs methods of the program's class
    // from code detc does not follow into them.
    if (ob.kind == AbstractObject::Kind::Instance) {
      std::vector<std::string> work{ob.label().str()};
      for (size_t i = 0; i < work.size() && i < 32; ++i)
        if (const ClassInfo *ci = classOf(work[i])) {
          for (const std::string &base : ci->libBases) {
            std::optional<UnreadReason> w = whyUnread(base);
            bool read = !api.isLibraryName(base) &&
                        api.classifyUnmodelled(base) !=
                            ApiModel::Unmodelled::Quiet;
            if (!w && read)
              w = UnreadReason{"library code that calls the instance's own "
                               "methods, from where detc does not follow "
                               "them"};
            if (w) {
              w->why = "an instance of '" + ob.label().str() +
                       "', whose base '" + base + "' is " + w->why;
              return w;
            }
          }
          work.insert(work.end(), ci->userBases.begin(), ci->userBases.end());
        }
      continue;
    }
    // A function or class of the program the points-to resolved and the
    // lowering has no body for (a module it named otherwise): its code is
    // not in the IR, so it may draw as unread code may. Lambdas are named
    // when lowered (later in the pass).
    if ((ob.kind == AbstractObject::Kind::Function ||
         ob.kind == AbstractObject::Kind::Class) &&
        !label.contains("<lambda>")) {
      FactSet lowered;
      addProgramCallables({o}, lowered);
      if (lowered.empty())
        return UnreadReason{("code of the program ('" + label +
                             "') that detc's lowering did not find")
                                .str()};
      continue;
    }
    std::string library = libraryOf(ob);
    if (library.empty())
      continue;
    // The name as imported (`wandb.log`) is finer than the object's
    // (`<attribute of wandb>`): a declaration may cover one function. An
    // object a library call made is what that call returned.
    // A name imported from a module of the program that binds a
    // library's (yolov5's `from utils.general import colorstr`, which is
    // ultralytics') is the library's.
    StringRef named = programModuleOf(qualified).empty() ? qualified : "";
    bool result = named.empty() && ob.kind == AbstractObject::Kind::Library;
    if (std::optional<UnreadReason> why =
            whyUnread(named.empty() ? StringRef(library) : named, result))
      return why;
  }
  return std::nullopt;
}

DictionaryAttr Lowerer::unreadEntry(const Unit &unit, const ast::Expr *shown,
                                    const UnreadReason &why, bool withFile) {
  // The expression as written, on one line.
  StringRef bytes = unit.file->getBytes();
  StringRef text = bytes.slice(shown->getRange().begin.offset,
                               shown->getRange().end.offset);
  // At most 80 bytes, not cutting a UTF-8 sequence (reports are JSON).
  size_t keep = std::min<size_t>(text.size(), 80);
  while (keep < text.size() && keep > 0 && (text[keep] & 0xC0) == 0x80)
    --keep;
  std::string oneLine;
  for (char c : text.take_front(keep))
    if (c != '\n' && c != '\r' && !(c == ' ' && !oneLine.empty() &&
                                      oneLine.back() == ' '))
      oneLine += c;
  if (keep < text.size())
    oneLine += "...";
  const ast::SourcePos &at = shown->getRange().begin;
  llvm::SmallVector<NamedAttribute, 5> fields{
      attr("callee", builder.getStringAttr(oneLine)),
      attr("why", builder.getStringAttr(why.why)),
      attr("line", builder.getI64IntegerAttr(at.line)),
      attr("column", builder.getI64IntegerAttr(at.column + 1))};
  if (withFile)
    fields.push_back(attr("file", builder.getStringAttr(unit.file->getName())));
  if (why.draws)
    fields.push_back(attr("draws", builder.getUnitAttr()));
  if (why.ownGenerator)
    fields.push_back(attr("own_generator", builder.getUnitAttr()));
  // A name training libraries run their whole training by (detc-unseen-
  // training: a script whose training detc does not see may run it here).
  StringRef called;
  if (const auto *a = llvm::dyn_cast<ast::Attribute>(shown))
    called = a->attr;
  else if (const auto *n = llvm::dyn_cast<ast::Name>(shown))
    called = n->id;
  if (!called.empty() && api.isEntryMethod(called))
    fields.push_back(attr("entry", builder.getUnitAttr()));
  return builder.getDictionaryAttr(fields);
}

/// `super()` or `super(C, self)`: the bases' methods, which the lowering
/// resolves through the class (a library base is whyObjectsUnread's).
static bool isSuperCall(const ast::Expr *e) {
  const auto *call = llvm::dyn_cast<ast::Call>(e);
  const auto *name = call ? llvm::dyn_cast<ast::Name>(call->func) : nullptr;
  return name && name->id == "super";
}

std::optional<Lowerer::UnreadReason> Lowerer::undescribedLibraryMethod(
    llvm::ArrayRef<PointsToResult::ObjectId> receivers, StringRef attr) const {
  for (PointsToResult::ObjectId r : receivers) {
    const AbstractObject &ob = pointsTo->object(r);
    StringRef label = ob.label();
    // (What a library method returned, `*.m`, is a value of unknown type:
    // isReturnedByUnreadCode's.)
    if (ob.kind != AbstractObject::Kind::Library || label.starts_with("<") ||
        label.starts_with("*.") || isUnpickled(r))
      continue;
    std::string made = api.canonicalize(label);
    if (!api.isLibraryName(made))
      continue; // an unmodelled library's: whyObjectsUnread says so
    // The object's type, where its constructor's entry declares one
    // (`type=`): a function's result (`torch.zeros`) has no type the
    // tables give, and its methods are untracedReceiverMethod's.
    const ApiEntry *entry = api.lookup(made);
    if (!entry || entry->get("type").empty())
      continue;
    std::string type = entry->get("type").str();
    std::string member = type + "." + attr.str();
    if (api.lookupMethod(type, attr) || api.describes(member))
      continue;
    std::optional<UnreadReason> why = whyUnread(member);
    if (why) {
      why->why = "method '" + attr.str() + "' of a '" + type +
                 "' object, " + why->why;
      return why;
    }
  }
  return std::nullopt;
}

std::optional<Lowerer::UnreadReason> Lowerer::libraryBaseAttribute(
    llvm::ArrayRef<PointsToResult::ObjectId> receivers, StringRef attr) const {
  if (api.isKnownValueMethod(attr))
    return std::nullopt;
  for (PointsToResult::ObjectId r : receivers) {
    const AbstractObject &ob = pointsTo->object(r);
    if (ob.kind != AbstractObject::Kind::Instance)
      continue;
    for (const std::string &cls : definitionsOf(ob.label(), classes)) {
      // Datasets only: a model's and an optimizer's library methods
      // (add_module, named_children, zero_grad) are modelled by name
      // elsewhere, and a dataset's attributes run per example.
      const ClassInfo *ci = classOf(cls);
      if (!ci || ci->role != ir::ClassRole::Dataset ||
          !findMethod(cls, attr).empty())
        continue;
      for (const std::string &base : ci->libBases) {
        std::string library = StringRef(base).split('.').first.str();
        if (api.lookupMethod(api.canonicalize(base), attr) ||
            api.classifyUnmodelled(library) == ApiModel::Unmodelled::Quiet)
          continue;
        return UnreadReason{"'" + attr.str() + "', which neither class '" +
                            ob.label().str() +
                            "' nor the program sets: its library base '" +
                            base + "' provides it, in code detc does not "
                            "model"};
      }
    }
  }
  return std::nullopt;
}

bool Lowerer::noteUnreadCall(FuncCtx &f, const ast::Call *call,
                             StringRef qualified, const ast::Expr *receiver) {
  if (!emitIR || !currentStmt || !currentUnit)
    return false;
  // A builtin (`super()`, `len(x)`): quiet (api/python.api).
  if (auto *n = llvm::dyn_cast<ast::Name>(call->func);
      n && qualified.empty() && !isBoundName(f, n->id))
    return false;
  std::optional<UnreadReason> why;
  // An attribute of a program instance that only its library base can
  // provide: said when nothing else is (last).
  std::optional<UnreadReason> baseAttribute;
  // A method of a library object that no table describes.
  std::optional<UnreadReason> libraryMethod;
  // What the callee may be; for a method whose attribute holds nothing the
  // analysis tracks (`tok.encode`), what its receiver may be.
  std::vector<PointsToResult::ObjectId> objs;
  if (pointsTo) {
    objs = pointsTo->pointsTo(call->func);
    // A method call's callee is no expression the points-to evaluates:
    // the attribute is read off the receiver's objects (`self.aug`).
    if (objs.empty() && receiver) {
      std::vector<PointsToResult::ObjectId> receivers =
          pointsTo->pointsTo(receiver);
      StringRef attr = llvm::cast<ast::Attribute>(call->func)->attr;
      for (PointsToResult::ObjectId r : receivers)
        for (PointsToResult::ObjectId o : pointsTo->field(r, attr))
          objs.push_back(o);
      // A value of unknown type a library returned, whose method is named
      // as one of torch.Tensor's, numpy.ndarray's or PIL.Image's, or one a
      // table gives any receiver: taken as that type's, as on any value
      // detc cannot trace (PIL's `y, cb, cr = img.split()`, `y.copy()`).
      if (api.isKnownResultMethod(attr))
        llvm::erase_if(receivers, [&](PointsToResult::ObjectId r) {
          return isReturnedByUnreadCode(r);
        });
      // A method of an unpickled object whose name a library type has
      // (`ckpt.keys()`, `model.eval()`): taken as that type's, as on any
      // value detc cannot trace.
      if (objs.empty() && !receivers.empty() &&
          llvm::all_of(receivers, [&](PointsToResult::ObjectId r) {
            return isUnpickled(r);
          }) &&
          !untracedReceiverMethod(f, llvm::cast<ast::Attribute>(call->func)))
        return false;
      if (objs.empty()) {
        baseAttribute = libraryBaseAttribute(receivers, attr);
        libraryMethod = undescribedLibraryMethod(receivers, attr);
        objs = std::move(receivers);
      }
    }
  }
  // A functools.partial runs what it wraps.
  if (pointsTo)
    objs = partialTargets(objs);
  why = whyObjectsUnread(objs, qualified);
  if (!why)
    why = libraryMethod;
  // A method a declaration names inside a library otherwise quiet (`unread
  // pycocotools.coco.COCO.showAnns`: it picks colours with numpy's global
  // generator), called on an object of that library.
  if (!why && receiver && pointsTo) {
    StringRef attr = llvm::cast<ast::Attribute>(call->func)->attr;
    for (PointsToResult::ObjectId r : pointsTo->pointsTo(receiver)) {
      std::string library = libraryOf(pointsTo->object(r));
      std::string member = library + "." + attr.str();
      if (library.empty() ||
          api.classifyUnmodelled(library) != ApiModel::Unmodelled::Quiet ||
          api.classifyUnmodelled(member) != ApiModel::Unmodelled::Unread)
        continue;
      why = UnreadReason{("code of '" + member +
                          "' that detc does not read (" +
                          api.unmodelledReason(member) + ")")
                             .str()};
      break;
    }
  }
  if (!why && pointsTo)
    why = drawingLibraryCandidate(
        partialTargets(pointsTo->pointsTo(call->func)));
  if (!why && llvm::any_of(objs, [&](PointsToResult::ObjectId o) {
        return isPartial(o);
      }))
    why = UnreadReason{"a functools.partial of something detc cannot trace "
                       "(a dynamic lookup, or a value made where detc cannot "
                       "see)"};
  if (!why && objs.empty()) {
    // Nothing reaches the callee: a name of a module the lowering alone
    // resolved, or a value nothing in the program makes (an attribute set
    // where detc cannot see).
    if (!qualified.empty()) {
      // A name a module of the program binds from elsewhere (yolov5's
      // `from utils.general import LOGGER`, which utils/general.py imports
      // from ultralytics): what that module's variable holds says whose
      // code it is, not the program's module path.
      StringRef module = programModuleOf(qualified);
      if (pointsTo && !module.empty()) {
        StringRef var =
            qualified.drop_front(module.size() + 1).split('.').first;
        why = whyObjectsUnread(pointsTo->pointsTo(module, var), "");
      }
      if (!why)
        why = whyUnread(qualified);
    } else if (!receiver) {
      why = UnreadReason{untraceableCallee(f, call->func)};
    } else if (!isSuperCall(receiver)) {
      if (std::optional<std::string> w = untracedReceiverMethod(
              f, llvm::cast<ast::Attribute>(call->func)))
        why = UnreadReason{*w};
    }
  }
  if (!why)
    why = baseAttribute;
  if (!why)
    return false;
  return recordUnreadCall(*f.unit, call, *why);
}

bool Lowerer::recordUnreadCall(const Unit &unit, const ast::Call *call,
                               const UnreadReason &why) {
  if (!emitIR || !currentStmt || !currentUnit)
    return false;
  if (unreadCallsOf != currentStmt) {
    unreadCallsOf = currentStmt;
    unreadCalls.clear();
  }
  const ast::SourcePos &at = call->getRange().begin;
  for (Attribute a : unreadCalls)
    if (cast<DictionaryAttr>(a).getAs<IntegerAttr>("line").getInt() ==
            at.line &&
        cast<DictionaryAttr>(a).getAs<IntegerAttr>("column").getInt() ==
            at.column + 1)
      return true;
  // A call starts where its callee does: shown there, named by it.
  unreadCalls.push_back(unreadEntry(unit, call->func, why, false));
  return true;
}

std::optional<std::string>
Lowerer::untracedReceiverMethod(const FuncCtx &f,
                                const ast::Attribute *method) const {
  // A value nothing in the program makes (a method result of unknown type,
  // a parameter no caller binds): its method may be anything, unless the
  // name is a method of torch.Tensor (the values a training script
  // handles most) or of numpy.ndarray or PIL.Image.Image (its data
  // pipeline's): a derived
  // table lists them, and a tensor's draws have entries of their own; or
  // a name an API table gives any receiver.
  if (api.isKnownValueMethod(method->attr))
    return std::nullopt;
  std::string of = untraceableCallee(f, method->value);
  if (!StringRef(of).starts_with("parameter "))
    of = "a value detc cannot trace (made where detc cannot see)";
  return ("method '" + method->attr + "' of " + of +
          "; no library type detc knows has a method of that name")
      .str();
}

std::optional<std::string>
Lowerer::unboundParameter(const FuncCtx &f, const ast::Expr *e) const {
  if (auto *n = llvm::dyn_cast<ast::Name>(e);
      n && !f.isModule && !f.isClassBody)
    if (auto it = funcParams.find(f.symbol); it != funcParams.end())
      for (size_t i = 0; i < it->second.size(); ++i)
        if (paramName(it->second, i) == n->id) {
          std::string fn = f.symbol;
          for (size_t at; (at = fn.find("::")) != std::string::npos;)
            fn.replace(at, 2, ".");
          return ("parameter '" + n->id + "' of '" + fn +
                  "', bound to nothing detc sees (called from outside the "
                  "program, or with arguments detc cannot trace)")
              .str();
        }
  return std::nullopt;
}

std::string Lowerer::untraceableCallee(const FuncCtx &f,
                                       const ast::Expr *callee) const {
  if (std::optional<std::string> param = unboundParameter(f, callee))
    return *param;
  return "a callee detc cannot trace (a dynamic lookup, or a value made "
         "where detc cannot see)";
}

std::optional<Lowerer::UnreadReason>
Lowerer::untraceableValue(FuncCtx &f, const ast::Expr *value,
                          const std::string &ownObject, StringRef noun,
                          const ast::Node *call) {
  // Known: an instance of the program's class, an object the tables model
  // (a build, a dataset), a library type; never the call's own object (a
  // wrapper's `model = DDP(model)` holds itself, flow-insensitively).
  FactSet facts = factsOf(f, value);
  if (llvm::any_of(facts, [&](const std::string &fact) {
        StringRef s = fact;
        return s.starts_with("inst:") ||
               (s.starts_with("obj:") && s.drop_front(4) != ownObject) ||
               (s.starts_with("type:") && ownObject.empty());
      }))
    return std::nullopt;
  std::vector<PointsToResult::ObjectId> objs;
  if (pointsTo) {
    std::vector<PointsToResult::ObjectId> own =
        call ? pointsToAt(call) : std::vector<PointsToResult::ObjectId>();
    for (PointsToResult::ObjectId o : pointsTo->pointsTo(value))
      if (!llvm::is_contained(own, o))
        objs.push_back(o);
  }
  // An instance of the program's class the facts did not name (`a + b` of
  // datasets, either of which it may be): known, as the facts' `inst:`.
  if (llvm::any_of(objs, [&](PointsToResult::ObjectId o) {
        const AbstractObject &ob = pointsTo->object(o);
        return ob.kind == AbstractObject::Kind::Instance &&
               classes.count(ob.label().str());
      }))
    return std::nullopt;
  if (std::optional<UnreadReason> why = whyObjectsUnread(objs, "")) {
    why->why = (noun + " that is " + why->why).str();
    return why;
  }
  if (!objs.empty())
    return std::nullopt;
  if (std::optional<std::string> param = unboundParameter(f, value))
    return UnreadReason{(noun + ", " + *param).str()};
  return UnreadReason{(noun + " made where detc cannot see (a dynamic lookup, "
                              "or a value of code detc does not read)")
                          .str()};
}

ArrayAttr Lowerer::unreadCallsOfStmt() const {
  if (unreadCalls.empty() || unreadCallsOf != currentStmt)
    return nullptr;
  return ArrayAttr::get(builder.getContext(), unreadCalls);
}

bool Lowerer::keepsArguments(const ast::Call *call, StringRef qualified,
                             const ast::Expr *receiver) const {
  if (!qualified.empty())
    return api.keepsArguments(api.canonicalize(qualified));
  if (!pointsTo)
    return false;
  std::vector<PointsToResult::ObjectId> objs =
      pointsTo->pointsTo(receiver ? receiver : call->func);
  return !objs.empty() &&
         llvm::all_of(objs, [&](PointsToResult::ObjectId o) {
           std::string library = libraryOf(pointsTo->object(o));
           return !library.empty() &&
                  api.keepsArguments(api.canonicalize(library));
         });
}

std::vector<std::string> Lowerer::mutableArguments(FuncCtx &f,
                                                   const ast::Call *call) {
  std::vector<std::string> out;
  auto add = [&](const ast::Expr *e) {
    for (std::string &v : mutableRoots(f, e))
      if (!llvm::is_contained(out, v))
        out.push_back(std::move(v));
  };
  for (const ast::Expr *a : call->args)
    add(a);
  for (const ast::Keyword *k : call->keywords)
    add(k->value);
  return out;
}

std::vector<std::string> Lowerer::mutableRoots(FuncCtx &f,
                                               const ast::Expr *e) {
  std::vector<std::string> out;
  if (!pointsTo || !e)
    return out;
  if (auto *st = llvm::dyn_cast<ast::Starred>(e))
    return mutableRoots(f, st->value);
  // What a method of an object gives (`model.parameters()`,
  // `model.module.state_dict()`) reaches that object.
  if (auto *c = llvm::dyn_cast<ast::Call>(e)) {
    if (auto *m = llvm::dyn_cast<ast::Attribute>(c->func))
      return mutableRoots(f, m->value);
    return out;
  }
  if (auto *seq = llvm::dyn_cast<ast::Sequence>(e)) {
    for (const ast::Expr *x : seq->elts)
      for (std::string &v : mutableRoots(f, x))
        if (!llvm::is_contained(out, v))
          out.push_back(std::move(v));
    return out;
  }
  if (!llvm::isa<ast::Name, ast::Attribute>(e))
    return out;
  std::string v = varPath(f, e);
  if (v.empty() || v[0] == '$')
    return out;
  // Only what may hold a mutable object: a value of unknown provenance
  // here is a number, a string or a tensor far more often than a model,
  // and each would become one more value a resume must save.
  using Kind = AbstractObject::Kind;
  bool isMutable =
      llvm::any_of(pointsTo->pointsTo(e), [&](PointsToResult::ObjectId o) {
        const AbstractObject &ob = pointsTo->object(o);
        switch (ob.kind) {
        case Kind::Instance:
        case Kind::List:
        case Kind::Dict:
        case Kind::Set:
        case Kind::Generator:
          return true;
        case Kind::Library: {
          // A value the standard library made (a path, a string, a date).
          std::string library = libraryOf(ob);
          return !api.isImmutable(api.canonicalize(ob.label())) &&
                 (library.empty() ||
                  !api.keepsArguments(api.canonicalize(library)));
        }
        default:
          return false;
        }
      });
  if (isMutable)
    out.push_back(std::move(v));
  return out;
}

//===- ApiModel.h - What library calls mean to the training model -*- C++ -*-===//
//
// The API model is data: text tables, one per library (lib/frontend/Lowering/
// api/*.api, compiled into detc; more can be loaded with --api-table). Each
// entry maps a qualified Python name (`torch.rand`, `torch.optim.*`,
// `*.backward`) to a role (`draw`, `layer`, `loader`, ...) with key=value
// details. See api/README.md for the format.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_FRONTEND_APIMODEL_H
#define DETC_FRONTEND_APIMODEL_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace detc::frontend {

/// Where an API entry finds one of the call's arguments.
struct ArgRef {
  int position = -1;    ///< 0-based positional index, not counting self.
  std::string keyword;  ///< Keyword name, if it may be passed by keyword.
  bool receiver = false; ///< The receiver of a method call (`self`).
  /// The parameter's default as the signature writes it (`0`, `None`,
  /// `False`), when the entry has a signature and the parameter a default.
  std::optional<std::string> defaultValue;
  bool empty() const { return position < 0 && keyword.empty() && !receiver; }
};

/// One parameter of a modelled callable's signature, with CPython's kinds.
struct ApiParam {
  enum class Kind {
    PositionalOnly,
    PositionalOrKeyword,
    VarPositional,
    KeywordOnly,
    VarKeyword
  };
  std::string name;
  Kind kind = Kind::PositionalOrKeyword;
  std::optional<std::string> defaultValue;
};

struct ApiEntry {
  std::string pattern; ///< As written: `torch.rand`, `torch.nn.*`, `*.backward`.
  std::string role;
  llvm::StringMap<std::string> keys; ///< Flags map to "".
  std::string table;                 ///< Table file name, for messages.
  unsigned line = 0;

  bool has(llvm::StringRef key) const { return keys.count(key); }
  llvm::StringRef get(llvm::StringRef key) const {
    auto it = keys.find(key);
    return it == keys.end() ? llvm::StringRef() : llvm::StringRef(it->second);
  }
  /// The callable's signature (`sig=(dataset,batch_size=1,...)`), not
  /// counting the receiver of a method; empty without one.
  std::vector<ApiParam> signature;

  /// Parses the argument reference stored under `key` (`0|seed`, `kw:x`,
  /// `arg:1`, `self`, or a parameter name bound through the signature as
  /// CPython binds it: its position if it may be passed positionally, its
  /// name if it may be passed by keyword); empty if absent.
  ArgRef getArg(llvm::StringRef key) const;

  /// The parameter named `name`, or null.
  const ApiParam *findParam(llvm::StringRef name) const;
};

/// The keys whose values are argument references (checked against the
/// signature when the entry has one).
bool isArgumentKey(llvm::StringRef key);

class ApiModel {
public:
  /// The tables compiled into detc.
  static const ApiModel &getBuiltin();

  /// Adds the entries of one table. Returns false and sets `error` to
  /// `table:line: message` on a malformed line.
  bool addTable(llvm::StringRef tableName, llvm::StringRef text,
                std::string &error);

  /// The entry for a qualified name: exact match first, then the longest
  /// wildcard prefix (`torch.nn.*`, `tensorflow.image.random_*`).
  const ApiEntry *lookup(llvm::StringRef qualName) const;
  /// Whether a line names `qualName` itself, not through a wildcard.
  bool hasExactEntry(llvm::StringRef qualName) const {
    return exact.contains(qualName);
  }

  /// The entry for `method` called on an instance of library type `type`,
  /// following declared bases; then `*.method`.
  const ApiEntry *lookupMethod(llvm::StringRef type,
                               llvm::StringRef method) const;
  /// `*.method`: meaningful on a receiver of unknown type.
  const ApiEntry *lookupAnyReceiver(llvm::StringRef method) const;
  /// Whether a `receiver-method` line gives `method` to library type
  /// `type` (`transpose` to `torch.Tensor`; `split` to `builtins.str` and
  /// `builtins.bytes`): on a receiver detc cannot trace, a call of such a
  /// name is taken as a method of one of those types.
  bool typeHasMethod(llvm::StringRef type, llvm::StringRef method) const;
  /// Whether an `entry-method` line names `method`: training libraries'
  /// objects run their whole training by it (`trainer.train()`,
  /// `model.fit(...)`).
  bool isEntryMethod(llvm::StringRef method) const {
    return entryMethods.contains(method);
  }
  /// Whether a call of `method` on a value of unknown type is taken as a
  /// known type's: a `*.method` line or a `receiver-method` line names it
  /// (a tensor's, an array's, an image's `transpose`, `copy`, `filter`).
  bool isKnownValueMethod(llvm::StringRef method) const {
    return lookupAnyReceiver(method) || receiverMethods.count(method);
  }
  /// isKnownValueMethod, on a value code detc does not read returned: not
  /// an `entry-method` name (`train` is nn.Module's, and the method a
  /// trainer a library or a configuration system built runs its whole
  /// training by). A parameter nothing binds (`model.train()` in a
  /// function called from outside) is still taken as the known type's.
  bool isKnownResultMethod(llvm::StringRef method) const {
    return !entryMethods.contains(method) && isKnownValueMethod(method);
  }
  /// Whether a `data-keyword` line names `keyword`: a keyword argument
  /// that training libraries take their data by (`datamodule=`,
  /// `train_dataset=`). Given a value detc cannot trace, a library call
  /// may iterate data detc cannot see there.
  bool isDataKeyword(llvm::StringRef keyword) const {
    return dataKeywords.contains(keyword);
  }
  /// Whether a `data-argument` line makes positional argument `position`
  /// of the library method `method` (a type's qualified name and the
  /// method's) its data: `trainer.fit(model, data)`.
  bool isDataArgument(llvm::StringRef method, unsigned position) const {
    auto it = dataArguments.find(method);
    return it != dataArguments.end() &&
           llvm::is_contained(it->second, position);
  }
  /// Why a call of `name` gives a value that differs from run to run (a
  /// `varies` line: `datetime.datetime.now`, the clock), or empty. The
  /// transform records such a read for fast-forward, which gives the
  /// resumed run the checkpointed run's value (docs/replay.md).
  llvm::StringRef variesWith(llvm::StringRef name) const {
    auto it = variesFrom.find(name);
    return it == variesFrom.end() ? llvm::StringRef() : it->second;
  }
  /// Whether an `immutable` line names the library type `type`: no method
  /// of its changes the object it is called on (pathlib's paths).
  bool isImmutable(llvm::StringRef type) const {
    return immutableTypes.contains(type);
  }

  /// The declared base type of a library type, or empty.
  llvm::StringRef getBase(llvm::StringRef type) const;

  /// Rewrites a leading module alias (`keras.layers.X` ->
  /// `tensorflow.keras.layers.X`).
  std::string canonicalize(llvm::StringRef qualName) const;

  /// True for library modules the tables know (`torch.nn`, `numpy.random`).
  bool isKnownModule(llvm::StringRef module) const;
  /// True if `name` is a known module or lies under one (`torch.foo.bar`).
  bool isLibraryName(llvm::StringRef name) const;
  /// Whether calls of `name` change none of the objects they are given: a
  /// name of the standard library (a `stdlib` module) that no
  /// `changes-arguments` line names (`os.path.join`, not `heapq.heappush`).
  bool keepsArguments(llvm::StringRef name) const;
  /// Whether `name` is a module of the standard library or lies under one
  /// (a `stdlib` line names its top-level module).
  bool isStandardLibrary(llvm::StringRef name) const {
    return stdlibModules.contains(name.split('.').first);
  }
  /// Whether a module can read `name` without binding it: a builtin
  /// (`len`, `ValueError`) or a name every module, class body or method
  /// gets (`__file__`, `__class__`): builtins.api. Any other name bound
  /// nowhere is a NameError at run time.
  bool isBuiltinName(llvm::StringRef name) const {
    return builtinNames.contains(name);
  }
  /// True if a table describes `name`: a known module, a name with an
  /// entry (exact or wildcard), or a method of a described type
  /// (`torch.Tensor.view` through `*.view`). A library name no table
  /// describes may draw (sound by default).
  bool describes(llvm::StringRef name) const;

  /// The names `from module import *` binds: those its `exports` lines
  /// list, else all exact (non-wildcard) names directly under `module`.
  std::vector<std::string> namesUnder(llvm::StringRef module) const;
  /// The names `from module import *` binds, where an `exports` line lists
  /// them (the module's `__all__`), else null.
  const llvm::StringSet<> *exportsOf(llvm::StringRef module) const {
    auto it = exported.find(module);
    return it == exported.end() ? nullptr : &it->second;
  }

  /// What detc knows of the code behind a library name that no table
  /// models (`os.path.join`, `albumentations.Compose`): the innermost
  /// module declared `quiet` (its code draws from no random generator) or
  /// `unread` (a library detc knows of but does not read: it may draw).
  enum class Unmodelled { Unknown, Quiet, Unread };
  Unmodelled classifyUnmodelled(llvm::StringRef name) const;
  /// The reason a `quiet` or `unread` declaration gives for the module
  /// holding `name` (empty when there is none).
  llvm::StringRef unmodelledReason(llvm::StringRef name) const;

private:
  llvm::StringMap<ApiEntry> exact;
  std::vector<ApiEntry> wildcards; ///< Sorted longest prefix first.
  /// Each wildcard's text before its `*` (`torch.nn.`): its index.
  llvm::StringMap<unsigned> wildcardByParent;
  /// The wildcards whose `*` ends a name's last part (`layers.Random*`),
  /// longest first.
  llvm::SmallVector<unsigned, 4> partialWildcards;
  llvm::StringMap<ApiEntry> anyReceiver;
  /// Each method name, the types whose `receiver-method` lines give it.
  llvm::StringMap<llvm::SmallVector<std::string, 1>> receiverMethods;
  llvm::StringSet<> dataKeywords;
  llvm::StringSet<> entryMethods;
  llvm::StringMap<llvm::SmallVector<unsigned, 1>> dataArguments;
  llvm::StringSet<> immutableTypes;
  llvm::StringSet<> stdlibModules;
  llvm::StringSet<> builtinNames;
  llvm::StringMap<llvm::StringSet<>> exported;
  llvm::StringSet<> changesArguments;
  llvm::StringMap<std::string> variesFrom;
  llvm::StringMap<std::string> bases;
  llvm::StringMap<std::string> aliases;
  llvm::StringMap<bool> modules;
  /// The longest word of any table: no longer prefix of a name is a key.
  size_t longestName = 0;
  /// `quiet` / `unread` modules with the reason their declaration gives.
  llvm::StringMap<std::pair<Unmodelled, std::string>> unmodelled;
};

} // namespace detc::frontend

#endif // DETC_FRONTEND_APIMODEL_H

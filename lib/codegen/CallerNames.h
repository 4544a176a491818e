//===- CallerNames.h - Callee locals as their callers name them -*- C++ -*-===//
//
// A checkpoint is written in one function; what it must save may have been
// changed under another function's name: a factory's local (`model` in
// `def build(): model = Net(); return model`), `self` of a constructor
// (`self.contrast.params` of the `CRDLoss(opt)` the script keeps as
// `criterion_kd`). These are the same objects under the callers' names;
// the replay planner saves and restores them through those.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_CODEGEN_CALLERNAMES_H
#define DETC_LIB_CODEGEN_CALLERNAMES_H

#include "detc/analysis/StatementGraph.h"
#include "detc/ir/DetcOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace detc::codegen {

class CallerNames {
public:
  CallerNames(const analysis::StatementGraph &g, mlir::ModuleOp module)
      : g(g), module(module) {}

  /// The variables `v` (a local of some instance, or an attribute path of
  /// one) is known as in the callers, up the calls until `visible` holds
  /// for each: the variable a call assigns the local the function returns
  /// (MAE's `models_mae.__dict__[args.model](...)`), the argument of a
  /// parameter the function never rebinds (`self` of `__init__`), or the
  /// container a local's object was put in (Swin's `self.layers`). Empty
  /// when one of them cannot be named.
  llvm::SmallVector<analysis::VarId, 2>
  namesOf(analysis::VarId v,
          llvm::function_ref<bool(analysis::VarId)> visible) const {
    return namesOf(v, visible, 0);
  }

  /// The callers' variables holding the object an attribute path of a
  /// local (`model.cls_token`) belongs to: namesOf the nearest owner that
  /// has any.
  llvm::SmallVector<analysis::VarId, 2>
  ownersOf(analysis::VarId v,
           llvm::function_ref<bool(analysis::VarId)> visible) const;

private:
  llvm::SmallVector<analysis::VarId, 2>
  namesOf(analysis::VarId v, llvm::function_ref<bool(analysis::VarId)> visible,
          int depth) const;
  // The caller-side spellings of `local` (with `suffix`) for the calls of
  // instance `instId`, added to `outers`; false when a call cannot be read.
  /// Where `fn` returns `local`: the variable each call of instance
  /// `instId` assigns it to.
  bool returnedBy(unsigned instId, ir::FuncOp fn, llvm::StringRef local,
                  llvm::StringRef suffix,
                  llvm::SmallVectorImpl<std::string> &outers) const;
  /// Where `local` is a parameter `fn` never rebinds: each call's argument.
  bool passedTo(unsigned instId, ir::FuncOp fn, llvm::StringRef local,
                llvm::StringRef suffix,
                llvm::SmallVectorImpl<std::string> &outers) const;
  /// Where `local` is assigned an object built in `fn` that a container
  /// built in `fn` holds (`layer = Block(...)`, then
  /// `self.layers.append(layer)`): the container as `fn` spells it
  /// (`self.layers`); empty if none.
  std::string heldBy(ir::FuncOp fn, llvm::StringRef local) const;
  /// Where a call in `fn` stores `local` in an object (`model =
  /// SimMIM(encoder=encoder)`, whose `__init__` does `self.encoder =
  /// encoder`): that attribute as `fn` spells it (`model.encoder`); empty
  /// if none.
  std::string storedBy(ir::FuncOp fn, llvm::StringRef local) const;
  /// The variables the forwards that ran a build region in instance
  /// `instId` were called on (`model(samples)` in the caller's instance).
  std::vector<std::string> forwardedAs(unsigned instId) const;

  const analysis::StatementGraph &g;
  mlir::ModuleOp module;
};

} // namespace detc::codegen

#endif // DETC_LIB_CODEGEN_CALLERNAMES_H

//===- AttributeNames.h - What a computed attribute name may be -*- C++ -*-===//
//
// `getattr(obj, name)` with a name computed at run time may read any
// attribute of obj; taken at its word that is every field and method,
// called with the arguments (timm's ResNet: `for n in ('layer1', ...,
// 'layer4'): x = getattr(self, n)(x)` called every method of the model
// with an activation, and the points-to solution of resnet.py grew to 9.7
// million copy edges and 80 s). Often the source shows every value the
// name can take: a loop over a literal tuple of strings in the same
// function, an f-string with a constant head. Only then is the read
// narrowed; anything else (a parameter, a value from a call, a name bound
// in a way this reader does not follow) stays "any attribute".
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_LOWERING_POINTSTO_ATTRIBUTENAMES_H
#define DETC_LIB_FRONTEND_LOWERING_POINTSTO_ATTRIBUTENAMES_H

#include "detc/frontend/AST.h"

#include <optional>
#include <string>
#include <vector>

namespace detc::frontend::pta {

/// One value a computed name may take: exactly `text`, or (a prefix) any
/// name starting with it.
struct NameChoice {
  std::string text;
  bool prefix = false;
};

/// Every name `e` may evaluate to inside the function `def` (null: module
/// level, where only literals count — another module may rebind a
/// global), or std::nullopt when the source does not show them all.
/// With `module`, a name the function does not bind is read through the
/// module's top-level bindings (a constant table of module names,
/// Microsoft's USB: `ALL_MODULES = [('semilearn.algorithms', ['fixmatch',
/// ...])]`, iterated as `for base, names in ALL_MODULES`).
std::optional<std::vector<NameChoice>>
possibleNames(const ast::Expr *e, const ast::FunctionDef *def,
              const ast::Module *module = nullptr);

/// Whether `s` holds only identifier characters and dots (`a.b_c.d`; the
/// empty text too): the shape of a dotted name `eval` or a name factory
/// may look up.
bool isDottedName(llvm::StringRef s);

} // namespace detc::frontend::pta

#endif // DETC_LIB_FRONTEND_LOWERING_POINTSTO_ATTRIBUTENAMES_H

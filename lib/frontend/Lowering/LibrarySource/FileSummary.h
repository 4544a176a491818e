//===- FileSummary.h - One library file's definitions and their calls ----===//
//
// What LibrarySource needs of one file of library code, computed from its
// AST alone (no other file is read), so that it can be cached by the file's
// contents: the module-level names and what they are bound to, and for each
// function, class and module-level value the calls it makes, as events.
// Resolving an event's name to another file's definition, or to an API
// table entry, happens when a summary is asked for (LibrarySource.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_LOWERING_LIBRARYSOURCE_FILESUMMARY_H
#define DETC_LIB_FRONTEND_LOWERING_LIBRARYSOURCE_FILESUMMARY_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace detc::frontend {
class ApiModel;
struct ParsedModule;
} // namespace detc::frontend

namespace detc::frontend::library {

/// One call a definition makes, as the file alone can say it.
struct Event {
  enum class Kind : char {
    /// `text` is a qualified name outside this file (`random.random`,
    /// `albumentations.core.BasicTransform`): classified by the tables or
    /// read from source.
    External = 'E',
    /// `text` is a definition of this file (`HorizontalFlip`,
    /// `=_GLOBAL_RNG` for a module-level value).
    Local = 'L',
    /// `text` is a name this file gets from a star import: looked up in
    /// the star-imported modules.
    Star = 'S',
    /// `text` is a draw the file makes on a value of any type (a method
    /// an API table gives every receiver: `t.bernoulli_()`).
    Draw = 'D',
    /// `text` says what detc cannot follow (`getattr(...)(...)`).
    Unknown = 'U'
  };
  Kind kind;
  unsigned line = 0;
  std::string text;
};

/// A function (with its nested functions and lambdas), a class (all its
/// methods and its bases: constructing it and using the object may run any
/// of them) or a module-level value (`_rng = random.Random()`: the calls
/// that made it; a table of functions: each function).
struct Definition {
  enum class Kind : char { Function = 'f', Class = 'c', Value = 'v' };
  Kind kind = Kind::Function;
  unsigned line = 0;
  std::vector<Event> events;
  /// A class's bases that name a class (what it derives from: timm's
  /// MultiEpochsDataLoader is a DataLoader), in order.
  std::vector<Event> bases;
};

struct FileSummary {
  std::string module; ///< Dotted name (`albumentations.core`).
  std::string path;
  bool isPackage = false;
  /// Module-level names bound by imports or aliases (`X = Y`), to the
  /// qualified name they stand for (`F` -> `torch.nn.functional`).
  llvm::StringMap<std::string> bindings;
  /// `from M import *`, qualified, in order.
  std::vector<std::string> starModules;
  /// Definitions by name (`HorizontalFlip`, `=_GLOBAL_RNG`).
  llvm::StringMap<Definition> definitions;
};

/// The summary of `parsed`, the file `path` of module `module`.
FileSummary summariseFile(const ParsedModule &parsed, llvm::StringRef path,
                          llvm::StringRef module, bool isPackage,
                          const ApiModel &api);

/// A summary as text (the cache's format) and back; nullopt when the
/// text is not one.
std::string serialise(const FileSummary &s);
std::optional<FileSummary> deserialise(llvm::StringRef text);

} // namespace detc::frontend::library

#endif // DETC_LIB_FRONTEND_LOWERING_LIBRARYSOURCE_FILESUMMARY_H

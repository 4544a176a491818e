//===- ProfileFile.h - A --detc-profile run's measurements -*- C++ -*-===//
//
// The runtime's profile.py writes, for one run of the transformed script,
// per line of the original script the seconds spent there and its line
// events, and per hint the measured cost of a checkpoint there
// (docs/checkhint.md). This reads and checks it: the format, and that it
// was measured on this very script (its SHA-256).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_TOOLS_DETC_PROFILEFILE_H
#define DETC_TOOLS_DETC_PROFILEFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>

namespace detc::tool {

struct LineProfile {
  double seconds = 0;
  uint64_t events = 0;
};

struct ScriptProfile {
  std::map<unsigned, LineProfile> lines;
  std::map<unsigned, double> checkpointSeconds; ///< By hint line.

  /// Totals over lines [first, last].
  LineProfile range(unsigned first, unsigned last) const;
  uint64_t events(unsigned line) const;
};

/// Reads `path`, measured on the script whose bytes are `script`; reports
/// `path: error: ...` on `errs` and returns nothing when it cannot be used.
std::optional<ScriptProfile> readProfile(llvm::StringRef path,
                                         llvm::StringRef script,
                                         llvm::raw_ostream &errs);

} // namespace detc::tool

#endif // DETC_TOOLS_DETC_PROFILEFILE_H

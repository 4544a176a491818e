//===- LibraryFlags.cpp - --python: where library source is read ----------===//

#include "LibraryFlags.h"

using namespace detc;
using namespace llvm;

tool::LibraryFlags::LibraryFlags(cl::SubCommand &sub)
    : python("python",
             cl::desc("Read the libraries the script imports from the "
                      "search path of this Python (default: $DETC_PYTHON, "
                      "else python3; 'none': read no library)"),
             cl::value_desc("PATH"), cl::sub(sub)),
      noCache("no-library-cache",
              cl::desc("Read library source again instead of using the "
                       "summaries cached in $DETC_CACHE_DIR "
                       "(~/.cache/detc)"),
              cl::sub(sub)) {}

frontend::LibrarySourceOptions tool::LibraryFlags::get() const {
  frontend::LibrarySourceOptions o;
  o.python = python.getNumOccurrences() ? std::string(python)
                                        : frontend::defaultPythonInterpreter();
  if (o.python == "none")
    o.python.clear();
  if (!noCache)
    o.cacheDir = frontend::defaultLibraryCacheDir();
  // One store for the process: the command reads every file of a project
  // with these same options, so a library file read for one is read for
  // all (a static's initialisation is thread-safe).
  static const std::shared_ptr<frontend::LibrarySummaryStore> store =
      std::make_shared<frontend::LibrarySummaryStore>();
  o.shared = store;
  return o;
}

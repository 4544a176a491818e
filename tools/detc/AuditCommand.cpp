//===- AuditCommand.cpp - `detc audit` ------------------------------------===//
//
// A thin launcher: the audit itself is Python (detc_runtime/audit.py), run
// by the interpreter the user trains with (--python, DETC_PYTHON, or
// python3). From a build tree the runtime next to the binary
// (`bin/../python`) goes first on PYTHONPATH, so that a transformed script
// finds it; an installed detc's runtime is in that interpreter's packages.
//
//===----------------------------------------------------------------------===//

#include "AuditCommand.h"

#include "detc/frontend/LibrarySource.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

extern char **environ;

using namespace llvm;

int detc::tool::runAudit(int argc, char **argv) {
  // argv: detc audit [--python=PATH | --python PATH] ARGS...
  std::string python = frontend::defaultPythonInterpreter();
  std::vector<std::string> rest;
  for (int i = 2; i < argc; ++i) {
    StringRef a = argv[i];
    if (rest.empty() && a.consume_front("--python=")) {
      python = a.str();
    } else if (rest.empty() && a == "--python" && i + 1 < argc) {
      python = argv[++i];
    } else {
      rest.push_back(argv[i]);
    }
  }
  ErrorOr<std::string> found = frontend::findPythonInterpreter(python);
  if (!found || !sys::fs::can_execute(*found)) {
    WithColor::error(errs(), "detc")
        << "audit: cannot run the Python interpreter '" << python
        << "' (choose one with --python=PATH or DETC_PYTHON)\n";
    return 2;
  }
  // The runtime beside a build tree's binary.
  std::string self = sys::fs::getMainExecutable(argv[0], (void *)&runAudit);
  SmallString<256> runtime(sys::path::parent_path(sys::path::parent_path(self)));
  sys::path::append(runtime, "python");
  SmallString<256> probe(runtime);
  sys::path::append(probe, "detc_runtime", "audit.py");
  std::vector<std::string> env;
  bool prepend = sys::fs::exists(probe);
  bool setPath = false;
  for (char **e = environ; e && *e; ++e) {
    StringRef kv = *e;
    if (prepend && kv.starts_with("PYTHONPATH=")) {
      env.push_back(("PYTHONPATH=" + runtime + ":" +
                     kv.drop_front(strlen("PYTHONPATH=")))
                        .str());
      setPath = true;
    } else {
      env.push_back(kv.str());
    }
  }
  if (prepend && !setPath)
    env.push_back(("PYTHONPATH=" + runtime).str());
  // From a build tree, the audit's file itself: it needs nothing of the
  // package (whose import checks the C++ core against the interpreter's
  // numpy, which an original script need not satisfy).
  std::vector<StringRef> args{*found};
  if (prepend)
    args.push_back(probe);
  else
    args.insert(args.end(), {"-m", "detc_runtime.audit"});
  for (const std::string &a : rest)
    args.push_back(a);
  std::vector<StringRef> envRefs(env.begin(), env.end());
  std::string error;
  int status = sys::ExecuteAndWait(*found, args, ArrayRef(envRefs), {}, 0, 0,
                                   &error);
  if (status < 0) {
    WithColor::error(errs(), "detc")
        << "audit: could not run '" << *found << "': " << error << "\n";
    return 2;
  }
  return status;
}

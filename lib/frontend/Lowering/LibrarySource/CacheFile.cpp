//===- CacheFile.cpp - Files of detc's on-disk cache ----------------------===//

#include "CacheFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace detc::frontend;
using llvm::StringRef;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

void library::writeCacheFile(const std::string &file, StringRef text) {
  StringRef dir = path::parent_path(file);
  if (fs::create_directories(dir))
    return;
  int fd;
  llvm::SmallString<256> tmp;
  llvm::SmallString<256> model(dir);
  path::append(model, ".tmp-%%%%%%%%");
  if (fs::createUniqueFile(model, fd, tmp))
    return;
  bool ok;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
    os.flush();
    ok = !os.has_error();
    if (!ok)
      os.clear_error();
  }
  if (!ok || fs::rename(tmp, file))
    fs::remove(tmp);
}


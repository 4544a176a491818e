//===- FileList.cpp - `--files-from` lists --------------------------------===//

#include "FileList.h"

#include "llvm/ADT/SmallVector.h"
#include "detc/base/FileIO.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

bool detc::tool::appendFileList(StringRef listPath,
                                std::vector<std::string> &files) {
  Expected<std::string> list = base::readInputFile(listPath);
  if (!list) {
    WithColor::error(errs(), "detc")
        << listPath << ": " << toString(list.takeError()) << "\n";
    return false;
  }
  SmallVector<StringRef, 0> lines;
  StringRef(*list).split(lines, '\n', -1, false);
  for (StringRef l : lines)
    if (!l.trim().empty())
      files.push_back(l.trim().str());
  return true;
}

//===- FileList.cpp - `--files-from` lists --------------------------------===//

#include "FileList.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

bool detc::tool::appendFileList(StringRef listPath,
                                std::vector<std::string> &files) {
  auto list = MemoryBuffer::getFile(listPath);
  if (!list) {
    WithColor::error(errs(), "detc")
        << listPath << ": " << list.getError().message() << "\n";
    return false;
  }
  SmallVector<StringRef, 0> lines;
  (*list)->getBuffer().split(lines, '\n', -1, false);
  for (StringRef l : lines)
    if (!l.trim().empty())
      files.push_back(l.trim().str());
  return true;
}

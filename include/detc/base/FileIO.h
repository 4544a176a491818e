//===- FileIO.h - Reading inputs and writing outputs safely -----*- C++ -*-===//
//
// Every file detc reads or writes goes through these two functions, which
// hold detc's promises about user files (README "Guarantees"):
//  - inputs are read to EOF (procfs reports size 0) and at most
//    kMaxInputBytes (an endless /dev/zero is refused, not read forever);
//  - what an output path may be is decided by the rule the emitted scripts'
//    runtime applies too (detc/runtime/OutputTarget.h): never one of the
//    inputs (or another protected file), never a directory, block device,
//    socket, FIFO nobody reads or file without write permission; character
//    devices, pipes and /dev/stdout are written through; a regular file is
//    written to a unique temporary file in the real target's directory and
//    renamed over it, so a symlink is written through (the link stays), the
//    old file keeps its permissions, and a failure (also EFBIG past
//    `ulimit -f`) never leaves a half-written or temporary file.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_BASE_FILEIO_H
#define DETC_BASE_FILEIO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include "detc/runtime/OutputTarget.h"

#include <cstddef>
#include <string>

namespace detc::base {

/// The largest input detc reads (scripts, task files, profiles): 256 MiB.
constexpr size_t kMaxInputBytes = size_t(256) << 20;

/// The bytes of `path` ("-" is stdin), read until EOF. Fails with the
/// reason alone ("No such file or directory", "it is a directory", ...;
/// callers add the path and what the file is) for unreadable files and
/// inputs larger than `maxBytes`.
llvm::Expected<std::string> readInputFile(llvm::StringRef path,
                                          size_t maxBytes = kMaxInputBytes);

/// Writes `contents` to `path` atomically (see the file comment). `inputs`
/// are the files the output was made from: an output that is one of them
/// (after resolving symlinks and hard links) is refused. The error message
/// does not repeat the path.
llvm::Error writeOutputFile(llvm::StringRef path, llvm::StringRef contents,
                            llvm::ArrayRef<std::string> inputs);

/// The same, refusing every file of `protect` with what it is ("the
/// configuration in use", "a module the script imports", ...).
llvm::Error writeOutputFile(llvm::StringRef path, llvm::StringRef contents,
                            llvm::ArrayRef<runtime::ProtectedFile> protect);

} // namespace detc::base

#endif // DETC_BASE_FILEIO_H

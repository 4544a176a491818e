//===- FileIO.cpp - Reading inputs and writing outputs safely -------------===//

#include "detc/base/FileIO.h"

#include "detc/runtime/OutputTarget.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;
namespace rt = detc::runtime;

static Error failure(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// errno's message, optionally after `what`.
static Error errnoFailure(const Twine &what = "") {
  std::string reason = std::strerror(errno);
  return failure(what.isTriviallyEmpty() ? Twine(reason) : what + ": " + reason);
}

Expected<std::string> detc::base::readInputFile(StringRef path,
                                                   size_t maxBytes) {
  int fd = path == "-" ? dup(STDIN_FILENO)
                       : ::open(path.str().c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return errnoFailure();
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    return failure("it is a directory");
  }
  std::string bytes;
  // Regular files say their size (procfs says 0: read on until EOF anyway).
  if (S_ISREG(st.st_mode) && st.st_size > 0 && size_t(st.st_size) <= maxBytes)
    bytes.reserve(size_t(st.st_size) + 1);
  char chunk[1 << 16];
  while (true) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      Error e = errnoFailure();
      ::close(fd);
      return std::move(e);
    }
    if (n == 0)
      break;
    if (bytes.size() + size_t(n) > maxBytes) {
      ::close(fd);
      return failure("input is larger than " + Twine(maxBytes >> 20) +
                     " MiB (an endless or wrong file?); detc reads at most "
                     "that much");
    }
    bytes.append(chunk, size_t(n));
  }
  ::close(fd);
  return bytes;
}

static Error writeAll(int fd, StringRef contents) {
  for (size_t done = 0; done < contents.size();) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    // EFBIG past the file size limit (SIGXFSZ is ignored: Process.cpp),
    // ENOSPC, EIO: the write fails, and so does the output.
    if (n < 0)
      return errnoFailure("cannot write");
    done += size_t(n);
  }
  return Error::success();
}

/// A device, a pipe or a descriptor's file: written in place, never
/// replaced (OutputTarget.h).
static Error writeThrough(const rt::OutputTarget &target,
                          StringRef contents) {
  struct stat st;
  bool regular = ::stat(target.path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  int fd = ::open(target.path.c_str(),
                  O_WRONLY | O_NOCTTY | O_CLOEXEC | (regular ? O_TRUNC : 0));
  if (fd < 0)
    return errnoFailure("cannot open");
  Error e = writeAll(fd, contents);
  if (::close(fd) != 0 && !e)
    return errnoFailure("cannot write");
  return e;
}

Error detc::base::writeOutputFile(StringRef path, StringRef contents,
                                  ArrayRef<std::string> inputs) {
  std::vector<rt::ProtectedFile> protect;
  for (const std::string &input : inputs)
    protect.emplace_back(input, "the input file");
  return writeOutputFile(path, contents, protect);
}

Error detc::base::writeOutputFile(StringRef path, StringRef contents,
                                  ArrayRef<rt::ProtectedFile> protect) {
  rt::OutputTarget target = rt::classifyOutput(
      path.str(), std::vector<rt::ProtectedFile>(protect.begin(),
                                                      protect.end()));
  switch (target.action) {
  case rt::OutputAction::Refuse:
    return failure(target.path);
  case rt::OutputAction::WriteThrough:
    return writeThrough(target, contents);
  case rt::OutputAction::Create:
  case rt::OutputAction::Replace:
    break;
  }
  mode_t mode = target.mode;
  SmallString<256> model(target.path);
  model += ".detc-%%%%%%%%.tmp";
  int fd;
  SmallString<256> temp;
  if (std::error_code ec = sys::fs::createUniqueFile(model, fd, temp))
    return failure("cannot create a temporary file beside it: " +
                   ec.message());
  auto abandon = [&](Error e) {
    ::close(fd);
    ::unlink(temp.c_str());
    return e;
  };
  if (Error e = writeAll(fd, contents))
    return abandon(std::move(e));
  if (::fsync(fd) != 0 && errno != EINVAL)
    return abandon(errnoFailure("cannot write"));
  if (::fchmod(fd, mode) != 0)
    return abandon(errnoFailure("cannot set its permissions"));
  if (::close(fd) != 0) {
    ::unlink(temp.c_str());
    return errnoFailure("cannot write");
  }
  if (::rename(temp.c_str(), target.path.c_str()) != 0) {
    Error e = errnoFailure("cannot replace it");
    ::unlink(temp.c_str());
    return e;
  }
  return Error::success();
}

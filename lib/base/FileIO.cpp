//===- FileIO.cpp - Reading inputs and writing outputs safely -------------===//

#include "detc/base/FileIO.h"

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

/// The file an output path really names: symlinks resolved (also a chain,
/// also a symlinked directory); a path that does not exist yet stays as it
/// is, below its resolved directory.
static Expected<std::string> resolveTarget(StringRef path) {
  SmallString<256> real;
  if (!sys::fs::real_path(path, real))
    return std::string(real);
  struct stat lst;
  if (::lstat(path.str().c_str(), &lst) == 0 && S_ISLNK(lst.st_mode))
    return failure("it is a symbolic link to a missing file; detc writes "
                   "through links only to existing files");
  StringRef dir = sys::path::parent_path(path);
  SmallString<256> realDir;
  if (sys::fs::real_path(dir.empty() ? "." : dir, realDir))
    return failure("its directory does not exist");
  sys::path::append(realDir, sys::path::filename(path));
  return std::string(realDir);
}

Error detc::base::writeOutputFile(StringRef path, StringRef contents,
                                     ArrayRef<std::string> inputs) {
  Expected<std::string> target = resolveTarget(path);
  if (!target)
    return target.takeError();
  mode_t mode = 0666;
  struct stat st;
  bool exists = ::stat(target->c_str(), &st) == 0;
  if (exists) {
    if (S_ISDIR(st.st_mode))
      return failure("it is a directory");
    if (!S_ISREG(st.st_mode))
      return failure("it is not a regular file (a device, FIFO or socket); "
                     "detc writes only regular files");
    for (const std::string &input : inputs) {
      bool same = false;
      if (!sys::fs::equivalent(*target, input, same) && same)
        return failure("it is the input file '" + input +
                       "'; refusing to overwrite it (write the output elsewhere)");
    }
    // Root may write anything; a file nobody may write is still kept.
    if ((st.st_mode & 0222) == 0 || ::access(target->c_str(), W_OK) != 0)
      return failure("it is read-only; detc does not replace it");
    mode = st.st_mode & 07777;
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode &= ~mask;
  }

  SmallString<256> model(*target);
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
  for (size_t done = 0; done < contents.size();) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return abandon(errnoFailure("cannot write"));
    done += size_t(n);
  }
  if (::fsync(fd) != 0 && errno != EINVAL)
    return abandon(errnoFailure("cannot write"));
  if (::fchmod(fd, mode) != 0)
    return abandon(errnoFailure("cannot set its permissions"));
  if (::close(fd) != 0) {
    ::unlink(temp.c_str());
    return errnoFailure("cannot write");
  }
  if (::rename(temp.c_str(), target->c_str()) != 0) {
    Error e = errnoFailure("cannot replace it");
    ::unlink(temp.c_str());
    return e;
  }
  return Error::success();
}

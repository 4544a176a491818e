//===- OutputTarget.h - What writing to a path may do -----------*- C++ -*-===//
//
// The one rule for every file detc writes, shared by the compiler's outputs
// (lib/base FileIO: -o, --write-baseline, --plot) and by the runtime of the
// scripts it emits (detc_runtime.output: checkpoints, sidecars, profiles,
// traces, recovery logs and fix records), so that both refuse the same
// targets for the same reasons (README "Guarantees"):
//
//  - a regular file is replaced atomically (a temporary beside the real
//    file, then a rename): symlinks are written through, the old file's
//    permissions are kept; never a read-only file, never one of the
//    protected files (the inputs, the running script, the configuration in
//    use, a module the script imports), also through a hard link;
//  - a character device (/dev/null, a terminal) and a pipe with a reader
//    are written through, never replaced; a FIFO nobody reads, a block
//    device, a socket and a directory are refused;
//  - a path that goes through a process's descriptor table (/dev/stdout,
//    /proc/self/fd/N) names an open file, not a path: it is written
//    through (renaming over it would replace a shell's `> run.log` with a
//    new inode), again never when it is a protected file.
//
// Plain POSIX, header-only: the runtime's Python core (no LLVM) and
// DetcBase both compile it.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_RUNTIME_OUTPUTTARGET_H
#define DETC_RUNTIME_OUTPUTTARGET_H

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace detc::runtime {

enum class OutputAction {
  Create,       ///< a new regular file at `path` (atomic: temporary + rename)
  Replace,      ///< replace the regular file `path` (atomic), keeping `mode`
  WriteThrough, ///< open `path` for writing: a device, a pipe, a descriptor
  Refuse,       ///< never write: `reason` says why
};

struct OutputTarget {
  OutputAction action = OutputAction::Refuse;
  std::string path;   ///< what to write (resolved), or the refusal's reason
  unsigned mode = 0;  ///< permissions of the file written (Create/Replace)
  /// Whether a descriptor (/dev/stdout, /proc/self/fd/N) named the target.
  bool viaDescriptor = false;
};

/// A file the output must never be, and what it is ("the input file",
/// "the running script", ...): the refusal says so.
using ProtectedFile = std::pair<std::string, std::string>;

namespace detail {

inline std::string parentOf(const std::string &path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos)
    return ".";
  if (slash == 0)
    return "/";
  return path.substr(0, slash);
}

inline std::string baseOf(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

inline bool realPath(const std::string &path, std::string &out) {
  char *real = ::realpath(path.c_str(), nullptr);
  if (!real)
    return false;
  out = real;
  std::free(real);
  return true;
}

/// Whether `dir` (resolved) is a descriptor table: /proc/<p>/fd or
/// /proc/<p>/task/<t>/fd. Its entries are links that open the file the
/// descriptor holds, whatever its name is now.
inline bool isDescriptorTable(const std::string &dir) {
  if (dir.rfind("/proc/", 0) != 0)
    return false;
  return dir.size() > 3 && dir.compare(dir.size() - 3, 3, "/fd") == 0;
}

inline OutputTarget refuse(std::string reason) {
  OutputTarget t;
  t.action = OutputAction::Refuse;
  t.path = std::move(reason);
  return t;
}

inline unsigned currentUmask() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return unsigned(mask);
}

/// The refusal when the file `st` describes is one of `protect`.
inline bool isProtected(const struct stat &st,
                        const std::vector<ProtectedFile> &protect,
                        std::string &why) {
  for (const ProtectedFile &file : protect) {
    struct stat other;
    if (file.first.empty() || ::stat(file.first.c_str(), &other) != 0)
      continue;
    if (other.st_dev == st.st_dev && other.st_ino == st.st_ino) {
      why = "it is " + file.second + " '" + file.first +
            "'; refusing to overwrite it (write the output elsewhere)";
      return true;
    }
  }
  return false;
}

/// Write-through or refusal for something that is not a regular file.
inline OutputTarget classifySpecial(const std::string &path,
                                    const struct stat &st) {
  OutputTarget t;
  t.path = path;
  if (S_ISDIR(st.st_mode))
    return refuse("it is a directory");
  if (S_ISCHR(st.st_mode)) {
    t.action = OutputAction::WriteThrough;
    return t;
  }
  if (S_ISFIFO(st.st_mode)) {
    // Opening a FIFO for writing blocks until a reader comes: ask without
    // waiting, so that a FIFO nobody reads is refused instead of a hang.
    int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
      return refuse(errno == ENXIO
                        ? "it is a FIFO that nobody reads; detc writes "
                          "through a pipe only while a reader is there"
                        : std::string("cannot open the FIFO: ") +
                              std::strerror(errno));
    ::close(fd);
    t.action = OutputAction::WriteThrough;
    return t;
  }
  if (S_ISBLK(st.st_mode))
    return refuse("it is a block device; detc writes regular files, and "
                  "through character devices and pipes, never to a disk");
  return refuse("it is a socket; detc writes regular files, and through "
                "character devices and pipes");
}

} // namespace detail

/// What writing to `path` may do (see the file comment).
inline OutputTarget classifyOutput(const std::string &path,
                                   const std::vector<ProtectedFile> &protect) {
  using namespace detail;
  if (path.empty())
    return refuse("the path is empty");
  if (path.find('\0') != std::string::npos)
    return refuse("the path contains a NUL byte");
  // Follow the symlink chain by hand: a hop through a descriptor table
  // means the target is an open file, to be written through.
  std::string current = path;
  bool viaDescriptor = false;
  for (int hops = 0;; ++hops) {
    if (hops > 40)
      return refuse("too many levels of symbolic links");
    struct stat lst;
    if (::lstat(current.c_str(), &lst) != 0) {
      if (errno != ENOENT)
        return refuse(std::strerror(errno));
      if (hops > 0)
        return refuse("it is a symbolic link to a missing file; detc "
                      "writes through links only to existing files");
      std::string dir;
      if (!realPath(parentOf(current), dir))
        return refuse("its directory does not exist");
      OutputTarget t;
      t.action = OutputAction::Create;
      t.path = (dir == "/" ? "/" : dir + "/") + baseOf(current);
      t.mode = 0666u & ~currentUmask();
      return t;
    }
    if (!S_ISLNK(lst.st_mode))
      break;
    std::string dir;
    if (!realPath(parentOf(current), dir))
      return refuse("its directory does not exist");
    if (isDescriptorTable(dir)) {
      viaDescriptor = true;
      break;
    }
    char buf[PATH_MAX];
    ssize_t n = ::readlink(current.c_str(), buf, sizeof buf - 1);
    if (n < 0)
      return refuse(std::strerror(errno));
    std::string next(buf, size_t(n));
    current = next[0] == '/' ? next : dir + "/" + next;
  }

  struct stat st;
  if (::stat(current.c_str(), &st) != 0)
    return refuse(std::strerror(errno));
  std::string why;
  if (isProtected(st, protect, why))
    return refuse(why);
  if (viaDescriptor) {
    if (S_ISDIR(st.st_mode))
      return refuse("it is a directory");
    // The descriptor's file, whatever it is: the script's own open() of
    // this path would write there too.
    OutputTarget t;
    t.action = OutputAction::WriteThrough;
    t.path = current;
    t.viaDescriptor = true;
    return t;
  }
  std::string real;
  if (!realPath(current, real))
    return refuse(std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return classifySpecial(real, st);
  // Root may write anything; a file nobody may write is still kept.
  if ((st.st_mode & 0222) == 0 || ::access(real.c_str(), W_OK) != 0)
    return refuse("it is read-only; detc does not replace it");
  OutputTarget t;
  t.action = OutputAction::Replace;
  t.path = real;
  t.mode = unsigned(st.st_mode & 07777);
  return t;
}

} // namespace detc::runtime

#endif // DETC_RUNTIME_OUTPUTTARGET_H

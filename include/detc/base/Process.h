//===- Process.h - Stack and memory limits of detc's tools ------*- C++ -*-===//
//
// detc's passes recurse over the nesting of their input (a Python AST, the
// regions of the IR). Inputs are depth-checked against limits that fit a
// known stack, and the tools run their work on a thread with that stack, so
// the limits hold whatever `ulimit -s` says. Running out of memory anywhere
// ends the process with a message naming what was running, exit status 2,
// instead of LLVM's crash dump.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_BASE_PROCESS_H
#define DETC_BASE_PROCESS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/BuryPointer.h"

#include <cstddef>
#include <memory>
#include <string>

namespace detc::base {

/// The stack the tools' work runs on (reserved address space, committed
/// only as it is used).
constexpr size_t kToolStackBytes = size_t(256) << 20;

/// Runs `work` on a thread with a `stackBytes` stack and returns its result.
/// If no such thread can be made (address space limits), reports that on
/// stderr and returns 2.
int runOnLargeStack(llvm::function_ref<int()> work,
                    size_t stackBytes = kToolStackBytes);

/// Runs `here` on this thread and `there` on a new thread with a
/// `stackBytes` stack, and returns when both are done. If no thread can be
/// made, runs `there` after `here`. The two must not share mutable state.
void runConcurrently(llvm::function_ref<void()> here,
                     llvm::function_ref<void()> there,
                     size_t stackBytes = kToolStackBytes);

/// Out of memory (operator new, LLVM's allocators) prints
/// "<tool>: error: out of memory while <phase>" and exits with status 2.
void installOutOfMemoryHandler(const char *tool);

/// Ignores SIGXFSZ, as CPython does: a write past `ulimit -f` then fails
/// with EFBIG, which the writers report (and whose temporaries they
/// remove), instead of killing the tool mid-write.
void ignoreFileSizeLimitSignal();

/// What the tool is doing ("analysing train.py"), for the out-of-memory
/// message, while the scope lives.
class PhaseScope {
public:
  explicit PhaseScope(std::string phase);
  ~PhaseScope();
  PhaseScope(const PhaseScope &) = delete;
  PhaseScope &operator=(const PhaseScope &) = delete;

private:
  std::string phase;
  const char *previous;
};

/// The program's peak resident memory so far, in bytes (VmHWM: since it
/// was exec'd), for the tools' `--stats`.
size_t peakResidentBytes();
/// Its resident memory now (/proc/self/statm), 0 where unknown.
size_t residentBytes();
/// The bytes the program has allocated and not freed now (tcmalloc's count
/// where the tool links it, else glibc's): resident memory less what the
/// allocator holds free and the libraries' pages.
size_t heapBytes();

/// Returns the memory the allocator holds free to the system (tcmalloc's
/// free lists where the tool links it, else glibc's). The front end frees
/// its AST and facts before the analyses run: without this their pages
/// stay resident and the analyses' allocations, of other sizes, come on
/// top of them.
///
/// Only when tcmalloc holds at least kReleaseMinBytes free: every page
/// returned is faulted in again when the next phase allocates it, and below
/// that the faults cost more than the memory is worth (at 100k lines the
/// five releases of `detc analyze` took 0.27 s of 3.2 and kept the peak
/// 12 MB lower, beside the process's ~60 MB of libraries).
void releaseFreedMemory();
constexpr size_t kReleaseMinBytes = size_t(64) << 20;

/// Keeps `object` alive until the process exits and returns it. For the
/// tools' large structures (the MLIR context, the analyses): freeing them
/// object by object before exiting costs a tenth of a run on a large script
/// and frees nothing the exit would not. The pointer stays reachable, so
/// leak checkers do not report it.
template <typename T> T *keepUntilExit(std::unique_ptr<T> object) {
  T *raw = object.get();
  llvm::BuryPointer(std::move(object));
  return raw;
}

} // namespace detc::base

#endif // DETC_BASE_PROCESS_H

//===- Process.cpp - Stack and memory limits of detc's tools --------------===//

#include "detc/base/Process.h"

#include "llvm/Support/ErrorHandling.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <malloc.h>
#include <new>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace detc::base;

namespace {
std::atomic<const char *> toolName{"detc"};
std::atomic<const char *> currentPhase{"starting"};

struct StackJob {
  llvm::function_ref<int()> work;
  int result = 2;
};

void *runJob(void *arg) {
  auto *job = static_cast<StackJob *>(arg);
  job->result = job->work();
  return nullptr;
}

/// Writes with write(2) only: no allocation, safe when memory is gone.
void writeRaw(const char *text) {
  size_t n = std::strlen(text);
  while (n) {
    ssize_t w = ::write(STDERR_FILENO, text, n);
    if (w <= 0)
      return;
    text += w;
    n -= size_t(w);
  }
}

[[noreturn]] void outOfMemory() {
  writeRaw(toolName.load());
  writeRaw(": error: out of memory while ");
  writeRaw(currentPhase.load());
  writeRaw(" (the input is too large for this machine's memory limit)\n");
  ::_exit(2);
}

void badAlloc(void *, const char *, bool) { outOfMemory(); }
void newHandler() { outOfMemory(); }

/// Starts `fn(arg)` on a thread with a `stackBytes` stack; pthread_create's
/// error number (0 on success).
int startThread(pthread_t &thread, void *(*fn)(void *), void *arg,
                size_t stackBytes) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stackBytes);
  int err = pthread_create(&thread, &attr, fn, arg);
  pthread_attr_destroy(&attr);
  return err;
}

void *runVoidJob(void *arg) {
  (*static_cast<llvm::function_ref<void()> *>(arg))();
  return nullptr;
}
} // namespace

int detc::base::runOnLargeStack(llvm::function_ref<int()> work,
                                size_t stackBytes) {
  StackJob job{work};
  pthread_t thread;
  int err = startThread(thread, runJob, &job, stackBytes);
  if (err != 0) {
    std::fprintf(stderr,
                 "%s: error: cannot reserve a %zu MiB stack (%s); raise the "
                 "address-space limit (ulimit -v)\n",
                 toolName.load(), stackBytes >> 20, std::strerror(err));
    return 2;
  }
  pthread_join(thread, nullptr);
  return job.result;
}

void detc::base::runConcurrently(llvm::function_ref<void()> here,
                                 llvm::function_ref<void()> there,
                                 size_t stackBytes) {
  pthread_t thread;
  int err = startThread(thread, runVoidJob, &there, stackBytes);
  here();
  if (err != 0) {
    there();
    return;
  }
  pthread_join(thread, nullptr);
}

void detc::base::installOutOfMemoryHandler(const char *tool) {
  toolName = tool;
  llvm::install_bad_alloc_error_handler(badAlloc);
  std::set_new_handler(newHandler);
}

void detc::base::ignoreFileSizeLimitSignal() { ::signal(SIGXFSZ, SIG_IGN); }

PhaseScope::PhaseScope(std::string what)
    : phase(std::move(what)), previous(currentPhase.load()) {
  currentPhase = phase.c_str();
}

PhaseScope::~PhaseScope() { currentPhase = previous; }

size_t detc::base::peakResidentBytes() {
  // VmHWM is this program's own peak: getrusage's ru_maxrss also counts
  // the pages of the process that forked it, resident in the child until
  // exec (a benchmark in Python with a large heap would be measured).
  if (FILE *status = std::fopen("/proc/self/status", "r")) {
    char line[256];
    unsigned long kb = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, status))
      found = std::sscanf(line, "VmHWM: %lu kB", &kb) == 1;
    std::fclose(status);
    if (found)
      return size_t(kb) * 1024;
  }
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0)
    return 0;
  return size_t(usage.ru_maxrss) * 1024; // Linux reports kilobytes.
}

void detc::base::releaseFreedMemory() {
  // tcmalloc is linked by the executables only (CMakeLists.txt): look its
  // C entry point up instead of depending on its headers.
  using ReleaseFn = void (*)();
  using PropertyFn = int (*)(const char *, size_t *);
  if (auto release = reinterpret_cast<ReleaseFn>(
          dlsym(RTLD_DEFAULT, "MallocExtension_ReleaseFreeMemory"))) {
    auto property = reinterpret_cast<PropertyFn>(
        dlsym(RTLD_DEFAULT, "MallocExtension_GetNumericProperty"));
    size_t free = 0;
    if (property && property("tcmalloc.pageheap_free_bytes", &free) &&
        free < kReleaseMinBytes)
      return;
    release();
    return;
  }
  malloc_trim(0);
}

size_t detc::base::heapBytes() {
  // As releaseFreedMemory: tcmalloc's C entry point, looked up.
  using PropertyFn = int (*)(const char *, size_t *);
  if (auto property = reinterpret_cast<PropertyFn>(
          dlsym(RTLD_DEFAULT, "MallocExtension_GetNumericProperty"))) {
    size_t bytes = 0;
    if (property("generic.current_allocated_bytes", &bytes))
      return bytes;
  }
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

size_t detc::base::residentBytes() {
  FILE *statm = std::fopen("/proc/self/statm", "r");
  if (!statm)
    return 0;
  unsigned long pages = 0, resident = 0;
  int fields = std::fscanf(statm, "%lu %lu", &pages, &resident);
  std::fclose(statm);
  if (fields != 2)
    return 0;
  return size_t(resident) * size_t(sysconf(_SC_PAGESIZE));
}

//===- BackgroundFileHash.h - a file's XXH3 off the caller's thread -*- C++ -*-===//
//
// A commit ties its sidecar to the checkpoint by the checkpoint's hash
// (FileHash.h), and the sidecar's body holds the fingerprint of the moment
// (docs/replay.md, "Self-verifying restores"). Both are on the training
// thread's path; the hash needs no Python, so it runs on a worker thread
// while the training thread builds the body, and the fingerprint costs the
// commit only what it takes beyond the hash.
//
// One worker per process, started on first use. It is detached and never
// stopped: a detached thread waiting on its queue does not hold up a
// process's exit, while a joinable std::thread destroyed at exit is
// std::terminate ("terminate called without an active exception"). A
// forked child (a DataLoader worker) has no worker thread: its jobs are
// hashed by the thread that waits for them, as is every job when a thread
// cannot be started.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_RUNTIME_BACKGROUNDFILEHASH_H
#define DETC_RUNTIME_BACKGROUNDFILEHASH_H

#include "detc/runtime/FileHash.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace detc::runtime {

/// One file to hash. start() queues it; wait() returns its hash.
class FileHashJob {
public:
  FileHashJob(std::string path, bool mapped)
      : path(std::move(path)), mapped(mapped) {}

  /// Hashes `path` (see xxh3FileHash) on the process's worker thread.
  static std::shared_ptr<FileHashJob> start(std::string path,
                                            bool mapped = false);

  /// The hash, once the worker has it; computed here when the job was
  /// never queued.
  FileHash wait() {
    if (!queued)
      return xxh3FileHash(path, mapped);
    // Polled, not slept on: a thread woken from a sleep costs ~100 µs
    // on a virtual machine's idle core, as much as hashing a 1 MB
    // checkpoint. The caller has nothing else to do meanwhile.
    while (!finished.load(std::memory_order_acquire))
      std::this_thread::yield();
    std::lock_guard<std::mutex> lock(m);
    return result;
  }

private:
  friend class FileHashWorker;

  void run() {
    FileHash h = xxh3FileHash(path, mapped);
    {
      std::lock_guard<std::mutex> lock(m);
      result = std::move(h);
    }
    finished.store(true, std::memory_order_release);
  }

  const std::string path;
  const bool mapped;
  bool queued = false;
  std::mutex m;
  std::atomic<bool> finished{false};
  FileHash result;
};

class FileHashWorker {
public:
  /// This process's worker, or nullptr when no thread could be started.
  /// Never freed: the thread may outlive every static destructor.
  static FileHashWorker *get() {
    static std::mutex creating;
    static FileHashWorker *current = nullptr;
    std::lock_guard<std::mutex> lock(creating);
    if (current && current->pid == ::getpid())
      return current;
    // In a forked child the parent's worker (its thread not copied) is
    // left as it is: its mutex may have been held at the fork.
    auto *fresh = new FileHashWorker();
    try {
      std::thread([fresh] { fresh->loop(); }).detach();
    } catch (const std::system_error &) {
      delete fresh;
      return nullptr;
    }
    current = fresh;
    return current;
  }

  void submit(std::shared_ptr<FileHashJob> job) {
    job->queued = true;
    std::lock_guard<std::mutex> lock(m);
    jobs.push_back(std::move(job));
    jobsChanged.notify_one();
  }

private:
  FileHashWorker() : pid(::getpid()) {}

  [[noreturn]] void loop() {
    for (;;) {
      std::shared_ptr<FileHashJob> job;
      {
        std::unique_lock<std::mutex> lock(m);
        jobsChanged.wait(lock, [this] { return !jobs.empty(); });
        job = std::move(jobs.front());
        jobs.pop_front();
      }
      job->run();
    }
  }

  const pid_t pid;
  std::mutex m;
  std::condition_variable jobsChanged;
  std::deque<std::shared_ptr<FileHashJob>> jobs;
};

inline std::shared_ptr<FileHashJob> FileHashJob::start(std::string path,
                                                       bool mapped) {
  auto job = std::make_shared<FileHashJob>(std::move(path), mapped);
  if (FileHashWorker *worker = FileHashWorker::get())
    worker->submit(job);
  return job;
}

} // namespace detc::runtime

#endif // DETC_RUNTIME_BACKGROUNDFILEHASH_H

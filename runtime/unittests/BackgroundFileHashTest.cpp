//===- BackgroundFileHashTest.cpp - hashing on the worker thread ----------===//

#include "detc/runtime/BackgroundFileHash.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sys/wait.h>
#include <vector>

using namespace detc::runtime;

namespace {

class BackgroundFileHashTest : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/detc-hash-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir = pattern;
  }
  void TearDown() override {
    for (const std::string &p : written)
      ::unlink(p.c_str());
    ::rmdir(dir.c_str());
  }
  /// A file of `size` bytes, different for each `seed`.
  std::string file(size_t size, unsigned seed) {
    std::string path = dir + "/f" + std::to_string(written.size());
    std::ofstream out(path, std::ios::binary);
    for (size_t i = 0; i < size; ++i)
      out.put(char((i * 2654435761u + seed) >> 13));
    written.push_back(path);
    return path;
  }
  std::string dir;
  std::vector<std::string> written;
};

TEST_F(BackgroundFileHashTest, SameHashAsOnTheCallersThread) {
  // Below and above the size hashed through a mapping (1 MiB).
  for (size_t size : {size_t(0), size_t(100), size_t(3 << 20)}) {
    std::string path = file(size, unsigned(size));
    for (bool mapped : {false, true}) {
      FileHash expected = xxh3FileHash(path, mapped);
      FileHash got = FileHashJob::start(path, mapped)->wait();
      EXPECT_EQ(got.error, 0);
      EXPECT_EQ(got.size, size);
      EXPECT_EQ(got.hex, expected.hex);
    }
  }
}

TEST_F(BackgroundFileHashTest, ManyJobsInFlightEachGetItsOwn) {
  std::vector<std::string> paths;
  std::vector<std::shared_ptr<FileHashJob>> jobs;
  for (unsigned i = 0; i < 16; ++i) {
    paths.push_back(file(4096 + i, i));
    jobs.push_back(FileHashJob::start(paths.back()));
  }
  for (size_t i = jobs.size(); i-- > 0;)
    EXPECT_EQ(jobs[i]->wait().hex, xxh3FileHash(paths[i]).hex) << i;
  EXPECT_NE(xxh3FileHash(paths[0]).hex, xxh3FileHash(paths[1]).hex);
}

TEST_F(BackgroundFileHashTest, MissingFileIsAnError) {
  FileHash h = FileHashJob::start(dir + "/absent")->wait();
  EXPECT_EQ(h.error, ENOENT);
}

TEST_F(BackgroundFileHashTest, ForkedChildHashesWithoutTheParentsThread) {
  std::string path = file(1 << 16, 7);
  std::string expected = xxh3FileHash(path).hex;
  FileHashJob::start(path)->wait(); // the parent's worker runs
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The parent's thread is not in the child: a job waiting for it
    // would hang (the test's timeout), a wrong hash exits 1.
    bool same = FileHashJob::start(path)->wait().hex == expected &&
                FileHashJob::start(path, true)->wait().hex == expected;
    ::_exit(same ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

} // namespace

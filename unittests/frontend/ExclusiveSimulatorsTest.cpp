//===- ExclusiveSimulatorsTest.cpp - ANTLR edges read without the lock ----===//
//
// ExclusiveSimulators.h reads ANTLR's DFA edges without the runtime's lock.
// Every lookup must give what the runtime's own (locked) lookup gives, on
// real code; and parses started on several threads at once must still
// produce what one parse alone produces (they run one after the other).
//
//===----------------------------------------------------------------------===//

#include "ExclusiveSimulators.h"

#include "detc/frontend/ASTDump.h"
#include "detc/frontend/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <thread>

using namespace detc;
using namespace detc::frontend;

namespace {

/// Python files of the standard library (real code, present wherever the
/// tests run), at most `limit` of them.
std::vector<std::string> stdlibFiles(size_t limit) {
  std::vector<std::string> out;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it("/usr/lib/python3.11", ec), end;
       it != end && !ec && out.size() < limit; it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".py")
      out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string dump(const std::string &path) {
  DiagnosticEngine diags;
  std::string out;
  llvm::raw_string_ostream os(out);
  if (auto file = SourceFile::load(path, diags))
    if (auto m = parseModule(*file, diags))
      ast::dumpJSON(m->module, *file, os);
  diags.printAll(os);
  return out;
}

TEST(ExclusiveSimulators, AgreeWithTheRuntimesLockedLookups) {
  std::vector<std::string> files = stdlibFiles(40);
  ASSERT_GE(files.size(), 20u);
  SimulatorCheck::lookups = 0;
  SimulatorCheck::mismatches = 0;
  SimulatorCheck::enabled = true;
  for (const std::string &f : files)
    dump(f);
  SimulatorCheck::enabled = false;
  EXPECT_GT(SimulatorCheck::lookups.load(), 100000u);
  EXPECT_EQ(SimulatorCheck::mismatches.load(), 0u);
}

TEST(ExclusiveSimulators, ConcurrentParsesGiveTheSameTrees) {
  std::vector<std::string> files = stdlibFiles(12);
  ASSERT_FALSE(files.empty());
  std::vector<std::string> alone;
  for (const std::string &f : files)
    alone.push_back(dump(f));
  std::vector<std::string> together(files.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < files.size(); ++i)
    threads.emplace_back([&, i] { together[i] = dump(files[i]); });
  for (std::thread &t : threads)
    t.join();
  for (size_t i = 0; i < files.size(); ++i)
    EXPECT_EQ(together[i], alone[i]) << files[i];
}

} // namespace

//===- FuzzTest.cpp - Random-mutation robustness test ---------------------===//
//
// Mutates valid programs (byte flips, insertions of Python's delimiters and
// keywords, deletions, duplicated slices) and checks that the parser always
// returns: a module or at least one diagnostic, never a crash or a hang, and
// that parsing in pieces cut at every allowed point (ChunkSplit.h) gives the
// same AST or the same first error as parsing the whole input. The
// seed is fixed so CI is reproducible; DETC_FUZZ_ITERATIONS and
// DETC_FUZZ_SEED let a developer run it longer or differently.
//
//===----------------------------------------------------------------------===//

#include "detc/frontend/ASTDump.h"
#include "detc/frontend/Parser.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cstdlib>
#include <random>

using namespace detc::frontend;

namespace {

const char *const kSeeds[] = {
    "import torch\nfrom torch import nn\n\nclass Net(nn.Module):\n"
    "    def __init__(self):\n        super().__init__()\n"
    "        self.fc = nn.Linear(4, 2)\n        self.drop = nn.Dropout(0.5)\n"
    "    def forward(self, x):\n        return self.drop(self.fc(x))\n",
    "for epoch in range(3):\n    for x, y in loader:\n"
    "        opt.zero_grad()\n        loss = crit(model(x), y)\n"
    "        loss.backward(); opt.step()\n    torch.save(model.state_dict(), "
    "f'ckpt_{epoch:03d}.pt')\n",
    "match p:\n    case {'k': [1, *r]} | Point(x=0) as q if q:\n        pass\n"
    "    case _:\n        raise ValueError(f\"{p!r} {p=}\") from None\n",
    "async def f(a, /, b=1, *c, d, **e) -> dict[str, int]:\n"
    "    async with g() as (h, i):\n        x = [j async for j in k if j]\n"
    "    return {**e, 'x': (yield x)}\n",
    "try:\n    pass\nexcept* (A, B) as e:\n    del a[1:2:3], b.c\n"
    "finally:\n    lambda *a, **k: (a, k)\nwith (open(p) as f, q):\n  x @= y\n",
    "s = b'\\x00' rb'\\d' '''a\nb''' \"\\N{BULLET}\" f'''{x:{w}.{p}}'''\n",
};

const char *const kInserts[] = {"(", ")", "[", "]", "{", "}", ":", ",",
                                "\n", "    ", "\t", "'", "\"", "\"\"\"",
                                "f'{", "\\", "#", "=", "**", "lambda",
                                "if", "else", "def ", "class ", "@", "*",
                                ":=", "match ", "case ", "\r", "\xc3",
                                "yield", "async ", "await ", "...", "0x"};

std::string mutate(std::string s, std::mt19937_64 &rng) {
  std::uniform_int_distribution<int> op(0, 4);
  int n = 1 + static_cast<int>(rng() % 4);
  for (int k = 0; k < n && !s.empty(); ++k) {
    size_t at = rng() % s.size();
    switch (op(rng)) {
    case 0:
      s[at] = static_cast<char>(rng() % 256);
      break;
    case 1:
      s.insert(at, kInserts[rng() % std::size(kInserts)]);
      break;
    case 2:
      s.erase(at, 1 + rng() % 8);
      break;
    case 3: {
      size_t len = 1 + rng() % 40;
      s.insert(at, s.substr(rng() % s.size(), len));
      break;
    }
    default:
      s.insert(at, std::string(1 + rng() % 50, "([{-~"[rng() % 5]));
      break;
    }
  }
  return s;
}

/// The AST (with positions) or the diagnostics of one parse.
std::string dumpOf(const SourceFile *file, const ParsedModule *m,
                   DiagnosticEngine &diags) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (file && m)
    detc::ast::dumpJSON(m->module, *file, os);
  diags.printAll(os);
  return out;
}

/// The same, parsed in pieces of one code point (cut wherever allowed).
std::string piecewiseDump(const std::string &src) {
  DiagnosticEngine diags;
  std::unique_ptr<SourceFile> again =
      SourceFile::fromBytes("fuzz.py", src, diags);
  std::unique_ptr<ParsedModule> m =
      again ? parseModule(*again, diags, /*pieceCodePoints=*/1) : nullptr;
  return dumpOf(again.get(), m.get(), diags);
}

TEST(FuzzTest, MutatedProgramsNeverCrashOrHang) {
  const char *itersEnv = std::getenv("DETC_FUZZ_ITERATIONS");
  const char *seedEnv = std::getenv("DETC_FUZZ_SEED");
  int iterations = itersEnv ? std::atoi(itersEnv) : 3000;
  std::mt19937_64 rng(seedEnv ? std::strtoull(seedEnv, nullptr, 10) : 20261121);
  int parsed = 0, rejected = 0;
  double slowest = 0;
  for (int i = 0; i < iterations; ++i) {
    std::string src = mutate(kSeeds[rng() % std::size(kSeeds)], rng);
    DiagnosticEngine diags;
    auto start = std::chrono::steady_clock::now();
    std::unique_ptr<SourceFile> file =
        SourceFile::fromBytes("fuzz.py", src, diags);
    std::unique_ptr<ParsedModule> m = file ? parseModule(*file, diags) : nullptr;
    double secs = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - start)
                      .count();
    slowest = std::max(slowest, secs);
    // Either an AST or a diagnostic: never silence.
    ASSERT_TRUE(m || diags.hasErrors()) << "input:\n" << src;
    ASSERT_TRUE(!m || !diags.hasErrors()) << "input:\n" << src;
    ASSERT_LT(secs, 2.0) << "parse took " << secs << " s on:\n" << src;
    (m ? parsed : rejected)++;
    ASSERT_EQ(dumpOf(file.get(), m.get(), diags),
              piecewiseDump(src))
        << "input:\n"
        << src;
  }
  // The mutations must exercise both outcomes, or the test says nothing.
  EXPECT_GT(parsed, iterations / 50);
  EXPECT_GT(rejected, iterations / 2);
  std::printf("fuzz: %d parsed, %d rejected, slowest %.3f s\n", parsed,
              rejected, slowest);
}

} // namespace

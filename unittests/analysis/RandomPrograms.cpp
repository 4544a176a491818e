//===- RandomPrograms.cpp - Random detc modules for property tests --------===//

#include "RandomPrograms.h"

#include <random>
#include <sstream>
#include <vector>

using namespace detc::testing;

namespace {
class Generator {
public:
  Generator(uint64_t seed, const RandomProgramOptions &options)
      : rng(seed), options(options) {}

  std::string module() {
    std::ostringstream os;
    os << "module {\n";
    // Helper h<i> may call h<j> for j > i only: no recursion.
    for (unsigned i = options.helpers; i-- > 0;) {
      currentHelper = i;
      inHelper = true;
      spent = 0;
      os << "  detc.func @h" << i
         << " kind function params [\"a\", \"r\"] {\n";
      block(os, 2, 1, /*inLoop=*/false);
      if (chance(2))
        os << indent(2) << "detc.return uses [\"a\"]\n";
      os << "  }\n";
    }
    inHelper = false;
    currentHelper = ~0u;
    spent = 0;
    os << "  detc.func @__main__ kind module {\n";
    // The global generator, and a few generators so draws have something
    // to use (more get created at random below).
    os << indent(2) << "detc.create_generator \"torch\" seeded defs "
       << "[\"<torch>\"] uses [\"v0\"]\n";
    os << indent(2) << "detc.create_generator \"numpy\" seeded defs "
       << "[\"g0\"] uses [\"v1\"]\n";
    block(os, 2, 0, /*inLoop=*/false);
    os << "  }\n}\n";
    return os.str();
  }

private:
  std::mt19937_64 rng;
  RandomProgramOptions options;
  unsigned checkpointsMade = 0;
  unsigned currentHelper = ~0u;
  bool inHelper = false;
  unsigned line = 0;
  unsigned spent = 0; ///< Statements of the current function.

  bool chance(unsigned oneIn) { return pick(oneIn) == 0; }
  unsigned pick(unsigned n) {
    return std::uniform_int_distribution<unsigned>(0, n - 1)(rng);
  }
  static std::string indent(unsigned depth) {
    return std::string(2 * depth, ' ');
  }
  std::string loc() {
    return " loc(\"rand\":" + std::to_string(++line) + ":1)";
  }

  /// Plain variables; helpers also see their parameter `a`.
  std::string var() {
    static const char *const names[] = {"v0", "v1", "v2", "v3",
                                        "v4", "m",  "m.w", "opt"};
    if (inHelper && chance(3))
      return "a";
    return names[pick(std::size(names))];
  }
  /// Variables that may hold a generator.
  std::string genVar() {
    static const char *const names[] = {"g0", "g1", "g2", "obj.rng"};
    if (inHelper && chance(2))
      return "r";
    if (chance(6))
      return "<torch>";
    return names[pick(std::size(names))];
  }
  std::string list(unsigned max) {
    std::string s;
    unsigned n = 1 + pick(max);
    for (unsigned i = 0; i < n; ++i)
      s += std::string(i ? ", " : "") + "\"" + var() + "\"";
    return "[" + s + "]";
  }

  void block(std::ostream &os, unsigned indentLevel, unsigned depth,
             bool inLoop) {
    unsigned n = 1 + pick(options.maxStatements);
    for (unsigned i = 0; i < n && (i == 0 || spent < options.budget); ++i) {
      ++spent;
      statement(os, indentLevel, depth, inLoop);
    }
  }

  void statement(std::ostream &os, unsigned in, unsigned depth, bool inLoop) {
    std::string p = indent(in);
    bool canNest = depth < options.maxDepth && spent < options.budget;
    switch (pick(canNest ? 16 : 10)) {
    case 0:
      os << p << "detc.create_generator \"torch\" seeded defs [\"" << genVar()
         << "\"] uses [\"" << var() << "\"]" << loc() << "\n";
      return;
    case 1:
      os << p << "detc.stmt \"assign\" copy defs [\"" << genVar()
         << "\"] uses [\"" << genVar() << "\"]" << loc() << "\n";
      return;
    case 2:
    case 3:
      os << p << "detc.draw \"" << genVar() << "\" dist \"normal\" defs [\""
         << var() << "\"] uses " << list(2) << loc() << "\n";
      return;
    case 4:
      os << p << "detc.stmt \"assign\" defs [\"" << var() << "\"] uses "
         << list(3) << loc() << "\n";
      return;
    case 5:
      os << p << "detc.stmt \"augassign\" updates [\"" << var()
         << "\"] uses " << list(2) << loc() << "\n";
      return;
    case 6:
      os << p << "detc.grad updates [\"m\"] uses " << list(2) << loc()
         << "\n";
      os << p << "detc.update \"opt\" updates [\"m\", \"opt\"] uses "
         << "[\"opt\", \"m\"]" << loc() << "\n";
      return;
    case 7:
      if (checkpointsMade >= options.checkpoints) {
        os << p << "detc.stmt \"expr\" uses " << list(2) << loc() << "\n";
        return;
      }
      ++checkpointsMade;
      os << p << "detc.checkpoint saved [\"m\", \"opt\"] uses [\"m\", "
         << "\"opt\"]" << loc() << "\n";
      return;
    case 8: {
      unsigned first = inHelper ? currentHelper + 1 : 0;
      if (first < options.helpers) {
        unsigned h = first + pick(options.helpers - first);
        std::string arg = var(), gen = genVar();
        os << p << "detc.call @h" << h << " bind {a = \"" << arg
           << "\", r = \"" << gen << "\"} defs [\"" << var()
           << "\"] uses [\"" << arg << "\", \"" << gen << "\"]" << loc()
           << "\n";
        return;
      }
      [[fallthrough]];
    }
    case 9:
      if (inLoop && chance(2)) {
        os << p << (chance(2) ? "detc.break" : "detc.continue") << loc()
           << "\n";
        return;
      }
      os << p << "detc.hint" << loc() << "\n";
      return;
    case 10:
    case 11:
      os << p << "detc.for defs [\"i" << depth << "\"] uses [\"" << var()
         << "\"] {\n";
      block(os, in + 1, depth + 1, /*inLoop=*/true);
      os << p << "}" << loc() << "\n";
      return;
    case 12:
      os << p << "detc.while uses [\"" << var() << "\"] {\n";
      block(os, in + 1, depth + 1, /*inLoop=*/true);
      os << p << "}" << loc() << "\n";
      return;
    case 13:
      os << p << "detc.if uses [\"" << var() << "\"] {\n";
      block(os, in + 1, depth + 1, inLoop);
      if (chance(2)) {
        os << p << "} else {\n";
        block(os, in + 1, depth + 1, inLoop);
      }
      os << p << "}" << loc() << "\n";
      return;
    default:
      // A region inside a loop body is not a loop for break/continue.
      os << p << "detc.parallel per_batch uses [\"" << var() << "\"] {\n";
      block(os, in + 1, depth + 1, /*inLoop=*/false);
      os << p << "}" << loc() << "\n";
      return;
    }
  }
};
} // namespace

std::string detc::testing::randomProgram(uint64_t seed,
                                         const RandomProgramOptions &options) {
  return Generator(seed, options).module();
}

//===- ExclusiveSimulators.cpp - ANTLR simulators for one parse at a time -===//

#include "ExclusiveSimulators.h"

using namespace antlr4;
using namespace detc::frontend;

std::atomic<bool> SimulatorCheck::enabled{false};
std::atomic<size_t> SimulatorCheck::lookups{0};
std::atomic<size_t> SimulatorCheck::mismatches{0};

namespace {
/// Recursive: an f-string's replacement fields are parsed by nested runs on
/// the same thread.
std::recursive_mutex &parseMutex() {
  static std::recursive_mutex m;
  return m;
}

template <typename Base>
dfa::DFAState *check(dfa::DFAState *found, Base lockedLookup) {
  if (SimulatorCheck::enabled.load(std::memory_order_relaxed)) {
    ++SimulatorCheck::lookups;
    if (found != lockedLookup())
      ++SimulatorCheck::mismatches;
  }
  return found;
}
} // namespace

ExclusiveParse::ExclusiveParse() { parseMutex().lock(); }
ExclusiveParse::~ExclusiveParse() { parseMutex().unlock(); }

dfa::DFAState *
ExclusiveLexerSimulator::getExistingTargetState(dfa::DFAState *s, size_t t) {
  // Characters beyond the DFA's range stay in the ATN (MAX_DFA_EDGE); the
  // edges are keyed from MIN_DFA_EDGE.
  dfa::DFAState *found = nullptr;
  if (t <= MAX_DFA_EDGE) {
    auto it = s->edges.find(t - MIN_DFA_EDGE);
    if (it != s->edges.end())
      found = it->second;
  }
  return check(found, [&] {
    return LexerATNSimulator::getExistingTargetState(s, t);
  });
}

dfa::DFAState *
ExclusiveParserSimulator::getExistingTargetState(dfa::DFAState *s, size_t t) {
  auto it = s->edges.find(t);
  dfa::DFAState *found = it == s->edges.end() ? nullptr : it->second;
  return check(found, [&] {
    return ParserATNSimulator::getExistingTargetState(s, t);
  });
}

void detc::frontend::useExclusiveSimulators(Lexer &lexer, Parser &parser) {
  // setInterpreter deletes the simulator it replaces.
  auto *lexSim = lexer.getInterpreter<atn::LexerATNSimulator>();
  lexer.setInterpreter(new ExclusiveLexerSimulator(
      &lexer, lexSim->atn, lexSim->_decisionToDFA,
      lexSim->getSharedContextCache()));
  auto *parseSim = parser.getInterpreter<atn::ParserATNSimulator>();
  parser.setInterpreter(new ExclusiveParserSimulator(
      &parser, parseSim->atn, parseSim->decisionToDFA,
      parseSim->getSharedContextCache()));
}

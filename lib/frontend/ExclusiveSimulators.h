//===- ExclusiveSimulators.h - ANTLR simulators for one parse at a time ---===//
//
// Internal to lib/frontend. ANTLR 4.9's lexer and parser simulators read a
// DFA edge under a process-wide reader-writer lock (a mutex and a condition
// variable) once per character and once per prediction step: a sixth of
// detc's parse time, for a lock nothing contends. detc parses one run at a
// time instead (ParseRun holds the ExclusiveParse section while it lives,
// nested f-string runs included), so these simulators read edges without
// the lock; the runtime still adds edges under it.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_EXCLUSIVESIMULATORS_H
#define DETC_LIB_FRONTEND_EXCLUSIVESIMULATORS_H

#include "antlr4-runtime.h"

#include <atomic>
#include <mutex>

namespace detc::frontend {

/// While one lives on a thread, no other thread lexes or parses (the DFA
/// the simulators read without a lock is shared by every run).
class ExclusiveParse {
public:
  ExclusiveParse();
  ~ExclusiveParse();
  ExclusiveParse(const ExclusiveParse &) = delete;
  ExclusiveParse &operator=(const ExclusiveParse &) = delete;
};

/// Tests: every unlocked lookup is also made through the runtime's locked
/// one and the answers compared; counts lookups and disagreements.
struct SimulatorCheck {
  static std::atomic<bool> enabled;
  static std::atomic<size_t> lookups, mismatches;
};

class ExclusiveLexerSimulator : public antlr4::atn::LexerATNSimulator {
public:
  using LexerATNSimulator::LexerATNSimulator;

protected:
  antlr4::dfa::DFAState *getExistingTargetState(antlr4::dfa::DFAState *s,
                                                size_t t) override;
};

class ExclusiveParserSimulator : public antlr4::atn::ParserATNSimulator {
public:
  using ParserATNSimulator::ParserATNSimulator;

protected:
  antlr4::dfa::DFAState *getExistingTargetState(antlr4::dfa::DFAState *s,
                                                size_t t) override;
};

/// Replaces the simulators the generated constructors made (same ATN, DFA
/// and context cache).
void useExclusiveSimulators(antlr4::Lexer &lexer, antlr4::Parser &parser);

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_EXCLUSIVESIMULATORS_H

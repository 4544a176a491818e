# Makes an ANTLR 4.9 C++ recognizer initialize its ATN on first use instead
# of at program start. The generated code defines a static `_init` object
# whose constructor deserializes the ATN and builds the DFA tables: half of
# every `detc` process's start (39M of 78M instructions of `detc
# --version`), paid also by the commands that never parse (infer, check,
# schedule). The recognizer's constructor is the only user of those
# tables, so it runs the initializer once, as a function-local static
# (thread-safe).
#
# cmake -DFILE=PythonLexer.cpp -DCLASS=PythonLexer -DSIMULATOR=Lexer -P ...
file(READ ${FILE} text)
set(definition "${CLASS}::Initializer ${CLASS}::_init;")
set(construct "  _interpreter = new atn::${SIMULATOR}ATNSimulator(")
string(FIND "${text}" "${definition}" at_definition)
string(FIND "${text}" "${construct}" at_construct)
if(at_definition EQUAL -1 OR at_construct EQUAL -1)
  message(FATAL_ERROR "${FILE}: the ANTLR-generated code has another shape; "
                      "cmake/LazyAntlrInit.cmake needs updating")
endif()
string(REPLACE "${definition}"
       "// detc: initialized on first use (cmake/LazyAntlrInit.cmake)"
       text "${text}")
string(REPLACE "${construct}"
       "  static Initializer once; // detc: the ATN, built on first use\n  (void)once;\n${construct}"
       text "${text}")
file(WRITE ${FILE} "${text}")

// Lexer for Python 3.11-3.13, written for detc.
//
// Design notes (see docs/frontend.md):
//  * No semantic predicates anywhere: a predicate at the start of a rule turns
//    off ANTLR's lexer DFA cache (13x slower lexing). Everything contextual
//    (INDENT/DEDENT, bracket depth, blank lines, string bodies) is done in the
//    C++ base class PythonLexerBase.
//  * STRING_START only matches an optional prefix and the opening quote(s);
//    PythonLexerBase scans the body by hand, which gives exact diagnostics for
//    unterminated strings and keeps this DFA small.
//  * NEWLINE carries the following line's indentation so the base class can
//    compute INDENT/DEDENT without looking at skipped tokens.
lexer grammar PythonLexer;

options { superClass = PythonLexerBase; }

@header { #include "PythonLexerBase.h" }

tokens { INDENT, DEDENT, STRING }

// Keywords.
FALSE    : 'False';
NONE     : 'None';
TRUE     : 'True';
AND      : 'and';
AS       : 'as';
ASSERT   : 'assert';
ASYNC    : 'async';
AWAIT    : 'await';
BREAK    : 'break';
CLASS    : 'class';
CONTINUE : 'continue';
DEF      : 'def';
DEL      : 'del';
ELIF     : 'elif';
ELSE     : 'else';
EXCEPT   : 'except';
FINALLY  : 'finally';
FOR      : 'for';
FROM     : 'from';
GLOBAL   : 'global';
IF       : 'if';
IMPORT   : 'import';
IN       : 'in';
IS       : 'is';
LAMBDA   : 'lambda';
NONLOCAL : 'nonlocal';
NOT      : 'not';
OR       : 'or';
PASS     : 'pass';
RAISE    : 'raise';
RETURN   : 'return';
TRY      : 'try';
WHILE    : 'while';
WITH     : 'with';
YIELD    : 'yield';

// Soft keywords: the parser also accepts them as identifiers.
MATCH    : 'match';
CASE     : 'case';
TYPE     : 'type';  // PEP 695 `type X = ...` (3.12)

NEWLINE  : ('\r'? '\n' | '\r') [ \t\f]*;

NAME     : ID_START ID_CONTINUE*;

NUMBER
  : DEC_INTEGER
  | '0' [xX] ('_'? HEX_DIGIT)+
  | '0' [oO] ('_'? [0-7])+
  | '0' [bB] ('_'? [01])+
  | FLOAT
  | (FLOAT | DIGIT_PART) [jJ]
  ;

STRING_START : STRING_PREFIX? ('\'\'\'' | '"""' | '\'' | '"');

// Brackets: the base class counts them for implicit line joining.
LPAR     : '(';
RPAR     : ')';
LSQB     : '[';
RSQB     : ']';
LBRACE   : '{';
RBRACE   : '}';

ELLIPSIS : '...';
DOT      : '.';
COMMA    : ',';
COLON    : ':';
SEMI     : ';';
ARROW    : '->';
WALRUS   : ':=';
AT       : '@';
ASSIGN   : '=';

PLUS     : '+';
MINUS    : '-';
STAR     : '*';
POWER    : '**';
SLASH    : '/';
DSLASH   : '//';
PERCENT  : '%';
TILDE    : '~';
AMPER    : '&';
VBAR     : '|';
CARET    : '^';
LSHIFT   : '<<';
RSHIFT   : '>>';

LT       : '<';
GT       : '>';
EQ       : '==';
NE       : '!=';
LE       : '<=';
GE       : '>=';

PLUS_ASSIGN    : '+=';
MINUS_ASSIGN   : '-=';
STAR_ASSIGN    : '*=';
AT_ASSIGN      : '@=';
SLASH_ASSIGN   : '/=';
PERCENT_ASSIGN : '%=';
AMPER_ASSIGN   : '&=';
VBAR_ASSIGN    : '|=';
CARET_ASSIGN   : '^=';
LSHIFT_ASSIGN  : '<<=';
RSHIFT_ASSIGN  : '>>=';
POWER_ASSIGN   : '**=';
DSLASH_ASSIGN  : '//=';

COMMENT   : '#' ~[\r\n]*            -> skip;
WS        : [ \t\f]+                -> skip;
LINE_JOIN : '\\' ('\r'? '\n' | '\r') -> skip;

// Anything else is an error; the base class reports it precisely.
ERROR_CHAR : .;

fragment STRING_PREFIX
  : [rRuUbBfF]
  | [rR] [bBfF]
  | [bBfF] [rR]
  ;

fragment DEC_INTEGER : [1-9] ('_'? DIGIT)* | '0'+ ('_'? '0')*;
fragment DIGIT_PART  : DIGIT ('_'? DIGIT)*;
fragment FLOAT
  : DIGIT_PART? '.' DIGIT_PART EXPONENT?
  | DIGIT_PART '.' EXPONENT?
  | DIGIT_PART EXPONENT
  ;
fragment EXPONENT  : [eE] [+-]? DIGIT_PART;
fragment DIGIT     : [0-9];
fragment HEX_DIGIT : [0-9a-fA-F];

// PEP 3131 identifiers: XID_Start/XID_Continue plus '_'.
fragment ID_START    : [_\p{XID_Start}];
fragment ID_CONTINUE : [\p{XID_Continue}];

// Parser for Python 3.11-3.13, written for detc.
//
// The grammar is deliberately LL-friendly so that SLL prediction succeeds on
// real code and the DFA cache stays small (see docs/frontend.md):
//  * assignment statements are `testlistStarExpr` followed by the assignment
//    tail, as in CPython's pre-PEG grammar; target validity is checked by the
//    AST builder, which also produces CPython's error messages;
//  * expressions are two left-recursive rules: `logicExpr` (or/and/not and
//    comparisons) above `bitExpr` (bitwise, arithmetic, unary, power, await,
//    primaries). Targets (`for` loops, comprehensions, `with ... as`, star
//    expressions) use `bitExpr`, so `in` after a target never needs the LL
//    fallback to be resolved;
//  * displays, subscripts and call arguments are factored so that the choice
//    between alternatives is made by the next one or two tokens.
parser grammar PythonParser;

options {
  tokenVocab = PythonLexer;
  superClass = PythonParserBase;
}

@header { #include "PythonParserBase.h" }

// ---- Entry points -----------------------------------------------------------

fileInput      : (NEWLINE | stmt)* EOF;
// Expression inside an f-string replacement field (lexed with implicit joining).
fstringExpr    : (yieldExpr | testlistStarExpr) EOF;

// ---- Statements -------------------------------------------------------------

stmt           : simpleStmts | compoundStmt;
simpleStmts    : simpleStmt (SEMI simpleStmt)* SEMI? NEWLINE;
simpleStmt
  : exprStmt
  | delStmt
  | passStmt
  | flowStmt
  | importStmt
  | globalStmt
  | nonlocalStmt
  | assertStmt
  | typeAlias
  ;

exprStmt
  : testlistStarExpr
    ( annAssign
    | augAssignOp (yieldExpr | testlistStarExpr)
    | (ASSIGN (yieldExpr | testlistStarExpr))*
    )
  ;
annAssign      : COLON test (ASSIGN (yieldExpr | testlistStarExpr))?;
augAssignOp
  : PLUS_ASSIGN | MINUS_ASSIGN | STAR_ASSIGN | AT_ASSIGN | SLASH_ASSIGN
  | PERCENT_ASSIGN | AMPER_ASSIGN | VBAR_ASSIGN | CARET_ASSIGN
  | LSHIFT_ASSIGN | RSHIFT_ASSIGN | POWER_ASSIGN | DSLASH_ASSIGN
  ;

delStmt        : DEL exprlist;
passStmt       : PASS;
flowStmt
  : BREAK                                   #breakStmt
  | CONTINUE                                #continueStmt
  | RETURN testlistStarExpr?                #returnStmt
  | RAISE (test (FROM test)?)?              #raiseStmt
  | yieldExpr                               #yieldStmt
  ;

importStmt
  : IMPORT dottedAsName (COMMA dottedAsName)*                       #importName
  | FROM importLevel* dottedName IMPORT importTargets               #importFrom
  | FROM importLevel+ IMPORT importTargets                          #importFrom
  ;
importLevel    : DOT | ELLIPSIS;
importTargets
  : STAR
  | LPAR importAsName (COMMA importAsName)* COMMA? RPAR
  | importAsName (COMMA importAsName)*
  ;
importAsName   : name (AS name)?;
dottedAsName   : dottedName (AS name)?;
dottedName     : name (DOT name)*;

globalStmt     : GLOBAL name (COMMA name)*;
nonlocalStmt   : NONLOCAL name (COMMA name)*;
assertStmt     : ASSERT test (COMMA test)?;
// PEP 695 (3.12) aliases and type parameters, PEP 696 (3.13) defaults.
typeAlias      : TYPE name typeParams? ASSIGN test;
typeParams     : LSQB typeParam (COMMA typeParam)* COMMA? RSQB;
typeParam
  : name (COLON test)? (ASSIGN test)?       #typeVarParam
  | STAR name (ASSIGN (starExpr | test))?   #typeVarTupleParam
  | POWER name (ASSIGN test)?               #paramSpecParam
  ;

compoundStmt
  : ifStmt
  | whileStmt
  | forStmt
  | tryStmt
  | withStmt
  | funcDef
  | classDef
  | decorated
  | asyncStmt
  | matchStmt
  ;

ifStmt         : IF namedExprTest COLON block elifClause* elseClause?;
elifClause     : ELIF namedExprTest COLON block;
elseClause     : ELSE COLON block;
whileStmt      : WHILE namedExprTest COLON block elseClause?;
forStmt        : FOR exprlist IN testlistStarExpr COLON block elseClause?;
tryStmt
  : TRY COLON block
    ( exceptClause+ elseClause? finallyClause?
    | finallyClause
    )
  ;
exceptClause   : EXCEPT STAR? (test (AS name)?)? COLON block;
finallyClause  : FINALLY COLON block;
withStmt
  : WITH ( LPAR withItem (COMMA withItem)* COMMA? RPAR
         | withItem (COMMA withItem)*
         ) COLON block
  ;
withItem       : test (AS bitExpr)?;

asyncStmt      : ASYNC (funcDef | withStmt | forStmt);
decorated      : decorator+ (classDef | funcDef | asyncFuncDef);
asyncFuncDef   : ASYNC funcDef;
decorator      : AT namedExprTest NEWLINE;

funcDef        : DEF name typeParams? LPAR paramList? RPAR (ARROW test)? COLON block;
// Order and uniqueness rules (positional-only '/', bare '*', defaults) are
// checked by the AST builder.
paramList      : param (COMMA param)* COMMA?;
param
  : name (COLON test)? (ASSIGN test)?       #plainParam
  | STAR (name (COLON (test | starExpr))?)? #varParam
  | POWER name (COLON test)?                #kwParam
  | SLASH                                   #posOnlyMarker
  ;
lambdaParamList : lambdaParam (COMMA lambdaParam)* COMMA?;
lambdaParam
  : name (ASSIGN test)?                     #lambdaPlainParam
  | STAR name?                              #lambdaVarParam
  | POWER name                              #lambdaKwParam
  | SLASH                                   #lambdaPosOnlyMarker
  ;

classDef       : CLASS name typeParams? (LPAR argList? RPAR)? COLON block;

block          : simpleStmts | NEWLINE INDENT stmt+ DEDENT;

// ---- match statement (PEP 634) ----------------------------------------------

matchStmt      : MATCH subject COLON NEWLINE INDENT caseBlock+ DEDENT;
subject        : (namedExprTest | starExpr) (COMMA (namedExprTest | starExpr))* COMMA?;
caseBlock      : CASE patterns (IF namedExprTest)? COLON block;
patterns       : maybeStarPattern (COMMA maybeStarPattern)* COMMA?;
maybeStarPattern
  : STAR name                               #starPattern
  | pattern                                 #plainPattern
  ;
pattern        : closedPattern (VBAR closedPattern)* (AS name)?;
closedPattern
  : literalPattern                                  #literalClosedPattern
  | name (DOT name)* (LPAR patternArgs? RPAR)?      #nameClosedPattern
  | LPAR patterns? RPAR                             #groupClosedPattern
  | LSQB patterns? RSQB                             #sequenceClosedPattern
  | LBRACE mappingItems? RBRACE                     #mappingClosedPattern
  ;
literalPattern
  : MINUS? NUMBER ((PLUS | MINUS) NUMBER)?
  | strings
  | NONE
  | TRUE
  | FALSE
  ;
mappingItems   : mappingItem (COMMA mappingItem)* COMMA?;
mappingItem
  : POWER name                                      #restMappingItem
  | (literalPattern | name (DOT name)+) COLON pattern #keyMappingItem
  ;
patternArgs    : patternArg (COMMA patternArg)* COMMA?;
patternArg     : name ASSIGN pattern | pattern;

// ---- Expressions ------------------------------------------------------------

testlistStarExpr : (test | starExpr) (COMMA (test | starExpr))* COMMA?;
exprlist         : (bitExpr | starExpr) (COMMA (bitExpr | starExpr))* COMMA?;

namedExprTest  : name WALRUS test | test;
test
  : logicExpr (IF logicExpr ELSE test)?
  | lambdef
  ;
testNoCond     : logicExpr | lambdefNoCond;
lambdef        : LAMBDA lambdaParamList? COLON test;
lambdefNoCond  : LAMBDA lambdaParamList? COLON testNoCond;
starExpr       : STAR bitExpr;

logicExpr
  : bitExpr (compOp bitExpr)*               #comparison
  | NOT logicExpr                           #notTest
  | logicExpr AND logicExpr                 #andTest
  | logicExpr OR logicExpr                  #orTest
  ;
compOp
  : LT | GT | EQ | GE | LE | NE
  | IN | NOT IN | IS | IS NOT
  ;

bitExpr
  : AWAIT? atom trailer*                                    #primary
  | <assoc=right> bitExpr POWER bitExpr                     #power
  | op=(PLUS | MINUS | TILDE) bitExpr                       #unary
  | bitExpr op=(STAR | AT | SLASH | DSLASH | PERCENT) bitExpr #binary
  | bitExpr op=(PLUS | MINUS) bitExpr                       #binary
  | bitExpr op=(LSHIFT | RSHIFT) bitExpr                    #binary
  | bitExpr op=AMPER bitExpr                                #binary
  | bitExpr op=CARET bitExpr                                #binary
  | bitExpr op=VBAR bitExpr                                 #binary
  ;

atom
  : LPAR (yieldExpr | testlistComp)? RPAR   #parenAtom
  | LSQB testlistComp? RSQB                 #listAtom
  | LBRACE dictOrSetMaker? RBRACE           #braceAtom
  | name                                    #nameAtom
  | NUMBER                                  #numberAtom
  | strings                                 #stringAtom
  | ELLIPSIS                                #ellipsisAtom
  | (NONE | TRUE | FALSE)                   #singletonAtom
  ;
strings        : STRING+;
name           : NAME | MATCH | CASE | TYPE;

testlistComp
  : (namedExprTest | starExpr) ( compFor | (COMMA (namedExprTest | starExpr))* COMMA? )
  ;
trailer
  : LPAR argList? RPAR                      #callTrailer
  | LSQB subscriptList RSQB                 #subscriptTrailer
  | DOT name                                #attributeTrailer
  ;
subscriptList  : subscript (COMMA subscript)* COMMA?;
subscript
  : namedExprTest sliceTail?
  | sliceTail
  | starExpr
  ;
sliceTail      : COLON test? (COLON test?)?;

// Dict and set displays share one item rule; the AST builder checks that a
// display does not mix `k: v` items with plain ones.
dictOrSetMaker : dictOrSetItem (compFor | (COMMA dictOrSetItem)* COMMA?);
dictOrSetItem
  : POWER bitExpr
  | starExpr
  | namedExprTest (COLON test)?
  ;

argList        : argument (COMMA argument)* COMMA?;
argument
  : name ASSIGN test                        #keywordArgument
  | namedExprTest compFor?                  #positionalArgument
  | STAR test                               #starArgument
  | POWER test                              #doubleStarArgument
  ;

compFor        : ASYNC? FOR exprlist IN logicExpr compIter?;
compIter       : compFor | compIf;
compIf         : IF testNoCond compIter?;

yieldExpr      : YIELD (FROM test | testlistStarExpr)?;

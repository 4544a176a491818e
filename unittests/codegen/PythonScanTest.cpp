//===- PythonScanTest.cpp - callee spans and comment placement ------------===//

#include "detc/codegen/PythonScan.h"
#include "detc/codegen/Transform.h"

#include "gtest/gtest.h"

using namespace detc::codegen;

namespace {

/// The callee text of the call spanning all of `src`.
std::string callee(llvm::StringRef src) {
  std::optional<uint32_t> end = calleeEnd(src, 0, src.size());
  return end ? src.substr(0, *end).str() : "<none>";
}

TEST(PythonScan, CalleeOfNestedCalls) {
  EXPECT_EQ(callee("torch.rand(3)"), "torch.rand");
  // The outermost call's parenthesis, not the receiver's call.
  EXPECT_EQ(callee("torch.empty_like(x).uniform_(-e, e)"),
            "torch.empty_like(x).uniform_");
  EXPECT_EQ(callee("make(a)(b)(c)"), "make(a)(b)");
  EXPECT_EQ(callee("d[k](x, [1, (2)])"), "d[k]");
  EXPECT_EQ(callee("f (x)"), "f");
}

TEST(PythonScan, CalleeIgnoresBracketsInStringsAndComments) {
  EXPECT_EQ(callee("f(')', \")\", '''(''', x)"), "f");
  EXPECT_EQ(callee("f(x,  # ) not code\n  y)"), "f");
  EXPECT_EQ(callee("g['a)'](r'\\')')"), "g['a)']");
  EXPECT_EQ(callee("x"), "<none>");
  EXPECT_EQ(callee("(a)"), "<none>"); // parentheses, not a call
}

TEST(PythonScan, CommentGoesWhereItCan) {
  std::string src = "x = f(1,\n      2)\ny = 3\n";
  // From inside the call: the first break (a comment is legal inside
  // brackets).
  EXPECT_EQ(commentableLineEnd(src, 0, 4), 8u);
  // After a backslash continuation: the next line.
  std::string cont = "x = f(1) + \\\n    2\n";
  EXPECT_EQ(commentableLineEnd(cont, 0, 4), cont.find("2\n") + 1);
  // A triple-quoted string spanning lines: after it.
  std::string str = "x = f('''a\nb''')\nz = 1\n";
  EXPECT_EQ(commentableLineEnd(str, 0, 4), str.find(")\n") + 1);
  // CRLF: before the '\r'.
  std::string crlf = "x = f()\r\ny = 2\r\n";
  EXPECT_EQ(commentableLineEnd(crlf, 0, 0), 7u);
  // No final newline: the end of the file.
  std::string last = "x = f()";
  EXPECT_EQ(commentableLineEnd(last, 0, 0), last.size());
}

} // namespace

namespace {

/// What CPython makes of the literal: the emitted script must mean the
/// same path (checked against Python itself by the e2e and hostile tests).
TEST(PythonScan, StringLiteralsStayOnOneLineForAnyBytes) {
  EXPECT_EQ(pyString("a'b\\c"), "'a\\'b\\\\c'");
  EXPECT_EQ(pyString("a\nb\rc\td"), "'a\\nb\\rc\\td'");
  EXPECT_EQ(pyString(llvm::StringRef("x\0y", 3)), "'x\\x00y'");
  EXPECT_EQ(pyString("\x7f"), "'\\x7f'");
  // Valid UTF-8 as code points; a byte that is no UTF-8 as the surrogate
  // escape os.fsencode turns back into that byte.
  EXPECT_EQ(pyString("caf\xc3\xa9"), "'caf\\u00e9'");
  EXPECT_EQ(pyString("\xf0\x9f\x98\x80"), "'\\U0001f600'");
  EXPECT_EQ(pyString("b\xff" "ad"), "'b\\udcffad'");
  EXPECT_EQ(pyString("\xc3"), "'\\udcc3'");             // cut sequence
  EXPECT_EQ(pyString("\xc0\xaf"), "'\\udcc0\\udcaf'");   // overlong
  EXPECT_EQ(pyString("\xed\xa0\x80"), "'\\udced\\udca0\\udc80'"); // surrogate
}

TEST(EmitCheck, InvalidPythonIsCaughtBeforeWriting) {
  EXPECT_FALSE(emittedSyntaxError("t.py", "x = f('a\\nb')\n"));
  std::optional<std::string> why =
      emittedSyntaxError("t.py", "x = f('a\nb')\n");
  ASSERT_TRUE(why);
  EXPECT_EQ(why->substr(0, 2), "1:");
  EXPECT_TRUE(emittedSyntaxError("t.py", "for x in y:\nz = 1\n"));
}

/// What CPython's compiler refuses after parsing, in its words: a file
/// that parses is not yet a script that runs (a vaccinated cell that
/// annotated a name it declared nonlocal was written with exit 0).
TEST(EmitCheck, ScopeErrorsAreCaughtBeforeWriting) {
  auto why = [](llvm::StringRef text) {
    return emittedSyntaxError("t.py", text).value_or("<none>");
  };
  EXPECT_EQ(why("def f():\n x = 1\n def g():\n  nonlocal x\n  x = 2\n"),
            "<none>");
  EXPECT_EQ(why("def f():\n x = 1\n def g():\n  nonlocal x\n"
                "  x: int = 2\n"),
            "5:3: annotated name 'x' can't be nonlocal");
  EXPECT_EQ(why("def g():\n global y\n y: int\n"),
            "3:2: annotated name 'y' can't be global");
  EXPECT_EQ(why("nonlocal z\n"),
            "1:1: nonlocal declaration not allowed at module level");
  EXPECT_EQ(why("def f():\n def g():\n  nonlocal w\n"),
            "3:3: no binding for nonlocal 'w' found");
  EXPECT_EQ(why("def f(a):\n global a\n"),
            "1:1: name 'a' is parameter and global");
}

} // namespace

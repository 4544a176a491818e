//===- ParserTest.cpp - Parser API, positions and diagnostics -------------===//

#include "detc/frontend/ASTDump.h"
#include "detc/frontend/Parser.h"

#include "gtest/gtest.h"

using namespace detc;
using namespace detc::frontend;

namespace {

struct Parsed {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<ParsedModule> module;
  DiagnosticEngine diags;
};

std::unique_ptr<Parsed> parse(const std::string &src) {
  auto p = std::make_unique<Parsed>();
  p->file = SourceFile::fromBytes("test.py", src, p->diags);
  if (p->file)
    p->module = parseModule(*p->file, p->diags);
  return p;
}

TEST(ParserTest, ByteOffsetsAndColumnsWithNonAscii) {
  // 'é' is two UTF-8 bytes: columns and offsets count bytes, as CPython.
  auto p = parse("é = 1\ny = 'ü' + x\n");
  ASSERT_TRUE(p->module);
  auto *assign = llvm::cast<ast::Assign>(p->module->module->body[1]);
  auto *bin = llvm::cast<ast::BinOp>(assign->value);
  EXPECT_EQ(bin->right->getRange().begin.line, 2u);
  EXPECT_EQ(bin->right->getRange().begin.column, 11u);
  EXPECT_EQ(bin->right->getRange().begin.offset, 7u + 11u);
  // The source text at the recorded byte range is the node's text.
  const ast::SourceRange &r = bin->left->getRange();
  EXPECT_EQ(p->file->getBytes().substr(r.begin.offset,
                                       r.end.offset - r.begin.offset),
            "'ü'");
}

TEST(ParserTest, RangesCoverRewritableText) {
  std::string src = "model = Net(\n    drop=0.5,\n)  # build\n";
  auto p = parse(src);
  ASSERT_TRUE(p->module);
  const ast::SourceRange &r = p->module->module->body[0]->getRange();
  EXPECT_EQ(src.substr(r.begin.offset, r.end.offset - r.begin.offset),
            "model = Net(\n    drop=0.5,\n)");
}

TEST(ParserTest, FirstSyntaxErrorOnly) {
  auto p = parse("x = = 1\ny = (\n");
  EXPECT_FALSE(p->module);
  ASSERT_EQ(p->diags.getNumErrors(), 1u);
  const Diagnostic &d = p->diags.getDiagnostics()[0];
  EXPECT_EQ(d.pos.line, 1u);
  EXPECT_EQ(d.pos.column, 4u);
}

TEST(ParserTest, ForEachChildVisitsInFieldOrder) {
  auto p = parse("f(a, b=c)\n");
  ASSERT_TRUE(p->module);
  auto *call = llvm::cast<ast::ExprStmt>(p->module->module->body[0])->value;
  std::vector<std::string> fields;
  ast::forEachChild(call, [&](llvm::StringRef field, const ast::Node *) {
    fields.push_back(field.str());
  });
  EXPECT_EQ(fields, (std::vector<std::string>{"func", "args", "keywords"}));
}

TEST(ParserTest, TargetsGetStoreAndDelContexts) {
  auto p = parse("a, (b, *c) = d\ndel e.f\n");
  ASSERT_TRUE(p->module);
  auto *assign = llvm::cast<ast::Assign>(p->module->module->body[0]);
  auto *tuple = llvm::cast<ast::Tuple>(assign->targets[0]);
  EXPECT_EQ(tuple->ctx, ast::ExprContext::Store);
  auto *inner = llvm::cast<ast::Tuple>(tuple->elts[1]);
  EXPECT_EQ(llvm::cast<ast::Starred>(inner->elts[1])->value->ctx,
            ast::ExprContext::Store);
  auto *del = llvm::cast<ast::Delete>(p->module->module->body[1]);
  EXPECT_EQ(del->targets[0]->ctx, ast::ExprContext::Del);
}

TEST(ParserTest, UndecodableFileIsADiagnostic) {
  auto p = parse(std::string("x = 1\n\xff\n"));
  EXPECT_FALSE(p->file);
  ASSERT_EQ(p->diags.getNumErrors(), 1u);
}

// What a second lowering of the same program says again is dropped, each
// earlier diagnostic (with its notes) standing for one repeat; what is new
// stays, also a note repeated under another diagnostic.
TEST(DiagnosticEngineTest, RepeatsOfEarlierDiagnosticsAreDropped) {
  auto make = [](Severity s, const char *file, unsigned line,
                 const char *msg) {
    Diagnostic d;
    d.severity = s;
    d.file = file;
    d.pos.line = line;
    d.message = msg;
    return d;
  };
  DiagnosticEngine diags;
  diags.add(make(Severity::Warning, "a.py", 3, "cannot resolve 'x'"));
  diags.add(make(Severity::Note, "a.py", 3, "looked in ."));
  diags.add(make(Severity::Warning, "a.py", 4, "cannot resolve 'x'"));
  diags.add(make(Severity::Note, "a.py", 4, "looked in ."));
  size_t start = diags.getDiagnostics().size();
  diags.add(make(Severity::Warning, "a.py", 3, "cannot resolve 'x'"));
  diags.add(make(Severity::Note, "a.py", 3, "looked in ."));
  diags.add(make(Severity::Warning, "a.py", 9, "new"));
  diags.add(make(Severity::Note, "a.py", 9, "looked in ."));
  diags.add(make(Severity::Warning, "a.py", 4, "cannot resolve 'x'"));
  diags.add(make(Severity::Note, "a.py", 4, "looked in ."));
  diags.add(make(Severity::Warning, "a.py", 5, "cannot resolve 'x'"));
  diags.add(make(Severity::Error, "a.py", 6, "bad"));
  diags.dropRepeatsSince(start);
  const auto &kept = diags.getDiagnostics();
  ASSERT_EQ(kept.size(), 8u);
  EXPECT_EQ(kept[4].message, "new");
  EXPECT_EQ(kept[5].message, "looked in .");
  // A third warning with the same text but no note: another group.
  EXPECT_EQ(kept[6].pos.line, 5u);
  EXPECT_EQ(kept[7].message, "bad");
  EXPECT_EQ(diags.getNumErrors(), 1u);
}

} // namespace

namespace {
// Once parsed, a UTF-8 file drops its decoded code points (ParseCache does
// it); positions and the line texts diagnostics quote must not change.
TEST(SourceFileTest, ReleasingCodePointsKeepsPositionsAndLineTexts) {
  for (std::string src : {std::string("\xEF\xBB\xBFx = 'é'\r\ny = 1\rz = \"ü\"\n\nw"),
                          std::string("a = 1\nb = 2\n"),
                          std::string("# only a comment")}) {
    DiagnosticEngine diags;
    auto file = SourceFile::fromBytes("t.py", src, diags);
    ASSERT_TRUE(file);
    size_t n = file->getCodePoints().size();
    std::vector<std::string> lines;
    std::vector<ast::SourcePos> positions;
    for (unsigned l = 0; l <= file->getNumLines() + 1; ++l)
      lines.push_back(file->getLineText(l));
    for (size_t i = 0; i <= n + 1; ++i)
      positions.push_back(file->getPos(i));
    file->releaseCodePoints();
    EXPECT_TRUE(file->getCodePoints().empty());
    for (unsigned l = 0; l <= file->getNumLines() + 1; ++l)
      EXPECT_EQ(file->getLineText(l), lines[l]) << "line " << l;
    for (size_t i = 0; i <= n + 1; ++i) {
      ast::SourcePos p = file->getPos(i);
      EXPECT_EQ(p.line, positions[i].line) << i;
      EXPECT_EQ(p.column, positions[i].column) << i;
      EXPECT_EQ(p.offset, positions[i].offset) << i;
    }
  }
}

TEST(SourceFileTest, OtherEncodingsKeepTheirCodePoints) {
  DiagnosticEngine diags;
  auto file = SourceFile::fromBytes(
      "t.py", std::string("# -*- coding: latin-1 -*-\nx = '\xE9'\n"), diags);
  ASSERT_TRUE(file);
  std::string line = file->getLineText(2);
  file->releaseCodePoints();
  EXPECT_FALSE(file->getCodePoints().empty());
  EXPECT_EQ(file->getLineText(2), line);
  EXPECT_EQ(line, "x = '\xC3\xA9'");
}
} // namespace

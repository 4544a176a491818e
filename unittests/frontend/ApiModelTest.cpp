//===- ApiModelTest.cpp - API tables: signatures and argument binding -----===//

#include "detc/frontend/ApiModel.h"

#include "gtest/gtest.h"

using namespace detc::frontend;

namespace {

const ApiEntry &entryOf(ApiModel &m, llvm::StringRef table,
                        llvm::StringRef name) {
  std::string error;
  EXPECT_TRUE(m.addTable("t.api", table, error)) << error;
  const ApiEntry *e = m.lookup(name);
  EXPECT_NE(e, nullptr);
  return *e;
}

TEST(ApiModel, ParameterNamesBindThroughTheSignature) {
  ApiModel m;
  const ApiEntry &e = entryOf(
      m,
      "lib.f  loader  dataset=dataset workers=num_workers "
      "generator=generator sig=(dataset,batch_size=1,num_workers=0,*,"
      "generator=None)\n",
      "lib.f");
  ArgRef w = e.getArg("workers");
  EXPECT_EQ(w.position, 2);
  EXPECT_EQ(w.keyword, "num_workers");
  ASSERT_TRUE(w.defaultValue.has_value());
  EXPECT_EQ(*w.defaultValue, "0");
  ArgRef g = e.getArg("generator");
  EXPECT_EQ(g.position, -1) << "keyword-only";
  EXPECT_EQ(g.keyword, "generator");
  ArgRef d = e.getArg("dataset");
  EXPECT_EQ(d.position, 0);
  EXPECT_FALSE(d.defaultValue.has_value());
}

TEST(ApiModel, PositionalOnlyVarArgsAndDefaultsWithCommas) {
  ApiModel m;
  const ApiEntry &e = entryOf(
      m,
      "lib.g  draw  gen=gen seed=seed sig=(a,seed,/,size=(3,224,224),*rest,"
      "gen=None,**kw)\n",
      "lib.g");
  ASSERT_EQ(e.signature.size(), 6u);
  EXPECT_EQ(e.signature[0].kind, ApiParam::Kind::PositionalOnly);
  EXPECT_EQ(e.signature[2].kind, ApiParam::Kind::PositionalOrKeyword);
  EXPECT_EQ(*e.signature[2].defaultValue, "(3,224,224)");
  EXPECT_EQ(e.signature[3].kind, ApiParam::Kind::VarPositional);
  EXPECT_EQ(e.signature[4].kind, ApiParam::Kind::KeywordOnly);
  EXPECT_EQ(e.signature[5].kind, ApiParam::Kind::VarKeyword);
  ArgRef s = e.getArg("seed");
  EXPECT_EQ(s.position, 1);
  EXPECT_TRUE(s.keyword.empty()) << "positional-only: never by keyword";
  EXPECT_EQ(e.getArg("gen").position, -1);
}

TEST(ApiModel, TablesNamingUnknownParametersAreRefused) {
  ApiModel m;
  std::string error;
  EXPECT_FALSE(m.addTable("bad.api",
                          "lib.f  loader  workers=num_worker "
                          "sig=(dataset,num_workers=0)\n",
                          error));
  EXPECT_EQ(error, "bad.api:1: 'workers=num_worker': the signature has no "
                   "parameter 'num_worker'");
  EXPECT_FALSE(m.addTable("bad.api", "lib.f  loader  sig=dataset,x\n", error));
  EXPECT_EQ(error, "bad.api:1: a signature is written "
                   "'(name,name=default,*,name,...)'");
  EXPECT_FALSE(m.addTable("bad.api", "lib.f  loader  sig=(a,b-c)\n", error));
  EXPECT_EQ(error, "bad.api:1: malformed parameter 'b-c' in the signature");
}

TEST(ApiModel, BuiltinDataLoaderBindsAsCPython) {
  const ApiModel &m = ApiModel::getBuiltin();
  const ApiEntry *e = m.lookup("torch.utils.data.DataLoader");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->getArg("workers").position, 5);
  EXPECT_EQ(e->getArg("shuffle").position, 2);
  EXPECT_EQ(e->getArg("generator").position, 12);
  const ApiEntry *folder = m.lookup("torchvision.datasets.ImageFolder");
  ASSERT_NE(folder, nullptr);
  EXPECT_EQ(folder->getArg("transform").position, 1);
  const ApiEntry *imagenet = m.lookup("torchvision.datasets.ImageNet");
  ASSERT_NE(imagenet, nullptr);
  EXPECT_EQ(imagenet->getArg("transform").position, -1) << "**kwargs";
  EXPECT_EQ(imagenet->getArg("transform").keyword, "transform");
}

} // namespace

TEST(ApiModel, QuietAndUnreadModulesSayWhyAndTheInnermostDecides) {
  ApiModel m;
  std::string error;
  ASSERT_TRUE(m.addTable("libs.api",
                         "unread apex   fused layers draw\n"
                         "quiet apex.amp   loss scaling\n"
                         "quiet os   files and paths\n",
                         error))
      << error;
  using U = ApiModel::Unmodelled;
  EXPECT_EQ(m.classifyUnmodelled("apex.amp.scale_loss"), U::Quiet);
  EXPECT_EQ(m.classifyUnmodelled("apex.normalization.FusedLayerNorm"),
            U::Unread);
  EXPECT_EQ(m.classifyUnmodelled("apex"), U::Unread);
  EXPECT_EQ(m.classifyUnmodelled("os.path.join"), U::Quiet);
  EXPECT_EQ(m.classifyUnmodelled("albumentations.Compose"), U::Unknown);
  // `osx` is not under `os`.
  EXPECT_EQ(m.classifyUnmodelled("osx.f"), U::Unknown);
  EXPECT_EQ(m.unmodelledReason("apex.amp.scale_loss"), "loss scaling");
  EXPECT_EQ(m.unmodelledReason("apex.x"), "fused layers draw");

  // A declaration without its reason, or twice, is refused.
  EXPECT_FALSE(m.addTable("bad.api", "quiet json\n", error));
  EXPECT_EQ(error, "bad.api:1: expected 'quiet <module> <reason>'");
  EXPECT_FALSE(m.addTable("bad.api", "unread os  may draw\n", error));
  EXPECT_EQ(error, "bad.api:1: 'os' is declared twice");

  // The built-in table: the standard library is quiet, augmentation
  // libraries are unread, and every declaration gives a reason.
  const ApiModel &builtin = ApiModel::getBuiltin();
  EXPECT_EQ(builtin.classifyUnmodelled("os.path.join"), U::Quiet);
  EXPECT_EQ(builtin.classifyUnmodelled("albumentations.HorizontalFlip"),
            U::Unread);
  EXPECT_EQ(builtin.classifyUnmodelled("timm.create_model"), U::Unread);
  EXPECT_FALSE(builtin.unmodelledReason("PIL.Image.open").empty());
}

TEST(ApiModel, ValuesThatVaryFromRunToRunSayWhy) {
  ApiModel m;
  std::string error;
  ASSERT_TRUE(m.addTable("clock.api",
                         "varies datetime.datetime.now   the clock\n"
                         "varies os.getpid   the process\n",
                         error))
      << error;
  EXPECT_EQ(m.variesWith("datetime.datetime.now"), "the clock");
  EXPECT_EQ(m.variesWith("os.getpid"), "the process");
  // Exact names only: a module's other functions are values of their
  // inputs.
  EXPECT_TRUE(m.variesWith("datetime.datetime").empty());
  EXPECT_TRUE(m.variesWith("datetime.datetime.now.x").empty());
  EXPECT_TRUE(m.variesWith("os.path.join").empty());
  EXPECT_FALSE(m.addTable("bad.api", "varies time.time\n", error));
  EXPECT_EQ(error, "bad.api:1: expected 'varies <name> <why>'");
  // The built-in tables: the clock reads scripts name their runs after.
  const ApiModel &builtin = ApiModel::getBuiltin();
  for (const char *name : {"datetime.datetime.now", "time.time",
                           "time.strftime", "uuid.uuid4"})
    EXPECT_FALSE(builtin.variesWith(name).empty()) << name;
  EXPECT_TRUE(builtin.variesWith("datetime.datetime.strptime").empty());
}

TEST(ApiModel, ExportsListTheNamesAStarImportBinds) {
  ApiModel m;
  std::string error;
  ASSERT_TRUE(m.addTable("rng.api",
                         "module rng\n"
                         "exports rng seed shuffle\n"
                         "exports rng bytes\n",
                         error))
      << error;
  const llvm::StringSet<> *names = m.exportsOf("rng");
  ASSERT_NE(names, nullptr);
  // Lines add up.
  EXPECT_EQ(names->size(), 3u);
  for (const char *name : {"seed", "shuffle", "bytes"})
    EXPECT_TRUE(names->contains(name)) << name;
  EXPECT_FALSE(names->contains("print"));
  EXPECT_EQ(m.exportsOf("other"), nullptr);
  EXPECT_FALSE(m.addTable("bad.api", "exports rng\n", error));
  EXPECT_EQ(error, "bad.api:1: expected 'exports <module> <name>...'");
  // The built-in tables: random's and numpy.random's `__all__`.
  const ApiModel &builtin = ApiModel::getBuiltin();
  ASSERT_NE(builtin.exportsOf("random"), nullptr);
  EXPECT_TRUE(builtin.exportsOf("random")->contains("randrange"));
  EXPECT_FALSE(builtin.exportsOf("random")->contains("set"));
  ASSERT_NE(builtin.exportsOf("numpy.random"), nullptr);
  EXPECT_TRUE(builtin.exportsOf("numpy.random")->contains("bytes"));
  EXPECT_FALSE(builtin.exportsOf("numpy.random")->contains("randrange"));
}

TEST(ApiModel, AWildcardDeclaringLibraryCodeHarmlessSaysWhy) {
  ApiModel m;
  std::string error;
  EXPECT_FALSE(m.addTable("bad.api", "module lib\nlib.*  pure\n", error));
  EXPECT_EQ(error, "bad.api:2: 'lib.*' declares everything under it "
                   "harmless: say why in a comment on the line above");
  EXPECT_FALSE(m.addTable("bad.api", "lib.layers.*  layer\n", error));
  // With its reason, or drawing, it is accepted.
  EXPECT_TRUE(m.addTable("ok.api",
                         "# lib's functions compute from their arguments\n"
                         "lib.*  pure\n"
                         "lib.noise.*  layer  lib=torch dist=noise\n",
                         error))
      << error;
}

TEST(ApiModel, LongNamesFindTheirModulesAndAliasesOnly) {
  // Prefix walks skip what is longer than any table word (a chain
  // `a.b.b.b...` asked per link made the analysis cubic in it): the
  // prefixes that are keys are still found, however long the name.
  ApiModel m;
  std::string error;
  ASSERT_TRUE(m.addTable("libs.api",
                         "quiet os   files and paths\n"
                         "alias kx = tensorflow.keras\n"
                         "module tensorflow.keras\n",
                         error))
      << error;
  std::string chain = "kx.layers";
  for (int i = 0; i < 5000; ++i)
    chain += ".b";
  EXPECT_EQ(m.canonicalize(chain), "tensorflow.keras" + chain.substr(2));
  EXPECT_EQ(m.canonicalize("kxy" + chain.substr(2)), "kxy" + chain.substr(2));
  EXPECT_EQ(m.classifyUnmodelled("os" + chain.substr(2)),
            ApiModel::Unmodelled::Quiet);
  EXPECT_TRUE(m.isLibraryName("tensorflow.keras" + chain.substr(2)));
  EXPECT_FALSE(m.isLibraryName("tensorflow.kerass" + chain.substr(2)));
  // Exactly as long as the longest word, and one past it.
  EXPECT_EQ(m.canonicalize("kx"), "tensorflow.keras");
  EXPECT_TRUE(m.isLibraryName("tensorflow.keras"));
}

TEST(ApiModel, AWildcardMatchesOneLevelItsLongestFirst) {
  ApiModel m;
  std::string error;
  ASSERT_TRUE(m.addTable("w.api",
                         "lib.layers.Random*  layer  lib=torch dist=noise\n"
                         "lib.layers.*        layer  lib=torch dist=noise2\n"
                         "lib.layers.Exact    call\n"
                         "lib.*               layer  lib=torch dist=noise3\n",
                         error))
      << error;
  auto dist = [&](llvm::StringRef name) -> std::string {
    const ApiEntry *e = m.lookup(name);
    return e ? e->get("dist").str() : "none";
  };
  // The partial wildcard of a name's last part wins over its parent's.
  EXPECT_EQ(dist("lib.layers.RandomFlip"), "noise");
  EXPECT_EQ(dist("lib.layers.Conv"), "noise2");
  EXPECT_EQ(m.lookup("lib.layers.Exact")->role, "call");
  EXPECT_EQ(dist("lib.layers"), "noise3");
  // Neither the prefix itself nor a name deeper than one level.
  EXPECT_EQ(dist("lib.layers.RandomFlip.apply"), "none");
  EXPECT_EQ(dist("lib.layers.Random"), "noise2");
  EXPECT_EQ(dist("lib."), "none");
  EXPECT_EQ(dist("lib"), "none");
  EXPECT_EQ(dist("other.layers.Conv"), "none");
}

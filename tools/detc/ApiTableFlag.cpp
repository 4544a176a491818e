//===- ApiTableFlag.cpp - --api-table: extra API model tables -------------===//

#include "ApiTableFlag.h"

#include "detc/base/FileIO.h"

#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace detc::tool {

ApiTableFlag::ApiTableFlag(cl::SubCommand &sub, cl::OptionCategory *category)
    : tables("api-table",
             cl::desc("Load an extra API model table (see "
                      "lib/frontend/Lowering/api/README.md; repeatable)"),
             cl::value_desc("file.api"), cl::sub(sub)) {
  if (category)
    tables.addCategory(*category);
}

std::optional<frontend::ApiModel>
ApiTableFlag::load(raw_ostream &errs) const {
  frontend::ApiModel model = frontend::ApiModel::getBuiltin();
  for (const std::string &path : tables) {
    Expected<std::string> buf = base::readInputFile(path);
    if (!buf) {
      WithColor::error(errs, "detc")
          << path << ": " << toString(buf.takeError()) << "\n";
      return std::nullopt;
    }
    std::string error;
    if (!model.addTable(path, *buf, error)) {
      errs << error << "\n";
      return std::nullopt;
    }
  }
  return model;
}

} // namespace detc::tool

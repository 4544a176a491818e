//===- ProfileFile.cpp - Reading a --detc-profile run's measurements ------===//

#include "ProfileFile.h"

#include "detc/base/BoundedJSON.h"
#include "detc/base/FileIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"

using namespace llvm;
using namespace detc::tool;

LineProfile ScriptProfile::range(unsigned first, unsigned last) const {
  LineProfile sum;
  for (auto it = lines.lower_bound(first);
       it != lines.end() && it->first <= last; ++it) {
    sum.seconds += it->second.seconds;
    sum.events += it->second.events;
  }
  return sum;
}

uint64_t ScriptProfile::events(unsigned line) const {
  auto it = lines.find(line);
  return it == lines.end() ? 0 : it->second.events;
}

std::optional<ScriptProfile>
detc::tool::readProfile(StringRef path, StringRef script, raw_ostream &errs) {
  auto fail = [&](const Twine &message) -> std::optional<ScriptProfile> {
    errs << path << ": error: " << message << "\n";
    return std::nullopt;
  };
  Expected<std::string> buffer = base::readInputFile(path);
  if (!buffer)
    return fail("cannot read the profile: " + toString(buffer.takeError()));
  Expected<json::Value> parsed = base::parseBoundedJSON(*buffer);
  if (!parsed)
    return fail(
        "not a detc profile (not JSON: " + toString(parsed.takeError()) + ")");
  json::Object *root = parsed->getAsObject();
  if (!root || root->getString("format") != "detc-profile")
    return fail("not a detc profile (no \"format\": \"detc-profile\")");
  if (root->getInteger("version") != 1)
    return fail("profile format version is not 1");
  std::string digest =
      toHex(SHA256::hash(arrayRefFromStringRef(script)), /*LowerCase=*/true);
  std::optional<StringRef> measuredOn = root->getString("script_sha256");
  if (!measuredOn || *measuredOn != digest)
    return fail("the profile was measured on another script (or another "
                "version of it): script hash " +
                (measuredOn ? measuredOn->take_front(16) : "none") +
                ", this script's " + StringRef(digest).take_front(16));
  ScriptProfile profile;
  auto lineOf = [](StringRef key) -> std::optional<unsigned> {
    unsigned line;
    if (key.getAsInteger(10, line) || line == 0)
      return std::nullopt;
    return line;
  };
  json::Object *lines = root->getObject("lines");
  json::Object *hints = root->getObject("hints");
  if (!lines || !hints)
    return fail("the profile has no \"lines\" or \"hints\"");
  for (auto &[key, value] : *lines) {
    json::Array *pair = value.getAsArray();
    std::optional<unsigned> line = lineOf(key);
    std::optional<double> seconds =
        pair && pair->size() == 2 ? (*pair)[0].getAsNumber() : std::nullopt;
    std::optional<int64_t> events =
        pair && pair->size() == 2 ? (*pair)[1].getAsInteger() : std::nullopt;
    if (!line || !seconds || !events || *seconds < 0 || *events < 0)
      return fail("malformed entry for line \"" + key.str() + "\"");
    profile.lines[*line] = {*seconds, uint64_t(*events)};
  }
  for (auto &[key, value] : *hints) {
    json::Object *h = value.getAsObject();
    std::optional<unsigned> line = lineOf(key);
    std::optional<double> seconds =
        h ? h->getNumber("checkpoint_seconds") : std::nullopt;
    if (!line || !seconds || *seconds < 0)
      return fail("malformed entry for hint \"" + key.str() + "\"");
    profile.checkpointSeconds[*line] = *seconds;
  }
  return profile;
}

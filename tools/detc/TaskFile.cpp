//===- TaskFile.cpp - The task files `detc schedule` reads ----------------===//

#include "TaskFile.h"

#include "detc/base/BoundedJSON.h"
#include "detc/base/FileIO.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/WithColor.h"

#include <cmath>

using namespace llvm;
using namespace detc;

static void error(StringRef path, const Twine &where, const Twine &message) {
  errs() << path << where << ": ";
  WithColor::error(errs(), "", /*DisableColors=*/true) << message << "\n";
}

/// A JSON syntax error, at its line and column.
static void syntaxError(StringRef path, Error e) {
  std::string text = toString(std::move(e)); // "[L:C, byte=O]: message"
  SmallVector<StringRef, 4> m;
  if (Regex("^\\[([0-9]+):([0-9]+), byte=[0-9]+\\]: (.*)$").match(text, &m)) {
    error(path, ":" + m[1] + ":" + m[2], m[3]);
    return;
  }
  error(path, "", text);
}

/// A finite number ≥ 0 (`what` names it in messages).
static bool readSeconds(StringRef path, const json::Value &v, const Twine &what,
                        double &out) {
  std::optional<double> d = v.getAsNumber();
  if (!d || !std::isfinite(*d) || *d < 0) {
    error(path, "", what + ": expected a number of seconds >= 0");
    return false;
  }
  out = *d;
  return true;
}

/// The items of a "program" (or a loop's "body") at `where`.
static bool readProgram(StringRef path, const json::Array &items,
                        const std::string &where,
                        std::vector<analysis::ProgramItem> &out) {
  using Kind = analysis::ProgramItem::Kind;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string at = where + "[" + std::to_string(i) + "]";
    analysis::ProgramItem item;
    const json::Object *o = items[i].getAsObject();
    if (!o) {
      if (!readSeconds(path, items[i], at, item.seconds))
        return false;
    } else if (const json::Value *t = o->get("task")) {
      if (!readSeconds(path, *t, at + ".task", item.seconds))
        return false;
    } else if (std::optional<StringRef> h = o->getString("hint")) {
      item.kind = Kind::Hint;
      item.name = h->str();
      if (const json::Value *c = o->get("checkpoint_seconds"))
        if (!readSeconds(path, *c, at + ".checkpoint_seconds",
                         item.checkpointSeconds))
          return false;
    } else if (const json::Value *count = o->get("loop")) {
      std::optional<int64_t> n = count->getAsInteger();
      if (!n || *n < 0) {
        error(path, "",
              at + ".loop: expected a whole number of iterations in [0, " +
                  "2^63 - 1]");
        return false;
      }
      const json::Array *body = o->getArray("body");
      if (!body) {
        error(path, "", at + ": a loop needs a \"body\" array");
        return false;
      }
      item.kind = Kind::Loop;
      item.iterations = uint64_t(*n);
      if (!readProgram(path, *body, at + ".body", item.body))
        return false;
    } else {
      error(path, "",
            at + ": expected a number, {\"task\": seconds}, "
                 "{\"hint\": name} or {\"loop\": N, \"body\": "
                 "[...]}");
      return false;
    }
    out.push_back(std::move(item));
  }
  return true;
}

std::optional<tool::TaskFile> tool::readTaskFile(StringRef path) {
  Expected<std::string> buffer = base::readInputFile(path);
  if (!buffer) {
    error(path, "", "cannot read the task file: " + toString(buffer.takeError()));
    return std::nullopt;
  }
  StringRef start = StringRef(*buffer).ltrim(" \t\r\n");
  if (!start.starts_with("{")) {
    error(path, "",
          "not a task file: expected a JSON object with a \"tasks\" or a "
          "\"program\" array (is this a Python script? detc analyze "
          "--overhead schedules a script's hints)");
    return std::nullopt;
  }
  Expected<json::Value> parsed = base::parseBoundedJSON(*buffer);
  if (!parsed) {
    syntaxError(path, parsed.takeError());
    return std::nullopt;
  }
  const json::Object *root = parsed->getAsObject();
  if (!root) {
    error(path, "",
          "expected a JSON object with a \"tasks\" or a "
          "\"program\" array");
    return std::nullopt;
  }
  TaskFile file;
  const json::Array *tasks = root->getArray("tasks");
  const json::Array *program = root->getArray("program");
  if (!tasks && !program) {
    error(path, "", "expected a \"tasks\" or a \"program\" array");
    return std::nullopt;
  }
  if (tasks && program) {
    error(path, "",
          "both \"tasks\" and \"program\" are given; a task file has one "
          "(a task list, or a program with loops)");
    return std::nullopt;
  }
  static const json::Array none;
  if (program) {
    file.program = std::make_unique<analysis::LoopProgram>();
    if (!readProgram(path, *program, "program", file.program->body))
      return std::nullopt;
    tasks = &none;
  }
  file.problem.taskSeconds.reserve(tasks->size());
  bool named = false;
  for (size_t i = 0; i < tasks->size(); ++i) {
    const json::Value &task = (*tasks)[i];
    std::string where = "tasks[" + std::to_string(i) + "]";
    double seconds;
    std::string name;
    if (const json::Object *o = task.getAsObject()) {
      const json::Value *s = o->get("seconds");
      if (!s) {
        error(path, "", where + ": expected \"seconds\"");
        return std::nullopt;
      }
      if (!readSeconds(path, *s, where + ".seconds", seconds))
        return std::nullopt;
      if (std::optional<StringRef> n = o->getString("name")) {
        name = n->str();
        named = true;
      }
      if (const json::Value *c = o->get("checkpoint_seconds")) {
        double cost;
        if (!readSeconds(path, *c, where + ".checkpoint_seconds", cost))
          return std::nullopt;
        file.hintOverrides.resize(i + 1, NAN);
        file.hintOverrides[i] = cost;
      }
    } else if (!readSeconds(path, task, where, seconds)) {
      return std::nullopt;
    }
    file.problem.taskSeconds.push_back(seconds);
    file.names.push_back(std::move(name));
  }
  if (!named)
    file.names.clear();
  if (!file.hintOverrides.empty())
    file.hintOverrides.resize(tasks->size() ? tasks->size() - 1 : 0, NAN);
  auto parameter = [&](StringRef key, double &out, bool &has, double max) {
    const json::Value *v = root->get(key);
    if (!v)
      return true;
    std::optional<double> d = v->getAsNumber();
    if (!d || !std::isfinite(*d) || *d < 0 || *d > max) {
      error(path, "",
            "\"" + key + "\": expected a number in [0, " +
                (std::isinf(max) ? "inf" : std::to_string(max)) + "]");
      return false;
    }
    out = *d;
    has = true;
    return true;
  };
  if (!parameter("checkpoint_seconds", file.problem.checkpointSeconds,
                 file.hasCheckpointSeconds, INFINITY) ||
      !parameter("allowance", file.problem.allowance, file.hasAllowance,
                 INFINITY) ||
      !parameter("failure_rate", file.problem.failureRate, file.hasFailureRate,
                 1))
    return std::nullopt;
  return file;
}

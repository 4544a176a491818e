//===- FactSet.cpp - Sets of interned lowering facts ----------------------===//

#include "FactSet.h"

#include <algorithm>
#include <cassert>

using namespace detc::frontend;

static thread_local FactPool *currentPool = nullptr;

const std::string *FactPool::intern(llvm::StringRef s) {
  auto it = index.find_as(s);
  if (it != index.end())
    return *it;
  const std::string *stored = &strings.emplace_back(s.str());
  index.insert(stored);
  return stored;
}

FactPool &FactPool::current() {
  assert(currentPool && "a FactSet grew with no FactPool active");
  return *currentPool;
}

FactPool::Activation::Activation(FactPool &pool) : saved(currentPool) {
  currentPool = &pool;
}

FactPool::Activation::~Activation() { currentPool = saved; }

FactSet::FactSet(std::initializer_list<std::string> facts) {
  for (const std::string &f : facts)
    insert(llvm::StringRef(f));
}

FactSet::Items::iterator FactSet::lowerBound(llvm::StringRef fact) {
  return std::lower_bound(
      items.begin(), items.end(), fact,
      [](const std::string *a, llvm::StringRef b) { return llvm::StringRef(*a) < b; });
}

FactSet::Items::const_iterator FactSet::lowerBound(llvm::StringRef fact) const {
  return const_cast<FactSet *>(this)->lowerBound(fact);
}

std::pair<FactSet::iterator, bool> FactSet::insert(llvm::StringRef fact) {
  auto at = lowerBound(fact);
  if (at != items.end() && llvm::StringRef(**at) == fact)
    return {iterator(at), false};
  at = items.insert(at, FactPool::current().intern(fact));
  return {iterator(at), true};
}

void FactSet::insert(iterator first, iterator last) {
  auto from = first.raw(), to = last.raw();
  if (from == to)
    return;
  if (items.empty()) {
    items.assign(from, to);
    return;
  }
  // Both sides are sorted: one merge, no interning (the pointers are the
  // pool's already).
  Items merged;
  merged.reserve(items.size() + (to - from));
  auto less = [](const std::string *a, const std::string *b) {
    return a != b && *a < *b;
  };
  std::set_union(items.begin(), items.end(), from, to,
                 std::back_inserter(merged), less);
  items = std::move(merged);
}

bool FactSet::contains(llvm::StringRef fact) const {
  auto at = lowerBound(fact);
  return at != items.end() && llvm::StringRef(**at) == fact;
}

size_t FactSet::erase(llvm::StringRef fact) {
  auto at = lowerBound(fact);
  if (at == items.end() || llvm::StringRef(**at) != fact)
    return 0;
  items.erase(at);
  return 1;
}

//===- Solver.cpp - Inclusion constraints solved to a fixpoint ------------===//

#include "Solver.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace detc::frontend::pta;

Node Solver::newNode() {
  pts.emplace_back();
  succ.emplace_back();
  objectHandlers.emplace_back();
  queued.push_back(false);
  return Node(nodeCount++);
}

void Solver::PtsSet::push_back(Obj obj) {
  if (count < kInline) {
    inlineItems[count++] = obj;
    return;
  }
  if (count == kInline) {
    auto *grown = static_cast<Obj *>(std::malloc(2 * kInline * sizeof(Obj)));
    if (!grown)
      llvm::report_bad_alloc_error("points-to set");
    std::copy(inlineItems, inlineItems + kInline, grown);
    heap = grown;
  } else if (llvm::isPowerOf2_32(count)) {
    auto *grown =
        static_cast<Obj *>(std::realloc(heap, 2 * size_t(count) * sizeof(Obj)));
    if (!grown)
      llvm::report_bad_alloc_error("points-to set");
    heap = grown;
  }
  heap[count++] = obj;
}

template <typename T>
void Solver::append(std::deque<Link<T>> &pool, List &list, T value) {
  unsigned at = pool.size();
  if (list.last == kNil) {
    pool.push_back({std::move(value), at});
  } else {
    pool.push_back({std::move(value), pool[list.last].next});
    pool[list.last].next = at;
  }
  list.last = at;
}

template <typename T, typename F>
void Solver::forEach(const std::deque<Link<T>> &pool, const List &list,
                     F visit) {
  if (list.last == kNil)
    return;
  for (unsigned at = pool[list.last].next;; at = pool[at].next) {
    visit(pool[at]);
    if (at == list.last)
      return;
  }
}

void Solver::enqueue(Node node) {
  if (!queued[node]) {
    queued[node] = true;
    worklist.push_back(node);
  }
}

bool Solver::insert(Node node, Obj obj) {
  PtsSet &items = pts[node];
  if (items.size() < kIndexAt) {
    if (std::find(items.begin(), items.end(), obj) != items.end())
      return false;
    items.push_back(obj);
    ++members;
    if (items.size() == kIndexAt) {
      Words &words = index[node];
      for (Obj o : items)
        words[o / 64] |= uint64_t(1) << (o % 64);
    }
    return true;
  }
  uint64_t &word = index[node][obj / 64], bit = uint64_t(1) << (obj % 64);
  if (word & bit)
    return false;
  word |= bit;
  items.push_back(obj);
  ++members;
  return true;
}

void Solver::group(llvm::ArrayRef<Obj> objs, Batch &batch) {
  batch.objs = objs;
  batch.words.clear();
  batch.slot.clear();
  for (Obj o : objs) {
    if (wordSlot.size() <= o / 64)
      wordSlot.resize(o / 64 + 1, ~0u);
    unsigned &slot = wordSlot[o / 64];
    if (slot == ~0u) {
      slot = batch.words.size();
      batch.words.push_back({o / 64, 0});
    }
    batch.words[slot].second |= uint64_t(1) << (o % 64);
    batch.slot.push_back(slot);
  }
  for (const auto &word : batch.words)
    wordSlot[word.first] = ~0u;
}

bool Solver::insertAll(Node node, const Batch &batch) {
  PtsSet &items = pts[node];
  bool grew = false;
  // Until the set has its index, an object at a time (insert() makes it).
  size_t i = 0, e = batch.objs.size();
  for (; i < e && items.size() < kIndexAt; ++i)
    grew |= insert(node, batch.objs[i]);
  if (i == e)
    return grew;
  Words &words = index[node];
  added.resize(batch.words.size());
  bool any = false;
  for (size_t k = 0, n = batch.words.size(); k < n; ++k) {
    uint64_t &word = words[batch.words[k].first];
    added[k] = batch.words[k].second & ~word;
    word |= added[k];
    any |= added[k] != 0;
  }
  if (!any)
    return grew;
  // The new objects, in the batch's order (the objects before `i` are
  // members already: no bit of theirs is in `added`).
  for (; i < e; ++i) {
    Obj o = batch.objs[i];
    if (added[batch.slot[i]] & (uint64_t(1) << (o % 64))) {
      items.push_back(o);
      ++members;
    }
  }
  return true;
}

void Solver::addObject(Node node, Obj obj) {
  if (insert(node, obj))
    enqueue(node);
}

void Solver::addCopy(Node from, Node to) {
  if (from == to || !edges.insert((uint64_t(from) << 32) | to).second)
    return;
  append(edgePool, succ[from], to);
  ++copyEdges;
  countSource();
  // What `from` already passed on must reach `to` too (`from` != `to`:
  // growing `to` leaves `from`'s objects where they are).
  bool grew = false;
  llvm::ArrayRef<Obj> passed(pts[from].begin(), pts[from].done);
  if (passed.size() < kBatchAt) {
    for (Obj o : passed)
      grew |= insert(to, o);
  } else {
    Batch batch;
    group(passed, batch);
    grew = insertAll(to, batch);
  }
  if (grew)
    enqueue(to);
}

void Solver::onObject(Node node, std::function<void(Obj)> handler) {
  ++handlers;
  countSource();
  append(handlerPool, objectHandlers[node],
         Handler{std::move(handler), source});
  const std::function<void(Obj)> &added =
      handlerPool[objectHandlers[node].last].value.run;
  // Objects already processed at `node` do not come again: apply them now
  // (by index: the handler may grow this very set).
  for (unsigned i = 0, e = pts[node].done; i < e; ++i)
    added(pts[node][i]);
}

void Solver::countSource() {
  if (!profile)
    return;
  if (bySource.size() <= source)
    bySource.resize(source + 1);
  ++bySource[source];
}

FieldId Solver::fieldId(llvm::StringRef name) {
  auto [it, inserted] = fieldIds.try_emplace(name, FieldId(fieldNames.size()));
  if (inserted)
    fieldNames.push_back(it->getKey());
  return it->second;
}

void Solver::ensureObject(Obj obj) {
  if (objectFields.size() <= obj) {
    objectFields.resize(obj + 1);
    fieldHandlers.resize(obj + 1);
  }
}

Node Solver::findField(Obj obj, FieldId field) const {
  if (!fieldStart.empty()) {
    llvm::ArrayRef<std::pair<FieldId, Node>> own = frozenFieldsOf(obj);
    auto it = llvm::partition_point(
        own, [&](const std::pair<FieldId, Node> &f) { return f.first < field; });
    return it != own.end() && it->first == field ? it->second : ~0u;
  }
  auto it = fields.find({obj, field});
  return it == fields.end() ? ~0u : it->second;
}

Node Solver::fieldNode(Obj obj, FieldId field) {
  auto it = fields.find({obj, field});
  if (it != fields.end())
    return it->second;
  Node n = newNode();
  fields[{obj, field}] = n;
  ensureObject(obj);
  objectFields[obj].push_back(field);
  // Handlers may add fields to this object: iterate by index.
  for (size_t i = 0; i < fieldHandlers[obj].size(); ++i) {
    auto handler = fieldHandlers[obj][i];
    handler(field);
  }
  return n;
}

void Solver::onField(Obj obj, std::function<void(FieldId)> handler) {
  ensureObject(obj);
  ++handlers;
  countSource();
  fieldHandlers[obj].push_back(handler);
  std::vector<FieldId> existing = objectFields[obj];
  for (FieldId f : existing)
    handler(f);
}

std::vector<FieldId> Solver::fieldsOf(Obj obj) const {
  if (!fieldStart.empty()) {
    std::vector<FieldId> out;
    for (const auto &f : frozenFieldsOf(obj))
      out.push_back(f.first);
    return out;
  }
  return obj < objectFields.size() ? objectFields[obj]
                                   : std::vector<FieldId>();
}

void Solver::solve() {
  while (!worklist.empty()) {
    if (copyEdges + handlers > constraintLimit || members > memberLimit) {
      truncated = true;
      return;
    }
    Node n = worklist.front();
    worklist.pop_front();
    queued[n] = false;
    ++visits;
    // The objects that arrived since `n` was last processed (a copy:
    // handlers and self-loops may grow the set meanwhile; what they add
    // re-queues `n`).
    unsigned from = pts[n].done, to = pts[n].size();
    if (from == to)
      continue;
    pts[n].done = to;
    llvm::SmallVector<Obj, 4> delta(pts[n].begin() + from,
                                    pts[n].begin() + to);
    // Handlers may add handlers and edges to this node: the lists are
    // followed to their current end.
    forEach(handlerPool, objectHandlers[n],
            [&](const Link<Handler> &h) {
              unsigned outer = source;
              source = h.value.source;
              for (Obj o : delta)
                h.value.run(o);
              source = outer;
            });
    Batch batch;
    bool batched = delta.size() >= kBatchAt;
    if (batched)
      group(delta, batch);
    forEach(edgePool, succ[n], [&](const Link<Node> &e) {
      bool grew = false;
      if (batched) {
        grew = insertAll(e.value, batch);
      } else {
        for (Obj o : delta)
          grew |= insert(e.value, o);
      }
      if (grew)
        enqueue(e.value);
    });
  }
}

/// Frees `c`'s storage: clear() keeps it, and so does `c = {}` on a
/// vector (that assigns from an empty initializer list).
template <typename Container> static void release(Container &c) {
  Container().swap(c);
}

void Solver::releaseConstraints() {
  release(index);
  release(succ);
  release(edgePool);
  release(edges);
  release(objectHandlers);
  release(handlerPool);
  release(fieldHandlers);
  release(worklist);
  size_t many = 0;
  for (const PtsSet &set : pts)
    if (set.size() > 1)
      many += 1 + set.size();
  if (many >= kMany || pts.size() >= kMany)
    llvm::report_fatal_error("points-to solution too large to pack");
  solved.reserve(pts.size());
  solvedMany.reserve(many);
  for (const PtsSet &set : pts) {
    if (set.size() == 0) {
      solved.push_back(kNoObject);
    } else if (set.size() == 1 && !(set[0] & kMany)) {
      solved.push_back(set[0]);
    } else {
      solved.push_back(kMany | unsigned(solvedMany.size()));
      solvedMany.push_back(set.size());
      solvedMany.insert(solvedMany.end(), set.begin(), set.end());
    }
  }
  release(pts);
  release(queued);

  fieldStart.reserve(objectFields.size() + 1);
  frozenFields.reserve(fields.size());
  for (Obj o = 0; o < objectFields.size(); ++o) {
    fieldStart.push_back(frozenFields.size());
    for (FieldId f : objectFields[o])
      frozenFields.push_back({f, fields.find({o, f})->second});
    std::sort(frozenFields.begin() + fieldStart.back(), frozenFields.end());
  }
  fieldStart.push_back(frozenFields.size());
  release(fields);
  release(objectFields);
}

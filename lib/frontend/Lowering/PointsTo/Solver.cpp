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
    if (items.size() == kIndexAt)
      index[node].insert(items.begin(), items.end());
    return true;
  }
  if (!index[node].insert(obj).second)
    return false;
  items.push_back(obj);
  ++members;
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
  // What `from` already passed on must reach `to` too (by index: `to` may
  // be `from`'s set's neighbour in `pts`, which insert() may grow).
  bool grew = false;
  for (unsigned i = 0, e = pts[from].done; i < e; ++i)
    grew |= insert(to, pts[from][i]);
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

void Solver::solve(size_t limit, size_t memberLimit) {
  while (!worklist.empty()) {
    if (copyEdges + handlers > limit || members > memberLimit) {
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
    forEach(edgePool, succ[n], [&](const Link<Node> &e) {
      bool grew = false;
      for (Obj o : delta)
        grew |= insert(e.value, o);
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

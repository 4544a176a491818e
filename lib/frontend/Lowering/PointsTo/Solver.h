//===- Solver.h - Inclusion constraints solved to a fixpoint ----*- C++ -*-===//
//
// The points-to solver knows nothing of Python: nodes hold sets of object
// ids; copy edges say "to ⊇ from"; handlers run once for every object that
// reaches a node (how loads, stores and calls add constraints while the
// solution grows); fields are nodes of their own, created on demand per
// (object, field name), with handlers that run once per field of an
// object. Sets are sparse bit vectors; a worklist propagates only what is
// new at each node (difference propagation).
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_LOWERING_POINTSTO_SOLVER_H
#define DETC_LIB_FRONTEND_LOWERING_POINTSTO_SOLVER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <cstdlib>
#include <deque>
#include <functional>
#include <string>
#include <vector>

namespace detc::frontend::pta {

using Node = unsigned;
using Obj = unsigned;
using FieldId = unsigned;

class Solver {
public:
  Node newNode();
  size_t numNodes() const { return nodeCount; }

  /// `node` ⊇ {obj}.
  void addObject(Node node, Obj obj);
  /// `to` ⊇ `from`.
  void addCopy(Node from, Node to);
  /// Runs `handler(obj)` for every object that reaches `node`, now or later.
  void onObject(Node node, std::function<void(Obj)> handler);

  FieldId fieldId(llvm::StringRef name);
  /// The id of a field name some object has had, else ~0u (adds nothing).
  FieldId findFieldId(llvm::StringRef name) const {
    auto it = fieldIds.find(name);
    return it == fieldIds.end() ? ~0u : it->second;
  }
  llvm::StringRef fieldName(FieldId id) const { return fieldNames[id]; }
  /// The node of field `field` of `obj` (created on first use).
  Node fieldNode(Obj obj, FieldId field);
  /// The node of `obj`'s field if it exists, else ~0u.
  Node findField(Obj obj, FieldId field) const;
  /// Runs `handler(field)` for every field `obj` has, now or later.
  void onField(Obj obj, std::function<void(FieldId)> handler);
  /// The fields `obj` has (in creation order while solving; by id once
  /// released).
  std::vector<FieldId> fieldsOf(Obj obj) const;

  /// The objects `node` may hold, in the order they reached it.
  llvm::ArrayRef<Obj> pointsTo(Node node) const {
    if (solved.empty())
      return llvm::ArrayRef<Obj>(pts[node].begin(), pts[node].end());
    const unsigned &v = solved[node];
    if (v == kNoObject)
      return {};
    if (!(v & kMany))
      return llvm::ArrayRef<Obj>(&v, 1);
    const unsigned *many = &solvedMany[v & ~kMany];
    return llvm::ArrayRef<Obj>(many + 1, *many);
  }

  /// Propagates until nothing changes, or until the constraint graph has
  /// grown past `constraintLimit` edges and handlers, or the sets past
  /// `memberLimit` members in all (then `truncated` is set and the
  /// solution is incomplete).
  void solve();

  /// Frees what only solving needs (copy edges, handlers, the worklist and
  /// the sets' membership indexes) and packs the solution into two arrays
  /// (most sets hold zero or one object: 4 bytes a node instead of the ~40
  /// a growable set costs), the fields into two more (8 bytes a field
  /// where the hashed map and a vector per object took ~40); the solution
  /// stays queryable. Nothing may be added afterwards.
  void releaseConstraints();

  static constexpr size_t kDefaultLimit = 50000000;
  /// The sets' members, all nodes together: what the solution's memory
  /// grows with (4 bytes a member, and a large set's index: 16 bytes a
  /// word of 64 objects; ~15 bytes a member in all on yolov7). Few edges may carry large sets everywhere (a library's objects
  /// merged into one blob by code detc models coarsely: accelerate's
  /// examples reached 24 GB before their edges reached the limit above;
  /// yolov7's `eval` of every layer name, called with every name, grows
  /// past 100M members). timm's train.py holds 0.24M; yolov7 reaches this
  /// limit in ~4 s and 0.4 GB (`--points-to-limit` moves it).
  static constexpr size_t kDefaultMemberLimit = 20000000;
  size_t constraintLimit = kDefaultLimit, memberLimit = kDefaultMemberLimit;
  size_t copyEdges = 0, handlers = 0, visits = 0, members = 0;
  bool truncated = false;

  /// Where constraints come from (`--points-to-stats`): the caller's id of
  /// what it is building (a statement); a handler carries the id current
  /// when it was registered, and is current again while it runs. With
  /// `profile` set, `bySource[id]` counts the copy edges and handlers each
  /// source added.
  bool profile = false;
  unsigned source = 0;
  std::vector<size_t> bySource;

private:
  void enqueue(Node node);
  void ensureObject(Obj obj);
  /// Adds `obj` to `node`'s set; true when it is new.
  bool insert(Node node, Obj obj);

  /// Objects grouped 64 to a word (id / 64), to be passed on a word at a
  /// time: `words` the distinct words and their bits, `slot[i]` the word of
  /// `objs[i]`.
  struct Batch {
    llvm::ArrayRef<Obj> objs;
    llvm::SmallVector<std::pair<unsigned, uint64_t>, 8> words;
    llvm::SmallVector<unsigned, 16> slot;
  };
  /// Groups `objs` (distinct) into `batch`.
  void group(llvm::ArrayRef<Obj> objs, Batch &batch);
  /// Adds `batch`'s objects to `node`'s set, in their order; true when any
  /// is new. Once the set is indexed this costs a lookup per word, not per
  /// object: a blob of thousands of objects (everything `eval` of a
  /// computed name may be, called with everything) crosses millions of
  /// edges where nearly every object is already there.
  bool insertAll(Node node, const Batch &batch);
  /// Lists shorter than this are passed on an object at a time.
  static constexpr size_t kBatchAt = 8;

  /// A points-to set, append-only: most hold one or two objects, so they
  /// live inline; `done` is how many have been passed on (difference
  /// propagation). Sets past kIndexAt objects get an index (Words).
  class PtsSet {
  public:
    PtsSet() = default;
    PtsSet(const PtsSet &) = delete;
    PtsSet &operator=(const PtsSet &) = delete;
    ~PtsSet() {
      if (count > kInline)
        std::free(heap);
    }
    const Obj *begin() const { return count > kInline ? heap : inlineItems; }
    const Obj *end() const { return begin() + count; }
    unsigned size() const { return count; }
    Obj operator[](unsigned i) const { return begin()[i]; }
    void push_back(Obj obj);

    unsigned done = 0; ///< How many have been passed on.

  private:
    /// Up to kInline objects inline; past that a heap array whose capacity
    /// is the next power of two of the count (16 bytes a set where a
    /// SmallVector took 32: there is a set per node).
    static constexpr unsigned kInline = 2;
    unsigned count = 0;
    union {
      Obj inlineItems[kInline];
      Obj *heap;
    };
  };
  static constexpr size_t kIndexAt = 16;
  /// A set's membership past kIndexAt objects: its objects' bits, 64 to a
  /// word, by id / 64.
  using Words = llvm::DenseMap<unsigned, uint64_t>;
  /// A deque: it grows without a doubling vector's second copy.
  std::deque<PtsSet> pts;
  size_t nodeCount = 0;
  /// Once released, per node: kNoObject for an empty set, the object
  /// itself for a set of one (most of them), else kMany | i where
  /// solvedMany[i] is the count and its objects follow.
  std::vector<unsigned> solved;
  std::vector<Obj> solvedMany;
  static constexpr unsigned kNoObject = ~0u, kMany = 1u << 31;
  llvm::DenseMap<Node, Words> index;
  /// Scratch of group(): a word's slot in the batch being grouped, ~0u
  /// for every word between calls.
  std::vector<unsigned> wordSlot;
  /// Scratch of insertAll(): per word of the batch, the bits it added.
  llvm::SmallVector<uint64_t, 8> added;

  /// A node's copy edges and handlers are circular lists threaded through
  /// pools, in the order they were added: a node holds the index of its
  /// last link, whose `next` is the first (most nodes have no handler and
  /// at most one edge: 4 bytes a list instead of a vector's 24 and its
  /// allocation, or a head and a tail).
  static constexpr unsigned kNil = ~0u;
  struct List {
    unsigned last = kNil;
  };
  template <typename T> struct Link {
    T value;
    unsigned next;
  };
  /// Appends `value` to `list`, linked through `pool`.
  template <typename T>
  static void append(std::deque<Link<T>> &pool, List &list, T value);
  /// Calls `visit(link)` for each link of `list` in order, up to its end as
  /// it is when reached (visits may append).
  template <typename T, typename F>
  static void forEach(const std::deque<Link<T>> &pool, const List &list,
                      F visit);
  /// Deques, as `pts`: they grow by one a node.
  std::deque<List> succ, objectHandlers;
  std::deque<Link<Node>> edgePool;
  struct Handler {
    std::function<void(Obj)> run;
    unsigned source; ///< `source` when it was registered (fits the padding)
  };
  /// A deque: handlers run by reference while others are added.
  std::deque<Link<Handler>> handlerPool;
  void countSource();
  llvm::DenseSet<uint64_t> edges; ///< (from << 32 | to) of every copy edge
  std::vector<bool> queued;
  std::deque<Node> worklist;

  llvm::StringMap<FieldId> fieldIds;
  /// The keys of `fieldIds` (which never move: a name stays valid while
  /// the solver lives, whatever is added).
  std::vector<llvm::StringRef> fieldNames;
  llvm::DenseMap<std::pair<Obj, FieldId>, Node> fields;
  std::vector<std::vector<FieldId>> objectFields;
  /// Once released: object o's fields (id, node) are frozenFields[
  /// fieldStart[o] .. fieldStart[o + 1]), by id.
  std::vector<unsigned> fieldStart;
  std::vector<std::pair<FieldId, Node>> frozenFields;
  llvm::ArrayRef<std::pair<FieldId, Node>> frozenFieldsOf(Obj obj) const {
    if (obj + 1 >= fieldStart.size())
      return {};
    return llvm::ArrayRef<std::pair<FieldId, Node>>(frozenFields)
        .slice(fieldStart[obj], fieldStart[obj + 1] - fieldStart[obj]);
  }
  std::vector<std::vector<std::function<void(FieldId)>>> fieldHandlers;
};

} // namespace detc::frontend::pta

#endif // DETC_LIB_FRONTEND_LOWERING_POINTSTO_SOLVER_H

//===- FactSet.h - Sets of interned lowering facts --------------*- C++ -*-===//
//
// The lowering's facts (`obj:b12_4`, `inst:Net`, `func:helper`, see
// Lowerer.h) are a few thousand distinct strings held by millions of sets:
// every variable, dict entry, call and object has one. A set of
// `std::string` paid ~70 bytes an element; here each distinct fact is
// stored once, in the FactPool active on this thread (the lowering's), and
// a set is a sorted array of pointers to them, 8 bytes an element.
//
// A FactSet iterates in the strings' order (as the std::set it replaces
// did: the lowering's output depends on that order) and yields
// `const std::string &`.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_LIB_FRONTEND_LOWERING_FACTSET_H
#define DETC_LIB_FRONTEND_LOWERING_FACTSET_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/iterator.h"

#include <deque>
#include <initializer_list>
#include <string>

namespace detc::frontend {

/// The distinct fact strings of one lowering. Sets made while it is active
/// (see Activation) point into it, so it must outlive them.
class FactPool {
public:
  FactPool() = default;
  FactPool(const FactPool &) = delete;
  FactPool &operator=(const FactPool &) = delete;

  /// The pool's copy of `s`, added if new.
  const std::string *intern(llvm::StringRef s);

  /// The pool sets on this thread intern into.
  static FactPool &current();

  /// Makes `pool` the current pool of this thread while it lives.
  class Activation {
  public:
    explicit Activation(FactPool &pool);
    ~Activation();
    Activation(const Activation &) = delete;
    Activation &operator=(const Activation &) = delete;

  private:
    FactPool *saved;
  };

private:
  /// The stored strings hashed by their text, looked up by a StringRef:
  /// 8 bytes a bucket where a map from the text to the string took 24.
  struct ByText {
    static const std::string *getEmptyKey() {
      return reinterpret_cast<const std::string *>(~uintptr_t(0));
    }
    static const std::string *getTombstoneKey() {
      return reinterpret_cast<const std::string *>(~uintptr_t(1));
    }
    static unsigned getHashValue(llvm::StringRef s) {
      return static_cast<unsigned>(llvm::hash_value(s));
    }
    static unsigned getHashValue(const std::string *s) {
      return getHashValue(llvm::StringRef(*s));
    }
    static bool isEqual(const std::string *a, const std::string *b) {
      return a == b;
    }
    static bool isEqual(llvm::StringRef a, const std::string *b) {
      return b != getEmptyKey() && b != getTombstoneKey() && a == *b;
    }
  };
  std::deque<std::string> strings; ///< Stable addresses.
  llvm::DenseSet<const std::string *, ByText> index;
};

/// A set of facts, ordered by their text.
/// A string kept once in the current FactPool: 8 bytes where a std::string
/// took 32 and, past 15 characters, an allocation of its own. Empty when
/// unset; read as a StringRef or through str().
class PooledString {
public:
  PooledString() = default;
  PooledString(llvm::StringRef s) { assign(s); }
  PooledString(const std::string &s) { assign(s); }
  PooledString(const char *s) { assign(s); }
  PooledString &operator=(llvm::StringRef s) { return assign(s); }
  PooledString &operator=(const std::string &s) { return assign(s); }
  PooledString &operator=(const char *s) { return assign(s); }

  std::string str() const { return text ? *text : std::string(); }
  operator llvm::StringRef() const {
    return text ? llvm::StringRef(*text) : llvm::StringRef();
  }
  bool empty() const { return !text; }
  void clear() { text = nullptr; }

  friend bool operator==(const PooledString &a, llvm::StringRef b) {
    return llvm::StringRef(a) == b;
  }
  friend bool operator!=(const PooledString &a, llvm::StringRef b) {
    return llvm::StringRef(a) != b;
  }
  friend std::string operator+(const PooledString &a, llvm::StringRef b) {
    return llvm::StringRef(a).str() + b.str();
  }

private:
  PooledString &assign(llvm::StringRef s) {
    text = s.empty() ? nullptr : FactPool::current().intern(s);
    return *this;
  }
  const std::string *text = nullptr;
};

class FactSet {
  using Items = llvm::SmallVector<const std::string *, 0>;

public:
  using value_type = std::string;
  /// Yields `const std::string &`.
  class iterator
      : public llvm::iterator_adaptor_base<iterator, Items::const_iterator,
                                           std::random_access_iterator_tag,
                                           const std::string> {
  public:
    iterator() = default;
    explicit iterator(Items::const_iterator it)
        : iterator_adaptor_base(it) {}
    const std::string &operator*() const { return **this->I; }
    Items::const_iterator raw() const { return this->I; }
  };
  using const_iterator = iterator;

  FactSet() = default;
  FactSet(std::initializer_list<std::string> facts);

  iterator begin() const { return iterator(items.begin()); }
  iterator end() const { return iterator(items.end()); }
  bool empty() const { return items.empty(); }
  size_t size() const { return items.size(); }
  void clear() { items.clear(); }

  /// Adds `fact`; the bool is whether it was new.
  std::pair<iterator, bool> insert(llvm::StringRef fact);
  /// Adds the facts of [first, last) of another set.
  void insert(iterator first, iterator last);
  template <typename It> void insert(It first, It last) {
    for (; first != last; ++first)
      insert(llvm::StringRef(*first));
  }

  size_t count(llvm::StringRef fact) const { return contains(fact); }
  bool contains(llvm::StringRef fact) const;
  /// Removes `fact`; returns how many were removed (0 or 1).
  size_t erase(llvm::StringRef fact);

  // Facts are interned, so equal sets hold the same pointers.
  bool operator==(const FactSet &o) const { return items == o.items; }
  bool operator!=(const FactSet &o) const { return items != o.items; }

private:
  /// The first item not ordered before `fact`.
  Items::iterator lowerBound(llvm::StringRef fact);
  Items::const_iterator lowerBound(llvm::StringRef fact) const;

  Items items;
};

} // namespace detc::frontend

#endif // DETC_LIB_FRONTEND_LOWERING_FACTSET_H

//===- IdList.h - A list of 32-bit ids in 8 bytes ---------------*- C++ -*-===//
//
// The statement graph has a node per statement of every expansion (~150k
// for a 100k-line script) and five id lists a node (defs, updates, uses,
// saved, loops), most of them empty or with one id. A SmallVector<id, 2>
// is 24 bytes; an IdList is 8: no id, one id held inline, or a pointer to
// a heap block holding the size, the capacity and the ids.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_ANALYSIS_IDLIST_H
#define DETC_ANALYSIS_IDLIST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/SwapByteOrder.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace detc::analysis {

class IdList {
public:
  using value_type = unsigned;
  using iterator = const unsigned *;
  using const_iterator = iterator;

  IdList() = default;
  IdList(std::initializer_list<unsigned> ids) { assign(ids.begin(), ids.end()); }
  IdList(const IdList &o) { assign(o.begin(), o.end()); }
  IdList(IdList &&o) noexcept : word{o.word[0], o.word[1]} {
    o.word[0] = o.word[1] = 0;
  }
  IdList &operator=(const IdList &o) {
    if (this != &o)
      assign(o.begin(), o.end());
    return *this;
  }
  IdList &operator=(IdList &&o) noexcept {
    if (this != &o) {
      release();
      word[0] = o.word[0];
      word[1] = o.word[1];
      o.word[0] = o.word[1] = 0;
    }
    return *this;
  }
  IdList &operator=(llvm::ArrayRef<unsigned> ids) {
    assign(ids.begin(), ids.end());
    return *this;
  }
  ~IdList() { release(); }

  const unsigned *begin() const {
    if (isInline())
      return &word[1];
    Block *b = block();
    return b ? b->items : nullptr;
  }
  const unsigned *end() const { return begin() + size(); }
  unsigned size() const {
    if (isInline())
      return 1;
    Block *b = block();
    return b ? b->size : 0;
  }
  bool empty() const { return size() == 0; }
  unsigned operator[](unsigned i) const { return begin()[i]; }
  unsigned front() const { return *begin(); }
  unsigned back() const { return end()[-1]; }
  operator llvm::ArrayRef<unsigned>() const {
    return llvm::ArrayRef<unsigned>(begin(), size());
  }

  void clear() {
    release();
    word[0] = word[1] = 0;
  }
  void push_back(unsigned id) {
    if (!isInline() && !block()) {
      word[0] = kInlineTag;
      word[1] = id;
      return;
    }
    Block *b;
    if (isInline()) {
      b = allocate(4);
      b->size = 1;
      b->items[0] = word[1];
      setBlock(b);
    } else {
      b = block();
      if (b->size == b->capacity) {
        b = static_cast<Block *>(
            std::realloc(b, sizeof(Block) + 2 * sizeof(unsigned) * b->capacity));
        if (!b)
          llvm::report_bad_alloc_error("IdList");
        b->capacity *= 2;
        setBlock(b);
      }
    }
    b->items[b->size++] = id;
  }
  template <typename It> void assign(It first, It last) {
    // `first` may point into this list: build the new one apart.
    IdList fresh;
    for (; first != last; ++first)
      fresh.push_back(*first);
    *this = std::move(fresh);
  }

private:
  struct Block {
    unsigned size, capacity;
    unsigned items[];
  };
  /// word[0] == kInlineTag: one id, in word[1]. Otherwise both words are a
  /// Block pointer (null: empty); a block is aligned, so its low word
  /// never equals the tag.
  static constexpr unsigned kInlineTag = 1;
  static_assert(llvm::sys::IsLittleEndianHost,
                "the pointer's low half must be word[0]");
  static_assert(sizeof(Block *) == 2 * sizeof(unsigned));

  bool isInline() const { return word[0] == kInlineTag; }
  Block *block() const {
    Block *b;
    std::memcpy(&b, word, sizeof(b));
    return b;
  }
  void setBlock(Block *b) { std::memcpy(word, &b, sizeof(b)); }
  static Block *allocate(unsigned capacity) {
    auto *b = static_cast<Block *>(
        std::malloc(sizeof(Block) + sizeof(unsigned) * capacity));
    if (!b)
      llvm::report_bad_alloc_error("IdList");
    b->size = 0;
    b->capacity = capacity;
    return b;
  }
  void release() {
    if (!isInline())
      std::free(block());
  }

  unsigned word[2] = {0, 0};
};

} // namespace detc::analysis

#endif // DETC_ANALYSIS_IDLIST_H

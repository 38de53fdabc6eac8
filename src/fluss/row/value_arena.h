// ValueArena: storage for the nested fluss::Values of one row while it is converted (from Python
// objects or Arrow arrays) and handed to a writer or lookuper, which encode it before returning.
//
// Thread affinity: none; one owner at a time.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "fluss/client.h"

namespace fluss::row {

class ValueArena {
 public:
  ValueArena() = default;
  // Scratch space: a copy starts empty (owners that are copied keep working).
  ValueArena(const ValueArena&) {}
  ValueArena& operator=(const ValueArena&) {
    Clear();
    return *this;
  }
  ValueArena(ValueArena&&) = default;
  ValueArena& operator=(ValueArena&&) = default;

  /// `n` null Values that stay where they are until Clear (later allocations never move them).
  Value* Allocate(size_t n);
  /// Forgets every allocation; the memory is kept for the next row.
  void Clear() {
    block_ = 0;
    used_ = 0;
  }

 private:
  static constexpr size_t kBlockValues = 256;
  struct Block {
    std::unique_ptr<Value[]> values;
    size_t size = 0;
  };
  std::vector<Block> blocks_;
  size_t block_ = 0;  // the block being filled
  size_t used_ = 0;   // Values used in it
};

inline Value* ValueArena::Allocate(size_t n) {
  if (n == 0) return nullptr;
  while (block_ < blocks_.size() && used_ + n > blocks_[block_].size) {
    ++block_;
    used_ = 0;
  }
  if (block_ == blocks_.size()) {
    const size_t size = n > kBlockValues ? n : kBlockValues;
    blocks_.push_back(Block{std::make_unique<Value[]>(size), size});
    used_ = 0;
  }
  Value* out = blocks_[block_].values.get() + used_;
  used_ += n;
  for (size_t k = 0; k < n; ++k) out[k] = Value::Null();
  return out;
}

}  // namespace fluss::row

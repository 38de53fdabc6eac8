// What a reader does with decoded rows, so the fuzz targets read every decoded value the way the
// scanners' callers do (poll turns each cell into a Value): a decoder that hands out arrays whose
// offsets or lengths point outside their buffers is caught here by the sanitizer.
#pragma once

#include <arrow/builder.h>
#include <arrow/record_batch.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "fluss/row/indexed_row.h"
#include "fluss/row/value_arena.h"

namespace fluss::fuzz {

/// A checksum over every byte `v` points at, nested values included.
inline size_t Touch(const Value& v) {
  size_t sum = static_cast<size_t>(v.kind);
  for (char c : v.s) sum = sum * 31 + static_cast<unsigned char>(c);
  const size_t n = v.kind == Value::Kind::kMap ? 2 * v.count : v.count;  // key, value per entry
  for (size_t i = 0; i < n; ++i) sum += Touch(v.items[i]);
  return sum;
}

/// Reads every cell of `rb` (null allowed); a sink keeps the reads from being optimised away.
inline void ConsumeBatch(const std::shared_ptr<arrow::RecordBatch>& rb) {
  if (!rb) return;
  row::ValueArena arena;
  std::vector<Value> values;
  volatile size_t sink = 0;
  for (int64_t r = 0; r < rb->num_rows(); ++r) {
    arena.Clear();
    if (!row::RowValuesFromArrow(*rb, r, &values, &arena).ok()) continue;
    for (const auto& v : values) sink = sink + Touch(v);
  }
}

/// One Arrow builder per field of a schema, for the row decoders to append to.
struct RowBuilders {
  explicit RowBuilders(std::shared_ptr<arrow::Schema> s) : schema(std::move(s)) {
    for (const auto& f : schema->fields()) {
      owned.push_back(arrow::MakeBuilder(f->type()).ValueOrDie());
      raw.push_back(owned.back().get());
    }
  }
  /// A decoder appends a whole row or nothing: every builder has the same length. A partial row
  /// would shift the columns against each other, so it is a finding (trap).
  void CheckAligned() const {
    for (const auto* b : raw)
      if (b->length() != raw.front()->length()) {
        std::fprintf(stderr, "a decoder appended part of a row\n");
        __builtin_trap();
      }
  }
  /// The rows appended so far, read back in full.
  void FinishAndConsume() {
    CheckAligned();
    std::vector<std::shared_ptr<arrow::Array>> arrays;
    for (auto& b : owned) arrays.push_back(b->Finish().ValueOrDie());
    const int64_t n = arrays.empty() ? 0 : arrays[0]->length();
    auto rb = arrow::RecordBatch::Make(schema, n, arrays);
    const auto valid = rb->ValidateFull();
    if (!valid.ok()) {  // a decoder built an invalid array
      std::fprintf(stderr, "invalid decoded batch: %s\n", valid.ToString().c_str());
      __builtin_trap();
    }
    ConsumeBatch(rb);
  }
  std::shared_ptr<arrow::Schema> schema;
  std::vector<std::unique_ptr<arrow::ArrayBuilder>> owned;
  std::vector<arrow::ArrayBuilder*> raw;
};

}  // namespace fluss::fuzz

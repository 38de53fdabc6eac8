#include "fluss/record/batch_validation.h"

#include <cstdint>
#include <cstring>

#include <arrow/array.h>
#include <arrow/type.h>

namespace fluss::record {

namespace {

/// True when none of the `n` bytes at `p` has its high bit set (so they are valid UTF-8 however
/// the offsets cut them: an ASCII byte is a whole character).
bool AllAscii(const uint8_t* p, int64_t n) {
  uint64_t high = 0;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {  // four independent words per step: vectorised by the compiler
    uint64_t w[4];
    std::memcpy(w, p + i, sizeof(w));
    high |= w[0] | w[1] | w[2] | w[3];
  }
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, sizeof(w));
    high |= w;
  }
  uint8_t tail = 0;
  for (; i < n; ++i) tail |= p[i];
  return ((high & 0x8080808080808080ULL) | (tail & 0x80)) == 0;
}

/// `a` relabelled as the binary type of the same layout (no copy).
std::shared_ptr<arrow::Array> AsBinary(const arrow::Array& a) {
  auto data = a.data()->Copy();
  data->type = a.type_id() == arrow::Type::LARGE_STRING ? arrow::large_binary() : arrow::binary();
  return arrow::MakeArray(data);
}

/// The bytes the values of string array `a` span: from the first offset to the last.
template <typename StringArray>
bool SpannedBytesAscii(const StringArray& a) {
  if (a.length() == 0) return true;
  const auto first = a.value_offset(0);
  const auto last = a.value_offset(a.length());
  return AllAscii(a.value_data()->data() + first, static_cast<int64_t>(last - first));
}

arrow::Status ValidateStringColumn(const arrow::Array& column) {
  ARROW_RETURN_NOT_OK(AsBinary(column)->ValidateFull());  // offsets and sizes, now known sound
  const bool ascii = column.type_id() == arrow::Type::LARGE_STRING
                         ? SpannedBytesAscii(static_cast<const arrow::LargeStringArray&>(column))
                         : SpannedBytesAscii(static_cast<const arrow::StringArray&>(column));
  return ascii ? arrow::Status::OK() : column.ValidateFull();  // Arrow's verdict and message
}

}  // namespace

arrow::Status ValidateBatchFull(const arrow::RecordBatch& batch) {
  // Validate() checks the batch against its schema (column count, types, lengths) and each
  // column's structure; the per-column full checks below complete what ValidateFull adds.
  ARROW_RETURN_NOT_OK(batch.Validate());
  for (int i = 0; i < batch.num_columns(); ++i) {
    const auto& column = *batch.column(i);
    const auto id = column.type_id();
    arrow::Status st = id == arrow::Type::STRING || id == arrow::Type::LARGE_STRING ? ValidateStringColumn(column)
                                                                                    : column.ValidateFull();
    if (!st.ok()) return st.WithMessage("Column ", i, ": ", st.message());
  }
  return arrow::Status::OK();
}

}  // namespace fluss::record

// Builds an Arrow record batch from rows of Values (see fluss::Value), one Arrow builder per
// column, with the per-column append function chosen once at construction from the column's
// Fluss type (the one Arrow -> Fluss map, row/data_type.h).
//
// Thread affinity: none; the owner serialises access.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <arrow/builder.h>
#include <arrow/type_fwd.h>

#include "fluss/client.h"
#include "fluss/row/data_type.h"

namespace fluss::write {

class RowBatchBuilder {
 public:
  explicit RowBatchBuilder(std::shared_ptr<arrow::Schema> schema);

  /// Appends a row that passed RowValidator::Check (write/row_validator.h). Returns the estimated encoded bytes of the row.
  Result<int64_t> Append(const Value* values);

  int64_t num_rows() const { return num_rows_; }
  int64_t estimated_bytes() const { return estimated_bytes_; }

  /// Finishes the builders into a record batch; the builder is left empty and reusable.
  Result<std::shared_ptr<arrow::RecordBatch>> Finish();

 private:
  using AppendFn = arrow::Status (*)(arrow::ArrayBuilder*, const Value&);
  static constexpr int64_t kFirstCapacity = 1024;  // rows

  /// Grows every scalar column's builder to twice `capacity_` rows (kFirstCapacity at first).
  Status Reserve();

  std::shared_ptr<arrow::Schema> schema_;
  std::vector<std::unique_ptr<arrow::ArrayBuilder>> builders_;
  std::vector<AppendFn> append_;
  std::vector<int32_t> fixed_width_;  // bytes per value for the size estimate
  std::vector<std::optional<row::ColumnType>> nested_;  // ARRAY/MAP/ROW columns: appended recursively
  int64_t num_rows_ = 0;
  int64_t capacity_ = 0;  // rows every scalar builder has room for
  int64_t estimated_bytes_ = 0;
};

}  // namespace fluss::write

// Checks rows of Values (fluss::Value) against a table schema before anything is queued: kind,
// range, precision, length and nullability per column, with the column types resolved once
// (row/data_type.h) rather than per value.
//
// Thread affinity: none; Check is const and may run on any thread.
#pragma once

#include <memory>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/client.h"
#include "fluss/row/data_type.h"

namespace fluss::write {

class RowValidator {
 public:
  /// `schema`: the table's Arrow schema. A column type without a Fluss equivalent makes every
  /// Check fail with kInvalidArgument naming the column.
  explicit RowValidator(std::shared_ptr<arrow::Schema> schema);

  /// Checks `values[0, count)`, one per column in schema order, by the rules of
  /// row::DatumFromValue (row/datum.h). Fails with kInvalidArgument naming the column (and the
  /// path inside a nested value) for a wrong row length, a value of the wrong kind, an integer
  /// out of the column's range, a TIME outside one day, a BINARY(n) of another length, a DECIMAL
  /// with more digits than its precision, a string over 1 GiB or a null in a NOT NULL column or
  /// element.
  Status Check(const Value* values, size_t count) const;

 private:
  std::shared_ptr<arrow::Schema> schema_;
  std::vector<row::ColumnType> columns_;  // one per field
  Status unsupported_;                    // why columns_ could not be built, if so
};

}  // namespace fluss::write

// Rows written under one schema of a table, read under another: columns are matched by column
// id (Schema::column_ids; Java SchemaUtil.getIndexMapping), a column the rows' schema lacks
// (added later) reads as null, a column only the rows' schema has (added after the reader's
// handle was taken) is dropped. Fluss 0.9 changes schemas only by adding nullable columns at
// the end, so a matched column has the same type in both.
//
// Thread affinity: none; pure functions.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/status.h"
#include "fluss/types.h"

namespace fluss::row {

/// For each column of `target`, the index of the column of `source` with the same column id,
/// or -1 when `source` has none. Schemas without column ids match by position. Fails with
/// kUnsupported naming the column when a matched column's type differs.
Result<std::vector<int32_t>> MapColumnsById(const Schema& source, const Schema& target);

/// `batch` (rows of the source schema) as a batch of `target`: column i is the batch's column
/// `mapping[i]` (shared, not copied), or all null when `mapping[i]` is -1.
Result<std::shared_ptr<arrow::RecordBatch>> AdaptBatch(const std::shared_ptr<arrow::RecordBatch>& batch,
                                                       const std::vector<int32_t>& mapping,
                                                       const std::shared_ptr<arrow::Schema>& target);

}  // namespace fluss::row

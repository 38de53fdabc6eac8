// Arrow input for a table's columns: whether a caller's Arrow array can be written as a column,
// and the same data relabelled with the column's exact Arrow type.
//
// Arrow carries child names and nullability in types (a list item named "item" or "element",
// nullable or not); the Fluss wire carries neither (protocol-data.md 2.4, 11). So an input
// column fits when it has the column's layout at every level (same type ids and parameters,
// the same struct field names), whatever its child names and child nullability, provided it
// holds no null where the column's type is NOT NULL.
//
// Thread affinity: none; pure functions.
#pragma once

#include <memory>
#include <string>

#include <arrow/type_fwd.h>

#include "fluss/status.h"

namespace fluss::row {

/// `got` (the values of input column `name`) as an array of exactly `want`'s type, sharing its
/// buffers. Fails with kInvalidArgument naming the column for another layout ("column 'tags'
/// has type list<item: int64> but the table's type is list<item: int32>"), or naming the path
/// of a NOT NULL level that holds nulls ("column 'tags[]' is NOT NULL but has 2 nulls"), or a
/// map with a repeated key.
Result<std::shared_ptr<arrow::Array>> ConformArrowColumn(const arrow::Field& want, const std::shared_ptr<arrow::Array>& got);

}  // namespace fluss::row

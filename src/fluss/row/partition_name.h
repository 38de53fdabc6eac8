// Partition names of partitioned tables, built exactly as the Java client builds them to route
// a row (protocol-data.md section 8; Java PartitionUtils.convertValueOfType): each partition
// key's value as a string, joined with '$' in partition-key order.
//
// Thread affinity: none; pure functions.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/client.h"
#include "fluss/row/data_type.h"

namespace fluss::row {

/// The partition-value string of `v` in a partition key of type `type`, as Java spells it:
/// STRING/CHAR as is; BOOLEAN true/false; integers in decimal; BINARY/BYTES lowercase hex; DATE
/// yyyy-MM-dd; TIME HH-mm-ss_SSS; FLOAT/DOUBLE Java's Float/Double.toString with '.' -> '_'
/// (NaN, Inf, -Inf); TIMESTAMP(_LTZ) UTC yyyy-MM-dd-HH-mm-ss_ plus the fraction of the second
/// without trailing zeros. Fails with kInvalidArgument naming `column` for a null, a DECIMAL key,
/// or a result the server would refuse as a partition name (empty, longer than 200 characters,
/// "." or "..", or a character other than ASCII letters, digits, '_' and '-').
Result<std::string> PartitionValueString(const DataType& type, const Value& v, const std::string& column);

/// Checks a partition value given as text (create_partition, a partition spec): non-empty, at
/// most 200 characters, only ASCII letters, digits, '_' and '-', not "." or "..". Fails with
/// kInvalidArgument naming `column`.
Status CheckPartitionValue(const std::string& value, const std::string& column);

/// The partition name of `values`, one per partition key in partition-key order: joined with '$'.
std::string JoinPartitionName(const std::vector<std::string>& values);

/// The partition spec {partition key: value} of a partition name built from `keys` (the
/// table's partition keys, in order): the name split at '$' (values never contain one).
std::map<std::string, std::string> PartitionSpecOf(const std::vector<std::string>& keys, const std::string& name);

/// The partition a row of one partitioned table belongs to: its partition columns' value
/// strings (PartitionValueString) joined in partition-key order, as the Java client routes rows.
///
/// Thread affinity: immutable after Make; any thread.
class PartitionNamer {
 public:
  /// `partition_keys` are column names of `schema`; kInvalidArgument naming one that is not a
  /// column, kUnsupported for a column type without a Fluss mapping.
  static Result<PartitionNamer> Make(const arrow::Schema& schema, const std::vector<std::string>& partition_keys);

  /// The partition name of a full row (one Value per column). Fails with kInvalidArgument naming
  /// the partition column for a null or a value the server refuses in a partition name.
  Result<std::string> NameOf(const Value* row) const;
  /// The partition name of row `row` of `batch` (the table's columns, in order); errors as above.
  Result<std::string> NameOf(const arrow::RecordBatch& batch, int64_t row) const;
  const std::vector<std::string>& keys() const { return keys_; }

 private:
  std::vector<std::string> keys_;
  std::vector<int> columns_;  // index of each key in the schema
  std::vector<DataType> types_;
};

}  // namespace fluss::row

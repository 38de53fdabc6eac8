// Partition names of partitioned tables, built exactly as the Java client builds them to route
// a row (protocol-data.md section 8; Java PartitionUtils.convertValueOfType): each partition
// key's value as a string, joined with '$' in partition-key order.
//
// Thread affinity: none; pure functions.
#pragma once

#include <string>
#include <vector>

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

}  // namespace fluss::row

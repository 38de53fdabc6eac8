// Value record batch (DefaultValueRecordBatch, magic 0): what LimitScan returns for a
// primary-key table (protocol-data.md section 9; not a KV batch, no CRC). Little-endian:
//   [int32 Length = bytes that follow][int8 Magic = 0][int32 RecordCount]   (9-byte header)
//   RecordCount records, each [int32 Length = bytes that follow][value bytes]
// where value bytes = [int16 schema id][row in the table's kv format] (row/kv_value.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fluss/status.h"

namespace fluss::record {

inline constexpr size_t kValueBatchHeaderSize = 9;
inline constexpr int8_t kValueBatchMagic = 0;

/// Parses the value record batch `data[0, size)` into its records' value bytes (views into
/// `data`, each parseable with row::ParseValue / row::DecodeValue). Bytes after the batch are
/// ignored. Fails with kProtocol for a truncated batch or record, a magic other than 0, a
/// record shorter than its 2-byte schema id, or a record count that does not match the records.
Result<std::vector<std::string_view>> ParseValueRecordBatch(const uint8_t* data, size_t size);

/// Builds a value record batch of `values` (value bytes, row::EncodeValue). For tests and
/// fuzzing; the client only receives these batches.
std::string BuildValueRecordBatch(const std::vector<std::string>& values);

}  // namespace fluss::record

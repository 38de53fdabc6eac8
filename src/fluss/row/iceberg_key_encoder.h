// Iceberg key encoder: the bucket key (and possibly the primary key, key_encoding.h) of tables
// with `table.datalake.format` = iceberg; exactly one key column (protocol-data.md section 6.4;
// Java IcebergKeyEncoder / IcebergBinaryRowWriter). The bytes are those Iceberg's bucket
// transform hashes:
//   INT, DATE             int64 LE (value widened)
//   TIME                  int64 LE microseconds of day (milliseconds x 1000)
//   BIGINT                int64 LE
//   FLOAT, DOUBLE         4 / 8 bytes LE IEEE
//   TIMESTAMP (no zone)   int64 LE epoch microseconds (millis x 1000 + nano-of-milli / 1000)
//   DECIMAL               unscaled value, minimal big-endian two's complement, no length
//   STRING, CHAR          UTF-8 bytes, no length
//   BYTES, BINARY         raw bytes, no length
// BOOLEAN, TINYINT, SMALLINT and TIMESTAMP_LTZ are rejected (as by Java 0.9.1).
//
// Thread affinity: immutable after Create; Encode may be called from any thread concurrently.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fluss/row/key_encoder.h"

namespace fluss::row {

class IcebergKeyEncoder : public KeyEncoder {
 public:
  /// `key_columns` must hold exactly one index into `schema`, of a type listed above. Fails with
  /// kInvalidArgument naming the column otherwise.
  static Result<IcebergKeyEncoder> Create(std::shared_ptr<arrow::Schema> schema, std::vector<int> key_columns);

  /// Encodes into `out` (cleared first). Fails like KeyEncoder::Encode.
  Status Encode(const Value* values, std::string* out) const override;

 private:
  IcebergKeyEncoder() = default;
};

}  // namespace fluss::row

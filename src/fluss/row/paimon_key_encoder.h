// Paimon BinaryRow key encoder: the bucket key (and, by the rules of key_encoding.h, possibly the
// primary key) of tables with `table.datalake.format` = paimon (protocol-data.md section 6.3;
// Java PaimonKeyEncoder / PaimonBinaryRowWriter):
//
//   [header + null bits: ((N + 63 + 8) / 64) * 8 bytes; byte 0 = row kind 0 (INSERT)]
//   [fixed part: 8 bytes per key field, in key order]
//   [variable part: values padded to multiples of 8]
//
// Fixed slots: INT/DATE/TIME int32 LE (TIME = ms of day), BIGINT, DOUBLE, compact DECIMAL
// (unscaled) and compact TIMESTAMP(_LTZ) (millis) 8 bytes LE, SMALLINT 2, TINYINT/BOOLEAN 1,
// FLOAT 4, rest zero. STRING/CHAR/BYTES/BINARY: up to 7 bytes inline (value bytes, slot byte 7 =
// 0x80 | length), else in the variable part with slot (offset << 32) | length, the offset counted
// from the start of the row. Non-compact DECIMAL: 16 reserved bytes holding the minimal
// big-endian unscaled bytes, slot (offset << 32) | byte length. Non-compact TIMESTAMP: the millis
// in the variable part, slot (offset << 32) | nano-of-millisecond.
//
// Non-compact TIMESTAMP_LTZ follows the Java writer as it is: it writes the slot
// (offset << 32) | nano-of-millisecond but does not advance past the millis, so they are not part
// of the key (a later variable-length field takes the same offset). Matching it keeps the bytes,
// and so buckets and lookups, equal to Java's.
//
// Thread affinity: immutable after Create; Encode may be called from any thread concurrently.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fluss/row/key_encoder.h"

namespace fluss::row {

class PaimonKeyEncoder : public KeyEncoder {
 public:
  /// `key_columns` index into `schema`. Fails with kInvalidArgument when `key_columns` is empty,
  /// an index is out of range, or a key column has a type with no Fluss equivalent.
  static Result<PaimonKeyEncoder> Create(std::shared_ptr<arrow::Schema> schema, std::vector<int> key_columns);

  /// Encodes into `out` (cleared first); always a multiple of 8 bytes. Fails like
  /// KeyEncoder::Encode.
  Status Encode(const Value* values, std::string* out) const override;

 private:
  PaimonKeyEncoder() = default;
};

}  // namespace fluss::row

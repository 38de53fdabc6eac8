// CompactedKey encoder: the bytes of the bucket key (and, by format rules, the primary key) of a
// row for tables without a lake format. It is the concatenation of the key fields' CompactedRow
// encodings, in key order, with no null bitmap (protocol-data.md sections 4.1, 6.2; Java:
// CompactedKeyEncoder / CompactedKeyWriter).
//
// The per-type field encoding is CompactedRow's (compacted_row.h); the Fluss type of a column is
// data_type.h's (the Arrow unit of a timestamp decides its precision class: s, ms compact; us, ns
// not compact). TIME is stored as milliseconds of day whatever the Arrow unit.
//
// Thread affinity: immutable after Create; Encode may be called from any thread concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/client.h"
#include "fluss/row/datum.h"
#include "fluss/status.h"

namespace fluss::row {

/// Encodes the key columns of one row into key bytes (protocol-data.md section 6). The
/// implementations: CompactedKeyEncoder (below), PaimonKeyEncoder (paimon_key_encoder.h),
/// IcebergKeyEncoder (iceberg_key_encoder.h); key_encoding.h chooses among them from the table
/// properties. Immutable after creation; Encode may be called from any thread concurrently.
class KeyEncoder {
 public:
  virtual ~KeyEncoder() = default;

  /// Encodes the key of the row `values` (one fluss::Value per field of schema(); only the key
  /// columns are read) into `out`, which is cleared first. Fails with kInvalidArgument naming
  /// the column when a key value is null, of the wrong kind, or out of the column's range; `out`
  /// is then unspecified.
  virtual Status Encode(const Value* values, std::string* out) const = 0;

  const std::shared_ptr<arrow::Schema>& schema() const { return schema_; }
  /// Indexes into schema() of the key columns, in key order.
  const std::vector<int>& key_columns() const { return key_columns_; }

 protected:
  KeyEncoder() = default;
  /// Checks `key_columns` against `schema` (non-empty, in range, a Fluss type), resolves the key
  /// columns' types and takes both. `what` names the encoder in errors.
  Status Init(std::shared_ptr<arrow::Schema> schema, std::vector<int> key_columns, const char* what);
  /// The Datum of key column `k` (index into key_columns()) of `values`; a null is an error.
  Status KeyDatum(size_t k, const Value* values, Datum* d) const;
  /// kInvalidArgument "key column 'name' (TYPE): what".
  Status KeyError(size_t k, const std::string& what) const;

  std::shared_ptr<arrow::Schema> schema_;
  std::vector<int> key_columns_;
  std::vector<ColumnType> columns_;  // one per key column
};

/// CompactedKey encoder for the key columns `key_columns` (indexes into `schema`) of one row.
/// `values` holds one fluss::Value per schema field (include/fluss/client.h: kInt64 for
/// integers, DATE as days, TIME/TIMESTAMP in the column's Arrow unit, kDouble, kBytes for
/// STRING/CHAR/BYTES/BINARY(n), kDecimal 128-bit unscaled at the column scale, kBool). Key
/// columns must not be null (return InvalidArgument naming the column otherwise); a BINARY(n)
/// key value must have exactly n bytes.
class CompactedKeyEncoder : public KeyEncoder {
 public:
  /// Fails with kInvalidArgument when `key_columns` is empty, an index is out of range, or a key
  /// column has a type that cannot be a key (the column is named).
  static Result<CompactedKeyEncoder> Create(std::shared_ptr<arrow::Schema> schema,
                                            std::vector<int> key_columns);

  /// Encodes into `out` (cleared first). Fails with kInvalidArgument naming the column when a key
  /// value is null, of the wrong kind, or out of the column's range; `out` is then unspecified.
  Status Encode(const Value* values, std::string* out) const override;

 private:
  CompactedKeyEncoder() = default;
};

}  // namespace fluss::row

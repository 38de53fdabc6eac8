// Values of primary-key tables: what PutKv sends as a record's value row, what RocksDB stores
// and what Lookup / PrefixLookup / LimitScan return (protocol-data.md sections 5.2 and 9; Java
// ValueEncoder / ValueDecoder):
//
//   value bytes = [int16 LE schema id][row in the table's kv format]
//
// The kv format is the table property `table.kv.format`: COMPACTED (default, compacted_row.h)
// or INDEXED (indexed_row.h). Example: schema 1, row (INT 1, STRING 'a', BIGINT 100) compacted ->
// 0100 0001016164.
//
// Thread affinity: KvRowCodec is immutable after Make and may be shared by threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/client.h"
#include "fluss/row/compacted_row.h"
#include "fluss/row/indexed_row.h"
#include "fluss/status.h"

namespace fluss::row {

/// Table property naming the row format of a primary-key table's values.
inline constexpr const char* kKvFormatProperty = "table.kv.format";

enum class KvFormat : uint8_t { kCompacted, kIndexed };

/// The kv format of a table from its properties: `table.kv.format` = COMPACTED (also when
/// absent) or INDEXED, case-insensitive. Fails with kInvalidArgument naming the property for
/// anything else.
Result<KvFormat> KvFormatOf(const std::map<std::string, std::string>& properties);

/// A row codec of either kv format, for one schema. Immutable after Make.
class KvRowCodec {
 public:
  /// Fails with kInvalidArgument naming the column for an Arrow type with no Fluss equivalent.
  static Result<KvRowCodec> Make(const arrow::Schema& schema, KvFormat format);

  /// Appends the row encoding of `values` (one fluss::Value per field) to `out`; see
  /// CompactedRowCodec::Encode / IndexedRowCodec::Encode for the failures. INDEXED also refuses
  /// a BINARY(n) value ending in 0x00 (kInvalidArgument naming the column): Fluss 0.9's server
  /// strips such bytes when it builds the changelog and then fails the whole batch.
  Status Encode(const Value* values, std::string* out) const;
  /// Decodes one row of exactly `size` bytes into `builders` (one per field); no builder is
  /// touched on failure.
  Status Decode(const uint8_t* data, size_t size, const std::vector<arrow::ArrayBuilder*>& builders) const;
  Status CheckBuilders(const std::vector<arrow::ArrayBuilder*>& builders) const;

  KvFormat format() const { return codec_.index() == 0 ? KvFormat::kCompacted : KvFormat::kIndexed; }

 private:
  explicit KvRowCodec(std::variant<CompactedRowCodec, IndexedRowCodec> codec) : codec_(std::move(codec)) {}
  std::variant<CompactedRowCodec, IndexedRowCodec> codec_;
};

/// Value bytes split into the schema id and the row.
struct ValueView {
  int16_t schema_id = 0;
  const uint8_t* row = nullptr;
  size_t row_size = 0;
};

/// Splits value bytes `data[0, size)`. Fails with kProtocol when fewer than 2 bytes are given.
Result<ValueView> ParseValue(const uint8_t* data, size_t size);

/// Appends the value bytes of `values` (one fluss::Value per field of the codec's schema) under
/// `schema_id` to `out`. On failure `out` is unchanged.
Status EncodeValue(int16_t schema_id, const KvRowCodec& codec, const Value* values, std::string* out);

/// Decodes the value bytes `data[0, size)` written with schema `expected_schema_id` (the schema
/// `codec` was made for) and appends its row to `builders`. Fails with kProtocol for a truncated
/// or malformed value, and for a value of another schema id (the caller then decodes it with that
/// schema's codec, fetched with GetTableSchema, and maps columns by column id); no builder is
/// touched on failure.
Status DecodeValue(const uint8_t* data, size_t size, int16_t expected_schema_id, const KvRowCodec& codec,
                   const std::vector<arrow::ArrayBuilder*>& builders);

}  // namespace fluss::row

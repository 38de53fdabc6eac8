// One field value in the physical form every Fluss row and key format stores (protocol-data.md
// sections 0 and 4.1), between the caller's fluss::Value and the bytes of a format:
//
//   encode: fluss::Value --DatumFromValue (checks kind, range, length, precision)--> Datum
//           --format writer--> bytes
//   decode: bytes --format reader--> Datum --CheckDatumForBuilder / AppendDatum--> Arrow builder
//
// so the IndexedRow, CompactedRow, CompactedKey, Paimon and Iceberg codecs share one set of value
// rules and one set of error messages naming the column.
//
// Thread affinity: none; pure functions and plain values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/client.h"
#include "fluss/row/data_type.h"
#include "fluss/status.h"

namespace fluss::row {

/// The two row formats nested values follow: a nested ROW is a CompactedRow inside COMPACTED
/// rows and an IndexedRow inside INDEXED rows (protocol-data.md 4.1, 4.4).
enum class RowFormat : uint8_t { kCompacted, kIndexed };

/// "CompactedRow" or "IndexedRow", for error messages.
const char* RowFormatName(RowFormat format);

/// The ColumnType of every field of `schema` (DataTypeOf; fails naming the field).
Result<std::vector<ColumnType>> ColumnTypesOf(const arrow::Schema& schema);

/// A non-null field value in Fluss units. Which members are meaningful depends on the type:
///   BOOLEAN                 i (0 or 1)
///   TINYINT..BIGINT         i
///   DATE                    i = days since 1970-01-01
///   TIME                    i = milliseconds of day
///   TIMESTAMP(_LTZ)         i = epoch milliseconds (floored), nanos = nano-of-millisecond
///   FLOAT, DOUBLE           d (FLOAT values are rounded to float when stored)
///   STRING, CHAR, BYTES, BINARY   bytes (UTF-8 for the string types; borrowed, not owned)
///   DECIMAL                 (dec_hi, dec_lo) = 128-bit unscaled value at the column scale;
///                           for a compact decimal also i = the unscaled value
///   ARRAY, MAP, ROW         encode: nested = the checked Value; decode: bytes = the nested
///                           BinaryArray / BinaryMap / row bytes (nested_codec.h)
struct Datum {
  int64_t i = 0;
  int32_t nanos = 0;
  double d = 0;
  std::string_view bytes;
  int64_t dec_hi = 0;
  uint64_t dec_lo = 0;
  const Value* nested = nullptr;
};

/// Bytes of a fixed-width scalar of type `root` as IndexedRow values, BinaryArray slots and Paimon
/// BinaryRow slots store it (little-endian): BOOLEAN, TINYINT 1; SMALLINT 2; INT, DATE, TIME
/// (milliseconds), FLOAT 4; BIGINT, DOUBLE 8; 0 for every other type.
int FixedScalarWidth(TypeRoot root);
/// Writes `d` of the fixed-width scalar type `root` at `p` (FixedScalarWidth(root) bytes).
void PutFixedScalar(TypeRoot root, const Datum& d, uint8_t* p);
/// Reads a fixed-width scalar of type `root` at `p` into `d` (its other members zeroed).
void GetFixedScalar(TypeRoot root, const uint8_t* p, Datum* d);
/// Stores the byte string `b` inline in the 8-byte slot at `slot` when it has at most 7 bytes
/// (the bytes, then byte 7 = 0x80 | length), as BinaryArray and Paimon's BinaryRow do; returns
/// false, writing nothing, for a longer one (it goes to the variable part).
bool PutInlineBytes(std::string_view b, uint8_t* slot);

/// For TIME and TIMESTAMP(_LTZ): the step, in ticks of the type's Arrow unit, that every value
/// must be a multiple of to fit the type: a TIMESTAMP(p) keeps p fractional digits of the
/// second; a TIME keeps at most milliseconds (Fluss stores milliseconds of the day) and at most
/// p digits. E.g. TIME(6) in microseconds: 1000; TIMESTAMP(4) in microseconds: 100. 1 for other
/// types.
int64_t FractionStep(const DataType& t);
/// The message for a value that is not a multiple of FractionStep(t).
std::string FractionMessage(const DataType& t, int64_t value);

/// The message for a CHAR(n) value ending in U+0000: Fluss pads CHAR values with 0x00 bytes and
/// every reader (IndexedRow.getChar, the changelog's Arrow batches) strips them, so such a value
/// would read back shorter than written. Refused on every write path.
inline constexpr const char* kCharEndsInNul =
    "value ends in U+0000, which a CHAR value cannot (Fluss strips the 0x00 padding of CHAR values when reading)";

/// Checks the non-null `v` against `column` and converts it (fluss::Value conventions of
/// include/fluss/client.h: kInt64 for integers, DATE days, TIME and TIMESTAMP in the column's
/// Arrow unit; kDouble or kInt64 for FLOAT/DOUBLE; kBytes for the byte-string types; kDecimal
/// unscaled at the column scale; kBool; kArray / kMap / kRow for the nested types, checked
/// element by element). Fails with kInvalidArgument naming the column, and inside a nested value
/// the path to the element ("tags[3]", "attrs[0].value", "address.zip"), for a null (at the top,
/// or inside a nested value where the type is NOT NULL), a value of the wrong kind, an integer
/// outside the type's range, a TIME outside one day, a timestamp outside the millisecond range,
/// a TIME or TIMESTAMP finer than the type keeps (FractionStep), a CHAR(n) value longer than n
/// bytes or ending in U+0000 (kCharEndsInNul), a BINARY(n) value of another length than n, a decimal
/// with more digits than the precision, a ROW of another number of fields, or a MAP whose
/// (scalar) keys repeat.
Status DatumFromValue(const ColumnType& column, const Value& v, Datum* out);

/// The largest byte value (STRING, BYTES, CHAR, BINARY) DatumFromValue accepts, in bytes: a row
/// holding more could not be sent in one request anyway.
inline constexpr size_t kMaxBytesValue = static_cast<size_t>(std::numeric_limits<int32_t>::max() / 2);

/// Checks that a decoded `d` of `column` can be appended to the column's Arrow builder (the
/// nano-of-millisecond in range, the timestamp representable in the Arrow unit, a BINARY(n)
/// value not longer than n, a nested value's bytes well formed in `format` all the way down).
/// Fails with kProtocol naming the row format and the column.
Status CheckDatumForBuilder(const ColumnType& column, const Datum& d, RowFormat format);

/// Appends `d` (checked with CheckDatumForBuilder) to `builder`, which was made with
/// arrow::MakeBuilder for the column's Arrow type. BINARY(n) values shorter than n are padded
/// with 0x00; nested bytes are decoded in `format` into the nested builders. Fails with
/// kInternal naming the column when Arrow fails.
Status AppendDatum(const ColumnType& column, const Datum& d, RowFormat format, arrow::ArrayBuilder* builder);

/// The encode loop of the row formats (null bitmap first): `out` already holds the row's
/// bitmap, zeroed, at offset `start`. For each column i, a null value sets bit i (a null in a
/// NOT NULL column is an error); any other value is checked by DatumFromValue and passed to
/// `write(i, datum)`, which appends its bytes and returns a Status. On failure `out` is
/// truncated back to `start`.
template <typename Write>
Status EncodeRowFields(const std::vector<ColumnType>& columns, const Value* values, std::string* out,
                       size_t start, Write&& write) {
  for (size_t i = 0; i < columns.size(); ++i) {
    const ColumnType& c = columns[i];
    Status st;
    if (values[i].kind == Value::Kind::kNull) {
      if (c.type.nullable) {
        (*out)[start + (i >> 3)] = static_cast<char>((*out)[start + (i >> 3)] | (1 << (i & 7)));
        continue;  // a null contributes no bytes
      }
      st = Status::InvalidArgument("column '" + c.name + "' is NOT NULL but the value is null");
    } else {
      Datum d;
      st = DatumFromValue(c, values[i], &d);
      if (st.ok()) st = write(i, d);
    }
    if (!st.ok()) {
      out->resize(start);
      return st;
    }
  }
  return Status::OK();
}

/// Appends one decoded row: for each column i, a null when bit i of `null_bitmap` (LSB first,
/// protocol-data.md section 0) is set, else AppendDatum of `datums[i]`.
Status AppendRow(const std::vector<ColumnType>& columns, const uint8_t* null_bitmap,
                 const std::vector<Datum>& datums, RowFormat format,
                 const std::vector<arrow::ArrayBuilder*>& builders);

/// Checks that `builders` has one builder per column of the column's Arrow type. `what` names the
/// decoder in the kInvalidArgument error.
Status CheckBuilders(const std::vector<ColumnType>& columns,
                     const std::vector<arrow::ArrayBuilder*>& builders, const char* what);

}  // namespace fluss::row

// The bytes of nested values inside CompactedRow and IndexedRow (protocol-data.md 4.1 and 4.4;
// Java BinaryArray / BinaryArrayWriter / BinaryMap):
//
//   ARRAY  BinaryArray, the same in both row formats:
//            [int32 LE element count]
//            [null bits: 4 x ceil(count / 32) bytes, bit i (LSB first) = element i is NULL]
//            [fixed part: one slot per element; 1 byte BOOLEAN/TINYINT, 2 SMALLINT,
//             4 INT/DATE/TIME/FLOAT, 8 everything else]
//            [zeros up to a multiple of 8]
//            [variable part: each variable element padded to a multiple of 8]
//          An 8-byte slot of a byte string holds it inline when it is at most 7 bytes (the bytes,
//          then byte 7 = 0x80 | length), else (offset << 32) | length, the offset counted from
//          the start of the array. A non-compact DECIMAL reserves 16 bytes of variable part
//          (slot: offset, byte length); a non-compact TIMESTAMP puts its millis there (slot:
//          offset, nano-of-millisecond); ARRAY/MAP/ROW elements put their bytes there (slot:
//          offset, length). A NULL element sets its bit and leaves its slot zero.
//   MAP    BinaryMap: [int32 LE byte size of the key array][key BinaryArray][value BinaryArray].
//   ROW    a nested row in the enclosing format: a CompactedRow inside COMPACTED rows, an
//          IndexedRow inside INDEXED rows (also as an element of an array or map).
//
// Thread affinity: none; pure functions.
#pragma once

#include <string>
#include <string_view>

#include <arrow/type_fwd.h>

#include "fluss/client.h"
#include "fluss/row/data_type.h"
#include "fluss/row/datum.h"
#include "fluss/status.h"

namespace fluss::row {

/// Appends the bytes of the nested value `v` (kArray, kMap or kRow, checked by DatumFromValue)
/// of `type` (ARRAY, MAP or ROW) in `format`, without a length prefix. Fails (kInvalidArgument
/// naming `column`) only for a value DatumFromValue would refuse.
Status AppendNestedBytes(const ColumnType& column, const Value& v, RowFormat format, std::string* out);

/// Decodes the nested bytes `bytes` of `column` (an ARRAY, MAP or ROW column or element) in
/// `format` and appends one value to `builder` (a ListBuilder, MapBuilder or StructBuilder made
/// by arrow::MakeBuilder for the column's Arrow type). With `builder` null the bytes are only
/// checked, all the way down. Fails with kProtocol naming the format, the column and the
/// element for truncated or inconsistent bytes, a NULL where the type is NOT NULL, or a value
/// the Arrow type cannot hold.
Status DecodeNested(const ColumnType& column, RowFormat format, std::string_view bytes, arrow::ArrayBuilder* builder);

}  // namespace fluss::row

// Schemas the fuzz targets decode server bytes against: every scalar Fluss type, and nested
// types (ARRAY, MAP, ROW inside each other). Shared by the targets and by make_corpus, which
// writes valid encodings of these schemas as the seed corpus.
#pragma once

#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include <memory>
#include <string>

#include "fluss/row/data_type.h"
#include "fluss/row/kv_value.h"

namespace fluss::fuzz {

inline std::shared_ptr<arrow::Field> CharField(const std::string& name, int length) {
  return arrow::field(name, arrow::utf8(), true,
                      arrow::key_value_metadata({row::kCharLengthMetadataKey}, {std::to_string(length)}));
}

/// One column of every scalar type: the schema of the tables tests/data was captured from
/// (tests/data/README.md), so the Java-written batches there are valid seeds.
inline std::shared_ptr<arrow::Schema> ScalarSchema() {
  return arrow::schema({arrow::field("id", arrow::int32(), false), arrow::field("flag", arrow::boolean()),
                        arrow::field("tiny", arrow::int8()), arrow::field("small", arrow::int16()),
                        arrow::field("big", arrow::int64()), arrow::field("f32", arrow::float32()),
                        arrow::field("f64", arrow::float64()), arrow::field("name", arrow::utf8()), CharField("code", 4),
                        arrow::field("raw", arrow::binary()), arrow::field("fixed", arrow::fixed_size_binary(3)),
                        arrow::field("amount", arrow::decimal128(10, 2)), arrow::field("day", arrow::date32()),
                        arrow::field("tod", arrow::time32(arrow::TimeUnit::MILLI)),
                        arrow::field("ts", arrow::timestamp(arrow::TimeUnit::MICRO)),
                        arrow::field("ltz", arrow::timestamp(arrow::TimeUnit::MILLI, "UTC"))});
}

/// Nested columns (ARRAY<INT>, MAP<STRING, BIGINT>, ROW<a INT, tags ARRAY<STRING>>,
/// ARRAY<ARRAY<DOUBLE>>) and the scalars whose encodings differ from the compact ones:
/// DECIMAL(30, 2) and TIMESTAMP_LTZ(9).
inline std::shared_ptr<arrow::Schema> NestedSchema() {
  auto row_type = arrow::struct_({arrow::field("a", arrow::int32()), arrow::field("tags", arrow::list(arrow::utf8()))});
  return arrow::schema({arrow::field("id", arrow::int32(), false), arrow::field("ints", arrow::list(arrow::int32())),
                        arrow::field("m", arrow::map(arrow::utf8(), arrow::int64())), arrow::field("r", row_type),
                        arrow::field("mat", arrow::list(arrow::list(arrow::float64()))),
                        arrow::field("big_dec", arrow::decimal128(30, 2)),
                        arrow::field("ltz9", arrow::timestamp(arrow::TimeUnit::NANO, "UTC"))});
}

/// The schema byte 0 of a target's input picks: bit 0 set, NestedSchema, else ScalarSchema.
inline const std::shared_ptr<arrow::Schema>& SchemaOf(uint8_t selector) {
  static const auto scalar = ScalarSchema();
  static const auto nested = NestedSchema();
  return (selector & 1) ? nested : scalar;
}

/// Bit 1 of byte 0: the INDEXED format, else COMPACTED (rows) or ARROW (log batches).
inline bool IndexedOf(uint8_t selector) { return (selector & 2) != 0; }

/// The row codec of SchemaOf(selector) in the format IndexedOf(selector) picks.
inline const row::KvRowCodec& CodecOf(uint8_t selector) {
  auto make = [](uint8_t s) {
    auto codec = row::KvRowCodec::Make(*SchemaOf(s), IndexedOf(s) ? row::KvFormat::kIndexed : row::KvFormat::kCompacted);
    if (!codec.ok()) __builtin_trap();
    return *codec;
  };
  static const row::KvRowCodec codecs[4] = {make(0), make(1), make(2), make(3)};
  return codecs[selector & 3];
}

}  // namespace fluss::fuzz

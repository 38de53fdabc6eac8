// libFuzzer target: one CompactedRow or IndexedRow of server bytes (a lookup's value, a limit
// scan's row; row/kv_value.h KvRowCodec, row/nested_codec.h for ARRAY/MAP/ROW inside) decoded
// against a scalar or a nested schema. A row is appended whole or not at all, and what is
// appended is a valid Arrow array whose every value can be read.
//
// Input: byte 0 picks the schema (bit 0: nested) and the row format (bit 1: INDEXED); the rest
// is the row.
#include <cstddef>
#include <cstdint>

#include "fuzz_consume.h"
#include "fuzz_schemas.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fluss;
  if (size < 1) return 0;
  const auto& schema = fuzz::SchemaOf(data[0]);
  const auto& codec = fuzz::CodecOf(data[0]);
  // An exact-size heap copy, so a read past the row's end is a sanitizer report.
  std::vector<uint8_t> bytes(data + 1, data + size);
  fuzz::RowBuilders builders(schema);
  (void)codec.Decode(bytes.data(), bytes.size(), builders.raw);
  builders.FinishAndConsume();
  return 0;
}

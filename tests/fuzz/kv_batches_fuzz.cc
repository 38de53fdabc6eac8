// libFuzzer target: KV batches (record/kv_batch.h) and value record batches
// (record/value_batch.h, what a limit scan of a primary-key table returns), parsed and every
// value decoded (row/kv_value.h ParseValue, DecodeValue) against a scalar or a nested schema.
//
// Input: byte 0 picks the schema (bit 0: nested), the row format (bit 1: INDEXED) and the batch
// kind (bit 2: KV batch, else value record batch); the rest is the batch.
#include <cstddef>
#include <cstdint>

#include "fluss/record/kv_batch.h"
#include "fluss/record/value_batch.h"
#include "fluss/row/kv_value.h"
#include "fuzz_consume.h"
#include "fuzz_schemas.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fluss;
  if (size < 1) return 0;
  const auto& schema = fuzz::SchemaOf(data[0]);
  const auto& codec = fuzz::CodecOf(data[0]);
  std::vector<uint8_t> bytes(data + 1, data + size);
  fuzz::RowBuilders builders(schema);
  volatile size_t sink = 0;
  if (data[0] & 4) {
    auto batch = record::ParseKvBatch(bytes.data(), bytes.size(), /*verify_crc=*/false);
    if (batch.ok()) {
      for (const auto& r : batch->records) {
        for (char c : r.key) sink = sink + static_cast<unsigned char>(c);
        if (!r.value) continue;
        const auto* v = reinterpret_cast<const uint8_t*>(r.value->data());
        (void)row::DecodeValue(v, r.value->size(), batch->schema_id, codec, builders.raw);
        builders.CheckAligned();
      }
    }
    (void)record::ParseKvBatch(bytes.data(), bytes.size(), /*verify_crc=*/true);
  } else {
    auto values = record::ParseValueRecordBatch(bytes.data(), bytes.size());
    if (values.ok()) {
      for (const auto& value : *values) {
        const auto* v = reinterpret_cast<const uint8_t*>(value.data());
        auto view = row::ParseValue(v, value.size());
        if (!view.ok()) continue;
        (void)row::DecodeValue(v, value.size(), view->schema_id, codec, builders.raw);
        builders.CheckAligned();
      }
    }
  }
  builders.FinishAndConsume();
  return 0;
}

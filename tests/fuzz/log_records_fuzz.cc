// libFuzzer target: a `records` blob of server bytes (FetchLog, LimitScan) walked batch by batch
// (record/log_batch.h), each batch's header parsed and its CRC computed, then its body decoded
// as ARROW or INDEXED records (record/arrow_log.h, record/indexed_log.h) against a scalar or a
// nested schema and every decoded value read. The CRC is not enforced here on purpose: the
// decoders must hold even for a body whose CRC matches (a faulty or hostile server).
//
// Input: byte 0 picks the schema (bit 0: nested) and the format (bit 1: INDEXED); the rest is
// the records blob.
#include <cstddef>
#include <cstdint>

#include <arrow/buffer.h>

#include "fluss/record/arrow_log.h"
#include "fluss/record/indexed_log.h"
#include "fluss/record/log_batch.h"
#include "fuzz_consume.h"
#include "fuzz_schemas.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fluss;
  if (size < 1) return 0;
  const auto& schema = fuzz::SchemaOf(data[0]);
  const bool indexed = fuzz::IndexedOf(data[0]);
  // An owned copy, as a fetched response is: decoded arrays may point into it.
  auto blob = arrow::Buffer::FromString(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  record::LogBatchIterator it(blob->data(), static_cast<size_t>(blob->size()));
  record::LogBatchHeader header;
  const uint8_t* batch = nullptr;
  Status status;
  volatile uint32_t crc_sink = 0;
  while (it.Next(&header, &batch, &status)) {
    crc_sink = crc_sink + record::ComputeBatchCrc(batch, header.batch_size());
    auto slice = arrow::SliceBuffer(blob, batch - blob->data(), static_cast<int64_t>(header.batch_size()));
    if (indexed) {
      std::vector<int8_t> change_types;
      auto rb = record::DecodeIndexedLogBatch(slice, header, schema, &change_types);
      if (rb.ok()) fuzz::ConsumeBatch(*rb);
    } else {
      auto rb = record::DecodeArrowLogBatch(slice, header, schema);
      if (rb.ok()) fuzz::ConsumeBatch(*rb);
    }
  }
  return 0;
}

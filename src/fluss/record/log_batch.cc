#include "fluss/record/log_batch.h"

#include "fluss/util/bytes.h"
#include "fluss/util/crc32c.h"

namespace fluss::record {

using util::GetLe;
using util::PutLe;

uint32_t ComputeBatchCrc(const uint8_t* batch, size_t batch_size) {
  return util::Crc32c(batch + kSchemaIdOffset, batch_size - kSchemaIdOffset);
}

void WriteLogBatchHeader(uint8_t* b, size_t batch_size, int16_t schema_id, int32_t record_count,
                         int64_t writer_id, int32_t batch_sequence) {
  PutLe<int64_t>(b + 0, 0);
  PutLe<int32_t>(b + 8, static_cast<int32_t>(batch_size - kLogOverhead));
  PutLe<int8_t>(b + 12, 0);
  PutLe<int64_t>(b + 13, 0);
  PutLe<int16_t>(b + 25, schema_id);
  PutLe<int8_t>(b + 27, kAppendOnlyFlag);
  PutLe<int32_t>(b + 28, record_count > 0 ? record_count - 1 : 0);
  PutLe<int64_t>(b + 32, writer_id);
  PutLe<int32_t>(b + 40, batch_sequence);
  PutLe<int32_t>(b + 44, record_count);
  PutLe<uint32_t>(b + kCrcOffset, ComputeBatchCrc(b, batch_size));
}

void SetWriterAndSequence(uint8_t* b, size_t batch_size, int64_t writer_id, int32_t batch_sequence) {
  PutLe<int64_t>(b + 32, writer_id);
  PutLe<int32_t>(b + 40, batch_sequence);
  PutLe<uint32_t>(b + kCrcOffset, ComputeBatchCrc(b, batch_size));
}

Result<LogBatchHeader> ParseLogBatchHeader(const uint8_t* b, size_t size) {
  if (size < kHeaderSizeV0)
    return Status::Protocol("log batch shorter than its 48-byte header (" + std::to_string(size) + " bytes)");
  LogBatchHeader h;
  h.base_offset = GetLe<int64_t>(b + 0);
  h.length = GetLe<int32_t>(b + 8);
  h.magic = GetLe<int8_t>(b + 12);
  if (h.magic != 0)
    return Status::Unsupported("log batch magic " + std::to_string(h.magic) + " is not supported");
  h.commit_timestamp = GetLe<int64_t>(b + 13);
  h.crc = GetLe<uint32_t>(b + 21);
  h.schema_id = GetLe<int16_t>(b + 25);
  h.attributes = GetLe<int8_t>(b + 27);
  h.last_offset_delta = GetLe<int32_t>(b + 28);
  h.writer_id = GetLe<int64_t>(b + 32);
  h.batch_sequence = GetLe<int32_t>(b + 40);
  h.record_count = GetLe<int32_t>(b + 44);
  if (h.length < static_cast<int32_t>(kHeaderSizeV0 - kLogOverhead))
    return Status::Protocol("log batch Length " + std::to_string(h.length) + " is below the header size");
  return h;
}

bool LogBatchIterator::Next(LogBatchHeader* header, const uint8_t** batch, Status* status) {
  if (size_ - pos_ < kLogOverhead) return false;
  const uint8_t* p = data_ + pos_;
  const int32_t length = GetLe<int32_t>(p + 8);
  if (length < 0) {
    *status = Status::Protocol("negative log batch length");
    return false;
  }
  const size_t total = kLogOverhead + static_cast<size_t>(length);
  if (total > size_ - pos_) {  // truncated trailing batch (ParseLogBatchHeader refuses a short Length)
    truncated_batch_bytes_ = total;
    return false;
  }
  auto h = ParseLogBatchHeader(p, total);
  if (!h.ok()) {
    *status = h.status();
    return false;
  }
  *header = *h;
  *batch = p;
  pos_ += total;
  return true;
}

}  // namespace fluss::record

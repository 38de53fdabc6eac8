#include "fluss/record/kv_batch.h"

#include <cstring>
#include <limits>

#include <arrow/buffer.h>

#include "fluss/util/bytes.h"
#include "fluss/util/crc32c.h"

namespace fluss::record {

using util::GetLe;
using util::PutLe;

KvBatchBuilder::KvBatchBuilder() : buffer_(kKvBatchHeaderSize, '\0') {}

size_t KvBatchBuilder::RecordSize(size_t key_size, size_t value_size) {
  return 4 + util::Varint64Size(key_size) + key_size + value_size;
}

Status KvBatchBuilder::AppendUpsert(std::string_view key, std::string_view value_row) {
  return Append(key, &value_row);
}

Status KvBatchBuilder::AppendDelete(std::string_view key) { return Append(key, nullptr); }

Status KvBatchBuilder::Append(std::string_view key, const std::string_view* value_row) {
  if (key.empty()) return Status::InvalidArgument("KV record: the key is empty");
  const size_t value_size = value_row ? value_row->size() : 0;
  const size_t record = RecordSize(key.size(), value_size);
  if (record - 4 > static_cast<size_t>(std::numeric_limits<int32_t>::max()) ||
      buffer_.size() + record - kKvOverhead > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    return Status::InvalidArgument("KV record of " + std::to_string(record) + " bytes does not fit a batch");
  util::AppendLe<int32_t>(&buffer_, static_cast<int32_t>(record - 4));
  util::AppendVarint32(&buffer_, static_cast<uint32_t>(key.size()));
  buffer_.append(key);
  if (value_row) buffer_.append(*value_row);
  ++num_records_;
  return Status::OK();
}

Result<std::shared_ptr<arrow::Buffer>> KvBatchBuilder::Finish(int16_t schema_id, int64_t writer_id,
                                                              int32_t batch_sequence) {
  auto alloc = arrow::AllocateBuffer(static_cast<int64_t>(buffer_.size()));
  if (!alloc.ok()) return Status::Internal("allocating a KV batch: " + alloc.status().ToString());
  std::shared_ptr<arrow::Buffer> out(std::move(*alloc));
  uint8_t* b = out->mutable_data();
  std::memcpy(b, buffer_.data(), buffer_.size());
  PutLe<int32_t>(b + 0, static_cast<int32_t>(buffer_.size() - kKvOverhead));
  PutLe<int8_t>(b + 4, kKvMagic);
  PutLe<int16_t>(b + kKvSchemaIdOffset, schema_id);
  PutLe<int8_t>(b + 11, 0);  // attributes: unused
  PutLe<int32_t>(b + kKvRecordCountOffset, num_records_);
  SetKvWriterAndSequence(b, buffer_.size(), writer_id, batch_sequence);
  buffer_.assign(kKvBatchHeaderSize, '\0');
  num_records_ = 0;
  return out;
}

uint32_t ComputeKvBatchCrc(const uint8_t* batch, size_t batch_size) {
  return util::Crc32c(batch + kKvSchemaIdOffset, batch_size - kKvSchemaIdOffset);
}

void SetKvWriterAndSequence(uint8_t* batch, size_t batch_size, int64_t writer_id, int32_t batch_sequence) {
  PutLe<int64_t>(batch + kKvWriterIdOffset, writer_id);
  PutLe<int32_t>(batch + kKvBatchSequenceOffset, batch_sequence);
  PutLe<uint32_t>(batch + kKvCrcOffset, ComputeKvBatchCrc(batch, batch_size));
}

Result<KvBatchView> ParseKvBatch(const uint8_t* data, size_t size, bool verify_crc) {
  if (size < kKvBatchHeaderSize)
    return Status::Protocol("KV batch of " + std::to_string(size) + " bytes is shorter than its 28-byte header");
  KvBatchView v;
  v.length = GetLe<int32_t>(data);
  v.magic = GetLe<int8_t>(data + 4);
  v.crc = GetLe<uint32_t>(data + kKvCrcOffset);
  v.schema_id = GetLe<int16_t>(data + kKvSchemaIdOffset);
  v.attributes = GetLe<int8_t>(data + 11);
  v.writer_id = GetLe<int64_t>(data + kKvWriterIdOffset);
  v.batch_sequence = GetLe<int32_t>(data + kKvBatchSequenceOffset);
  const int32_t count = GetLe<int32_t>(data + kKvRecordCountOffset);
  if (v.magic != kKvMagic) return Status::Protocol("KV batch magic " + std::to_string(v.magic) + " is not 0");
  if (v.length < static_cast<int32_t>(kKvBatchHeaderSize - kKvOverhead) || v.batch_size() > size)
    return Status::Protocol("KV batch Length " + std::to_string(v.length) + " does not fit " +
                            std::to_string(size) + " bytes");
  const size_t end = v.batch_size();
  if (verify_crc) {
    const uint32_t crc = ComputeKvBatchCrc(data, end);
    if (crc != v.crc) return Status::Protocol("KV batch CRC mismatch: stored " + std::to_string(v.crc) +
                                              ", computed " + std::to_string(crc));
  }
  if (count < 0) return Status::Protocol("KV batch RecordCount " + std::to_string(count));
  size_t pos = kKvBatchHeaderSize;
  for (int32_t i = 0; i < count; ++i) {
    auto bad = [&](const std::string& what) {
      return Status::Protocol("KV batch record " + std::to_string(i) + ": " + what);
    };
    if (end - pos < 4) return bad("truncated length");
    const int32_t len = GetLe<int32_t>(data + pos);
    pos += 4;
    if (len < 0 || static_cast<size_t>(len) > end - pos) return bad("Length " + std::to_string(len));
    const size_t record_end = pos + static_cast<size_t>(len);
    uint32_t key_len = 0;
    if (!util::ReadVarint32(data, record_end, &pos, &key_len)) return bad("bad key length varint");
    if (key_len > record_end - pos) return bad("key of " + std::to_string(key_len) + " bytes");
    KvRecordView r;
    r.key = std::string_view(reinterpret_cast<const char*>(data + pos), key_len);
    pos += key_len;
    if (pos < record_end)
      r.value = std::string_view(reinterpret_cast<const char*>(data + pos), record_end - pos);
    pos = record_end;
    v.records.push_back(r);
  }
  if (pos != end) return Status::Protocol("KV batch has " + std::to_string(end - pos) + " bytes after its records");
  return v;
}

}  // namespace fluss::record

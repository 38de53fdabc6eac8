#include "fluss/record/indexed_log.h"

#include <cstring>
#include <limits>

#include <arrow/array.h>
#include <arrow/buffer.h>
#include <arrow/builder.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>

#include "fluss/util/bytes.h"

namespace fluss::record {

using util::GetLe;

IndexedBatchBuilder::IndexedBatchBuilder(std::shared_ptr<arrow::Schema> schema)
    : schema_(std::move(schema)) {
  auto codec = row::IndexedRowCodec::Make(*schema_);
  if (codec.ok()) {
    codec_.emplace(std::move(*codec));
  } else {
    codec_status_ = codec.status();
  }
  buffer_.assign(kHeaderSizeV0, '\0');
}

Status IndexedBatchBuilder::Append(const Value* values) {
  if (!codec_) return codec_status_;
  const size_t start = buffer_.size();
  buffer_.append(4, '\0');                                    // record Length, set below
  buffer_.push_back(static_cast<char>(kChangeTypeAppendOnly));  // +A
  Status st = codec_->Encode(values, &buffer_);
  if (st.ok()) {
    const size_t record_length = buffer_.size() - start - 4;  // change type + row
    if (buffer_.size() - kLogOverhead > static_cast<size_t>(std::numeric_limits<int32_t>::max()) ||
        num_records_ == std::numeric_limits<int32_t>::max())
      st = Status::InvalidArgument("INDEXED log batch would exceed 2 GiB or 2^31 records");
    else
      util::PutLe<int32_t>(reinterpret_cast<uint8_t*>(buffer_.data()) + start,
                           static_cast<int32_t>(record_length));
  }
  if (!st.ok()) {
    buffer_.resize(start);
    return st;
  }
  ++num_records_;
  return Status::OK();
}

Result<std::shared_ptr<arrow::Buffer>> IndexedBatchBuilder::Finish(int16_t schema_id) {
  auto allocated = arrow::AllocateBuffer(static_cast<int64_t>(buffer_.size()));
  if (!allocated.ok())
    return Status::Internal("allocating an INDEXED log batch: " + allocated.status().ToString());
  std::shared_ptr<arrow::Buffer> out(std::move(*allocated));
  uint8_t* p = out->mutable_data();
  std::memcpy(p, buffer_.data(), buffer_.size());
  WriteLogBatchHeader(p, buffer_.size(), schema_id, num_records_, kNoWriterId, kNoBatchSequence);
  buffer_.assign(kHeaderSizeV0, '\0');
  num_records_ = 0;
  return out;
}

Result<std::shared_ptr<arrow::RecordBatch>> DecodeIndexedLogBatch(
    const std::shared_ptr<arrow::Buffer>& batch, const LogBatchHeader& header,
    const std::shared_ptr<arrow::Schema>& schema, std::vector<int8_t>* change_types) {
  if (change_types) change_types->clear();
  if (header.record_count < 0)
    return Status::Protocol("INDEXED log batch with negative RecordCount " + std::to_string(header.record_count));
  if (header.record_count == 0) return std::shared_ptr<arrow::RecordBatch>();
  const size_t end = header.batch_size();
  if (end > static_cast<size_t>(batch->size()))
    return Status::Protocol("INDEXED log batch of " + std::to_string(end) + " bytes in a buffer of " +
                            std::to_string(batch->size()));
  // Every record takes at least its 4-byte Length: a larger count is corrupt, and reserving it
  // would allocate what the batch cannot hold.
  if (end < header.header_size() || static_cast<size_t>(header.record_count) > (end - header.header_size()) / 4)
    return Status::Protocol("INDEXED log batch of " + std::to_string(end) + " bytes cannot hold its RecordCount " +
                            std::to_string(header.record_count));
  FLUSS_ASSIGN_OR_RETURN(auto codec, row::IndexedRowCodec::Make(*schema));

  std::vector<std::unique_ptr<arrow::ArrayBuilder>> owned;
  std::vector<arrow::ArrayBuilder*> builders;
  owned.reserve(static_cast<size_t>(schema->num_fields()));
  for (const auto& f : schema->fields()) {
    auto b = arrow::MakeBuilder(f->type());
    if (!b.ok()) return Status::Internal("making a builder for '" + f->name() + "': " + b.status().ToString());
    auto st = (*b)->Reserve(header.record_count);
    if (!st.ok()) return Status::Internal("reserving rows: " + st.ToString());
    builders.push_back(b->get());
    owned.push_back(std::move(*b));
  }
  if (change_types) change_types->reserve(static_cast<size_t>(header.record_count));

  const uint8_t* data = batch->data();
  size_t pos = header.header_size();
  for (int32_t r = 0; r < header.record_count; ++r) {
    if (end - pos < 4)
      return Status::Protocol("INDEXED log batch ends inside the Length of record " + std::to_string(r));
    const int32_t length = GetLe<int32_t>(data + pos);
    if (length < 1 || static_cast<size_t>(length) > end - pos - 4)
      return Status::Protocol("INDEXED log record " + std::to_string(r) + " has Length " + std::to_string(length) +
                              " but " + std::to_string(end - pos - 4) + " bytes remain in the batch");
    const int8_t change_type = static_cast<int8_t>(data[pos + 4]);
    if (change_type < 0 || change_type > kChangeTypeMaxValue)
      return Status::Protocol("INDEXED log record " + std::to_string(r) + " has unknown change type " +
                              std::to_string(change_type));
    Status st = codec.Decode(data + pos + 5, static_cast<size_t>(length) - 1, builders);
    if (!st.ok()) return st.WithContext("INDEXED log record " + std::to_string(r));
    if (change_types) change_types->push_back(change_type);
    pos += 4 + static_cast<size_t>(length);
  }
  if (pos != end)
    return Status::Protocol("INDEXED log batch has " + std::to_string(end - pos) + " bytes after its " +
                            std::to_string(header.record_count) + " records");

  std::vector<std::shared_ptr<arrow::Array>> arrays;
  arrays.reserve(owned.size());
  for (auto& b : owned) {
    std::shared_ptr<arrow::Array> a;
    auto st = b->Finish(&a);
    if (!st.ok()) return Status::Internal("finishing a decoded column: " + st.ToString());
    arrays.push_back(std::move(a));
  }
  return arrow::RecordBatch::Make(schema, header.record_count, std::move(arrays));
}

}  // namespace fluss::record

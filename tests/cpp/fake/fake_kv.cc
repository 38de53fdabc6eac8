#include "fake/fake_kv.h"

#include "fluss/protocol/errors.h"
#include "fluss/record/kv_batch.h"
#include "fluss/util/bytes.h"

namespace fluss::fake {

PutOutcome BucketKv::Put(std::string_view records) {
  PutOutcome out;
  auto batch = record::ParseKvBatch(reinterpret_cast<const uint8_t*>(records.data()), records.size());
  if (!batch.ok()) {
    out.error_code = protocol::CORRUPT_RECORD_EXCEPTION;
    out.error_message = batch.status().message();
    return out;
  }
  if (batch->writer_id >= 0) {
    int64_t dup_offset = 0;
    switch (writers_.Check(batch->writer_id, batch->batch_sequence, std::nullopt, &dup_offset, &out.error_message)) {
      case WriterStates::Verdict::kDuplicate:
        // The leader rolls the duplicate back and answers success (protocol-rpc.md 9.3).
        out.duplicate = true;
        out.log_end_offset = log_end_offset_;
        return out;
      case WriterStates::Verdict::kOutOfOrder:
        out.error_code = protocol::OUT_OF_ORDER_SEQUENCE_EXCEPTION;
        return out;
      case WriterStates::Verdict::kInSequence:
        break;
    }
  }
  for (const auto& r : batch->records) {
    if (!r.value) {
      rows_.erase(std::string(r.key));
      continue;
    }
    // What the leader stores (and lookups return): [int16 LE schema id][row] (protocol-data.md 9).
    std::string value(2, '\0');
    util::PutLe<int16_t>(reinterpret_cast<uint8_t*>(value.data()), batch->schema_id);
    value.append(*r.value);
    rows_[std::string(r.key)] = std::move(value);
  }
  if (batch->writer_id >= 0) writers_.Record(batch->writer_id, batch->batch_sequence, log_end_offset_);
  log_end_offset_ += static_cast<int64_t>(batch->records.size());
  ++batches_applied_;
  out.log_end_offset = log_end_offset_;
  return out;
}

std::optional<std::string> BucketKv::Get(const std::string& key) const {
  auto it = rows_.find(key);
  if (it == rows_.end()) return std::nullopt;
  return it->second;
}

}  // namespace fluss::fake

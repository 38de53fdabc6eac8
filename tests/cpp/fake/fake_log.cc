#include "fake/fake_log.h"

#include <limits>

#include "fluss/protocol/errors.h"
#include "fluss/util/bytes.h"

namespace fluss::fake {

namespace {

AppendOutcome Refused(int32_t code, std::string message) {
  AppendOutcome out;
  out.error_code = code;
  out.error_message = std::move(message);
  return out;
}

}  // namespace

WriterStates::Verdict WriterStates::Check(int64_t writer, int32_t sequence, std::optional<int32_t> last_in_request,
                                          int64_t* duplicate_offset, std::string* error) const {
  auto it = writers_.find(writer);
  if (it != writers_.end()) {
    for (const auto& [seq, offset] : it->second.recent) {
      if (seq != sequence) continue;
      *duplicate_offset = offset;
      return Verdict::kDuplicate;
    }
  }
  const int32_t last = last_in_request ? *last_in_request : it != writers_.end() ? it->second.last_sequence : -1;
  // In sequence: last + 1, or 0 after INT32_MAX; the first batch of a new writer is 0.
  if (static_cast<int64_t>(sequence) == static_cast<int64_t>(last) + 1 ||
      (sequence == 0 && last == std::numeric_limits<int32_t>::max()))
    return Verdict::kInSequence;
  *error = "Out of order batch sequence for writer " + std::to_string(writer) + ": " + std::to_string(sequence) +
           " (incoming batch seq.), " + std::to_string(last) + " (current batch seq.)";
  return Verdict::kOutOfOrder;
}

void WriterStates::Record(int64_t writer, int32_t sequence, int64_t offset) {
  Writer& w = writers_[writer];
  w.last_sequence = sequence;
  w.recent.emplace_back(sequence, offset);
  while (w.recent.size() > 5) w.recent.pop_front();
}

AppendOutcome BucketLog::Append(std::string_view records, int64_t commit_timestamp_ms) {
  struct Parsed {
    record::LogBatchHeader header;
    std::string_view bytes;
  };
  std::vector<Parsed> parsed;
  const auto* data = reinterpret_cast<const uint8_t*>(records.data());
  size_t pos = 0;
  while (pos < records.size()) {
    auto h = record::ParseLogBatchHeader(data + pos, records.size() - pos);
    if (!h.ok()) return Refused(protocol::CORRUPT_RECORD_EXCEPTION, h.status().message());
    const size_t total = h->batch_size();
    if (total > records.size() - pos)
      return Refused(protocol::CORRUPT_RECORD_EXCEPTION, "truncated record batch in a produce request");
    if (record::ComputeBatchCrc(data + pos, total) != h->crc)
      return Refused(protocol::CORRUPT_RECORD_EXCEPTION, "record batch CRC mismatch");
    parsed.push_back(Parsed{*h, records.substr(pos, total)});
    pos += total;
  }
  if (parsed.empty()) return Refused(protocol::CORRUPT_RECORD_EXCEPTION, "no record batch in a produce request");

  // The writer state check of LogTablet.analyzeAndValidateWriterState, batch by batch: a
  // duplicate of a remembered batch answers with that batch's offset; otherwise the sequence
  // must follow the writer's last one (the batches before it in the same records included).
  std::map<int64_t, int32_t> last_in_request;
  for (const auto& p : parsed) {
    const int64_t writer = p.header.writer_id;
    if (writer == record::kNoWriterId) continue;
    auto in_request = last_in_request.find(writer);
    int64_t dup_offset = -1;
    std::string error;
    switch (writers_.Check(writer, p.header.batch_sequence,
                           in_request == last_in_request.end() ? std::nullopt : std::optional(in_request->second),
                           &dup_offset, &error)) {
      case WriterStates::Verdict::kDuplicate: {
        AppendOutcome dup;
        dup.duplicate = true;
        dup.base_offset = dup_offset;
        return dup;
      }
      case WriterStates::Verdict::kOutOfOrder:
        return Refused(protocol::OUT_OF_ORDER_SEQUENCE_EXCEPTION, error);
      case WriterStates::Verdict::kInSequence:
        last_in_request[writer] = p.header.batch_sequence;
        break;
    }
  }

  AppendOutcome out;
  out.base_offset = end_offset_;
  for (const auto& p : parsed) {
    StoredBatch stored;
    stored.bytes.assign(p.bytes);
    auto* b = reinterpret_cast<uint8_t*>(stored.bytes.data());
    // Base offset and commit timestamp lie outside the CRC'd range [25, end): the CRC stays valid.
    util::PutLe<int64_t>(b + 0, end_offset_);
    util::PutLe<int64_t>(b + 13, commit_timestamp_ms);
    stored.header = p.header;
    stored.header.base_offset = end_offset_;
    stored.header.commit_timestamp = commit_timestamp_ms;
    if (p.header.writer_id != record::kNoWriterId) writers_.Record(p.header.writer_id, p.header.batch_sequence, end_offset_);
    end_offset_ = stored.header.next_offset();
    batches_.push_back(std::move(stored));
  }
  return out;
}

std::string BucketLog::Read(int64_t offset, int32_t max_bytes, bool min_one) const {
  std::string out;
  for (const auto& b : batches_) {
    if (b.header.next_offset() <= offset) continue;
    if ((!out.empty() || !min_one) && out.size() + b.bytes.size() > static_cast<size_t>(max_bytes)) break;
    out += b.bytes;
  }
  return out;
}

int64_t BucketLog::OffsetForTimestamp(int64_t timestamp_ms) const {
  for (const auto& b : batches_)
    if (b.header.commit_timestamp >= timestamp_ms) return b.header.base_offset;
  return end_offset_;
}

}  // namespace fluss::fake

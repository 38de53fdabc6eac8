#include "fluss/protocol/produce_log.h"

#include "fluss/util/bytes.h"

namespace fluss::protocol {

void PutVarint(std::string* out, uint64_t v) { util::AppendVarint64(out, v); }

namespace {
constexpr uint8_t Tag(int field, int wire_type) { return static_cast<uint8_t>(field << 3 | wire_type); }
// int32 fields are varints of the value sign-extended to 64 bits.
uint64_t Int32Wire(int32_t v) { return static_cast<uint64_t>(static_cast<int64_t>(v)); }
}  // namespace

std::vector<EncodedPiece> EncodeProduceLogRequest(int32_t acks, int64_t table_id, int32_t timeout_ms,
                                                  const std::vector<ProduceBucket>& buckets, size_t reserve) {
  std::vector<EncodedPiece> pieces;
  EncodedPiece head;
  head.bytes.assign(reserve, '\0');
  head.bytes.push_back(static_cast<char>(Tag(1, 0)));
  PutVarint(&head.bytes, Int32Wire(acks));
  head.bytes.push_back(static_cast<char>(Tag(2, 0)));
  PutVarint(&head.bytes, static_cast<uint64_t>(table_id));
  head.bytes.push_back(static_cast<char>(Tag(3, 0)));
  PutVarint(&head.bytes, Int32Wire(timeout_ms));
  pieces.push_back(std::move(head));
  std::string* cur = &pieces.back().bytes;
  for (const auto& b : buckets) {
    // The PbProduceLogReqForBucket message: its length covers the fields and the records.
    std::string inner;
    if (b.partition_id) {
      inner.push_back(static_cast<char>(Tag(1, 0)));
      PutVarint(&inner, static_cast<uint64_t>(*b.partition_id));
    }
    inner.push_back(static_cast<char>(Tag(2, 0)));
    PutVarint(&inner, Int32Wire(b.bucket_id));
    inner.push_back(static_cast<char>(Tag(3, 2)));
    PutVarint(&inner, b.size);
    const size_t message_size = inner.size() + b.size;
    cur->push_back(static_cast<char>(Tag(4, 2)));
    PutVarint(cur, message_size);
    cur->append(inner);
    EncodedPiece records;
    records.owner = b.owner;
    records.data = b.records;
    records.size = b.size;
    pieces.push_back(std::move(records));
    pieces.emplace_back();  // owned bytes of the next bucket, if any
    cur = &pieces.back().bytes;
  }
  if (pieces.back().owner == nullptr && pieces.back().bytes.empty()) pieces.pop_back();
  return pieces;
}

}  // namespace fluss::protocol

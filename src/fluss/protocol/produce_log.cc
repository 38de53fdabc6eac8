#include "fluss/protocol/produce_log.h"

#include "fluss/protocol/wire.h"

namespace fluss::protocol {

std::vector<EncodedPiece> StartWriteRequest(int32_t acks, int64_t table_id, int32_t timeout_ms, size_t reserve) {
  std::vector<EncodedPiece> pieces(1);
  std::string* head = &pieces.back().bytes;
  head->assign(reserve, '\0');
  wire::AppendInt32(head, 1, acks);
  wire::AppendInt64(head, 2, table_id);
  wire::AppendInt32(head, 3, timeout_ms);
  return pieces;
}

void AppendBucketRecords(std::vector<EncodedPiece>* pieces, int field, const std::vector<ProduceBucket>& buckets) {
  std::string* cur = &pieces->back().bytes;
  for (const auto& b : buckets) {
    // The per-bucket message: its length covers the leading fields and the borrowed records.
    std::string inner;
    if (b.partition_id) wire::AppendInt64(&inner, 1, *b.partition_id);
    wire::AppendInt32(&inner, 2, b.bucket_id);
    wire::AppendLengthDelimitedHeader(&inner, 3, b.size);
    wire::AppendLengthDelimitedHeader(cur, field, inner.size() + b.size);
    cur->append(inner);
    EncodedPiece records;
    records.owner = b.owner;
    records.data = b.records;
    records.size = b.size;
    pieces->push_back(std::move(records));
    pieces->emplace_back();  // owned bytes that follow, if any
    cur = &pieces->back().bytes;
  }
}

std::vector<EncodedPiece> EncodeProduceLogRequest(int32_t acks, int64_t table_id, int32_t timeout_ms,
                                                  const std::vector<ProduceBucket>& buckets, size_t reserve) {
  std::vector<EncodedPiece> pieces = StartWriteRequest(acks, table_id, timeout_ms, reserve);
  AppendBucketRecords(&pieces, 4, buckets);
  if (pieces.back().owner == nullptr && pieces.back().bytes.empty()) pieces.pop_back();
  return pieces;
}

}  // namespace fluss::protocol

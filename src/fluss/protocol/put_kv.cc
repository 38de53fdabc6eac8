#include "fluss/protocol/put_kv.h"

#include "fluss/protocol/wire.h"

namespace fluss::protocol {

std::vector<EncodedPiece> EncodePutKvRequest(int32_t acks, int64_t table_id, int32_t timeout_ms,
                                             const std::vector<int32_t>& target_columns,
                                             std::optional<int32_t> agg_mode, const std::vector<PutKvBucket>& buckets,
                                             size_t reserve) {
  std::vector<EncodedPiece> pieces(1);
  std::string* cur = &pieces.back().bytes;
  cur->assign(reserve, '\0');
  wire::AppendInt32(cur, 1, acks);
  wire::AppendInt64(cur, 2, table_id);
  wire::AppendInt32(cur, 3, timeout_ms);
  wire::AppendPackedInt32(cur, 4, target_columns);
  for (const auto& b : buckets) {
    // PbPutKvReqForBucket: its length covers the leading fields and the borrowed records.
    std::string inner;
    if (b.partition_id) wire::AppendInt64(&inner, 1, *b.partition_id);
    wire::AppendInt32(&inner, 2, b.bucket_id);
    wire::AppendLengthDelimitedHeader(&inner, 3, b.size);
    wire::AppendLengthDelimitedHeader(cur, 5, inner.size() + b.size);
    cur->append(inner);
    EncodedPiece records;
    records.owner = b.owner;
    records.data = b.records;
    records.size = b.size;
    pieces.push_back(std::move(records));
    pieces.emplace_back();  // owned bytes that follow, if any
    cur = &pieces.back().bytes;
  }
  if (agg_mode) wire::AppendInt32(cur, 6, *agg_mode);
  if (pieces.back().owner == nullptr && pieces.back().bytes.empty()) pieces.pop_back();
  return pieces;
}

}  // namespace fluss::protocol

#include "fluss/protocol/put_kv.h"

#include "fluss/protocol/wire.h"

namespace fluss::protocol {

std::vector<EncodedPiece> EncodePutKvRequest(int32_t acks, int64_t table_id, int32_t timeout_ms,
                                             const std::vector<int32_t>& target_columns,
                                             std::optional<int32_t> agg_mode, const std::vector<PutKvBucket>& buckets,
                                             size_t reserve) {
  std::vector<EncodedPiece> pieces = StartWriteRequest(acks, table_id, timeout_ms, reserve);
  wire::AppendPackedInt32(&pieces.back().bytes, 4, target_columns);
  AppendBucketRecords(&pieces, 5, buckets);
  if (agg_mode) wire::AppendInt32(&pieces.back().bytes, 6, *agg_mode);
  if (pieces.back().owner == nullptr && pieces.back().bytes.empty()) pieces.pop_back();
  return pieces;
}

}  // namespace fluss::protocol

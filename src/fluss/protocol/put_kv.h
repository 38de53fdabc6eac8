// PutKvRequest (api key 1016, versions 0..1; protocol-rpc.md 11.2 and 3.3) encoded by hand in
// protobuf wire format, so KV record batches (record/kv_batch.h) go to the socket without being
// copied through protobuf strings:
//   1 acks int32 | 2 table_id int64 | 3 timeout_ms int32 | 4 target_columns packed int32 |
//   5 buckets_req repeated { 1 partition_id int64 opt | 2 bucket_id int32 | 3 records bytes } |
//   6 agg_mode int32 opt
// Fields are written in field-number order, so the bytes equal the generated serialiser's.
// The response (PutKvResponse) is small and is parsed with the generated message; its per-bucket
// results are matched with bucket_response.h.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fluss/protocol/produce_log.h"

namespace fluss::protocol {

/// One bucket of a PutKvRequest: partition (absent for a non-partitioned table), bucket and one
/// borrowed KV batch (`records`, `size`, kept alive by `owner`). Same shape as a produce bucket.
using PutKvBucket = ProduceBucket;

/// agg_mode values (0.9+).
inline constexpr int32_t kAggModeAggregate = 0;  ///< the table's merge engine (default)
inline constexpr int32_t kAggModeOverwrite = 1;  ///< bypass the merge engine

/// Encodes the request body as pieces: the first holds `reserve` zero bytes (the frame prefix)
/// followed by the leading fields; each KV batch is a borrowed piece, not copied.
/// `acks` 0, 1 or -1 (all); `timeout_ms` the server-side wait for acks = -1; `target_columns`
/// the column indexes of a partial update (all primary-key columns included), empty for a full
/// row; `agg_mode` written when set (the Java 0.9 client always sets it; a 0.8 server ignores it).
/// All batches of one request share target columns and agg_mode.
std::vector<EncodedPiece> EncodePutKvRequest(int32_t acks, int64_t table_id, int32_t timeout_ms,
                                             const std::vector<int32_t>& target_columns,
                                             std::optional<int32_t> agg_mode, const std::vector<PutKvBucket>& buckets,
                                             size_t reserve);

}  // namespace fluss::protocol

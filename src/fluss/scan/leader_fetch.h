// What one FetchLog response of one bucket leader brings (protocol-rpc.md 11.3): the fetched
// batches per table bucket (partition id included), not decoded yet, where each bucket's read
// position moves to, and which metadata the per-bucket errors call stale.
//
// Thread affinity: none; pure functions over the caller's response.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <arrow/buffer.h>

#include "fluss/metadata/table_bucket.h"
#include "fluss/net/server_connection.h"
#include "fluss/record/log_batch.h"
#include "fluss/status.h"

namespace fluss::scan {

/// A fetched batch not decoded yet: rows [from, to) (relative to its base offset) of the batch
/// in `slice`, read from `bucket`.
struct RawBatch {
  metadata::TableBucket bucket;
  std::shared_ptr<arrow::Buffer> slice;
  record::LogBatchHeader header;
  int64_t from = 0;
  int64_t to = 0;
};

/// What one fetch from one leader produced.
struct LeaderFetch {
  std::vector<RawBatch> batches;
  std::map<metadata::TableBucket, int64_t> next_positions;  ///< buckets that advanced
  /// Buckets whose answer ended in a batch cut short at the bucket's byte limit: that batch's
  /// whole size in bytes, to ask for next time (else the same cut happens again).
  std::map<metadata::TableBucket, int64_t> next_batch_bytes;
  bool retry = false;             ///< a retriable per-bucket error happened
  bool invalidate_table = false;  ///< a bucket of the (non-partitioned) table has a stale leader
  /// Partitions whose buckets the server does not know here (UNKNOWN_TABLE_OR_BUCKET 21,
  /// NOT_LEADER_OR_FOLLOWER 12, PARTITION_NOT_EXISTS 36): their leaders are to be refreshed at
  /// the coordinator, which also tells whether they were dropped.
  std::set<int64_t> stale_partitions;
};

/// Takes the batches of `response` (a FetchLogResponse body, read and rewritten in place by
/// protocol::ParseFetchLogResponse), the answer to a fetch of `positions` (bucket -> fetch
/// offset); the batches are slices of its frame, which they keep alive. Rows before a bucket's fetch offset are skipped; with
/// `stop`, rows at or past a bucket's stop offset are left out too. Buckets the response names
/// but `positions` does not are ignored. `table` (e.g. "db.t") names the table in messages.
/// Fails with a bucket's server error when it is not retriable (FENCED_LEADER_EPOCH 24 and the
/// partition errors above excepted), kUnsupported for records tiered to remote storage, or a
/// malformed response's or batch's error (kProtocol).
Result<LeaderFetch> TakeLeaderFetch(const net::ResponseBody& response,
                                    const std::map<metadata::TableBucket, int64_t>& positions,
                                    const std::optional<std::map<metadata::TableBucket, int64_t>>& stop,
                                    const std::string& table);

}  // namespace fluss::scan

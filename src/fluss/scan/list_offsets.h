// ListOffsets (api key 1021) for buckets of a table or of its partitions, asked of each bucket's
// current leader (protocol-rpc.md section 8: a follower answers with its own, lagging high
// watermark, so leaders are refreshed at the coordinator first).
//
// Thread affinity: I/O thread only.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <asio.hpp>

#include "fluss/metadata/cluster.h"
#include "fluss/metadata/table_bucket.h"
#include "fluss/types.h"

namespace fluss::scan {

/// kInvalidArgument when a bucket is outside `table` or its partition id does not fit the kind
/// of table (absent for a non-partitioned table, present for a partitioned one).
Status CheckBuckets(const TableInfo& table, const std::vector<metadata::TableBucket>& buckets);

/// What ListBucketOffsets found: the offset of every bucket asked for, except the buckets of
/// partitions the coordinator no longer knows (dropped meanwhile), whose ids are in
/// `missing_partitions`.
struct BucketOffsets {
  std::map<metadata::TableBucket, int64_t> offsets;
  std::set<int64_t> missing_partitions;
};

/// Offsets of `buckets` of `table`: buckets of the table itself (partition id absent) for a
/// non-partitioned table, buckets of partitions (by id) for a partitioned one. `offset_type`:
/// 0 earliest (log start), 1 latest (high watermark), 2 the first offset committed at or after
/// `timestamp_ms` (epoch ms). One request per leader and partition. Leader changes are retried
/// until client.request-timeout. Fails with kInvalidArgument for a bucket outside the table or a
/// partition id on the wrong kind of table, or the last retriable error at the deadline.
asio::awaitable<Result<BucketOffsets>> ListBucketOffsets(std::shared_ptr<metadata::Cluster> cluster, TableInfo table,
                                                         std::vector<metadata::TableBucket> buckets,
                                                         int32_t offset_type, std::optional<int64_t> timestamp_ms);

/// Offsets of `buckets` of `table` (bucket id -> offset), as ListBucketOffsets. With
/// `partition_name`, the buckets are those of that partition of a partitioned table. Fails with
/// kInvalidArgument for a bucket outside the table, PARTITION_NOT_EXISTS (36),
/// TABLE_NOT_PARTITIONED_EXCEPTION (37), or the last retriable error at the deadline.
asio::awaitable<Result<std::map<int32_t, int64_t>>> ListOffsets(std::shared_ptr<metadata::Cluster> cluster,
                                                                TableInfo table, std::vector<int32_t> buckets,
                                                                int32_t offset_type, std::optional<int64_t> timestamp_ms,
                                                                std::optional<std::string> partition_name = std::nullopt);

}  // namespace fluss::scan

#include "fluss/scan/list_offsets.h"

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/errors.h"
#include "fluss/protocol/list_offsets.h"

namespace fluss::scan {

using metadata::Clock;
using metadata::TableBucket;
using protocol::ApiKey;

Status CheckBuckets(const TableInfo& table, const std::vector<TableBucket>& buckets) {
  const std::string path = table.table_path.ToString();
  for (const auto& b : buckets) {
    if (b.partition_id.has_value() != table.IsPartitioned())
      return Status::InvalidArgument("table " + path + (table.IsPartitioned() ? " is partitioned: name the partition of bucket "
                                                                               : " is not partitioned: no partition for bucket ") +
                                     std::to_string(b.bucket));
    if (b.bucket < 0 || b.bucket >= table.num_buckets)
      return Status::InvalidArgument("bucket " + std::to_string(b.bucket) + " is outside table " + path + " (" +
                                     std::to_string(table.num_buckets) + " buckets)");
  }
  return Status::OK();
}

asio::awaitable<Result<BucketOffsets>> ListBucketOffsets(std::shared_ptr<metadata::Cluster> cluster, TableInfo table,
                                                         std::vector<TableBucket> buckets, int32_t offset_type,
                                                         std::optional<int64_t> timestamp_ms) {
  const TablePath& path = table.table_path;
  Status checked = CheckBuckets(table, buckets);
  if (!checked.ok()) co_return checked;
  const bool partitioned = table.IsPartitioned();
  const auto deadline = Clock::now() + std::chrono::milliseconds(cluster->options().request_timeout_ms);
  BucketOffsets out;
  std::vector<TableBucket> todo = std::move(buckets);
  int attempt = 0;
  while (!todo.empty()) {
    if (cluster->closed()) co_return Status::Closed("the connection is closed");
    Status last = Status::Timeout("table " + path.ToString() + ": bucket leaders not available within client.request-timeout");
    // Always ask the coordinator for the current leaders first: a cached leader may have lost
    // its leadership and, still hosting a replica, would answer with its own lagging high
    // watermark (protocol-rpc.md section 8).
    if (partitioned) {
      std::set<int64_t> ids;
      for (const auto& b : todo) ids.insert(*b.partition_id);
      const std::vector<int64_t> id_list(ids.begin(), ids.end());
      auto missing = co_await cluster->RefreshPartitions(path, id_list);
      if (!missing.ok() && !missing.status().IsRetriable()) co_return missing.status().WithContext("list offsets");
      if (!missing.ok()) last = missing.status();
      if (missing.ok() && !missing->empty()) {
        out.missing_partitions.insert(missing->begin(), missing->end());
        std::erase_if(todo, [&](const TableBucket& b) { return missing->count(*b.partition_id) > 0; });
      }
    } else {
      const std::vector<TablePath> tables{path};
      Status refreshed = co_await cluster->RefreshMetadata(tables);
      if (!refreshed.ok() && !refreshed.IsRetriable()) co_return refreshed.WithContext("list offsets of " + path.ToString());
      Status st = co_await cluster->WaitForLeaders(path, table.num_buckets, deadline);
      if (!st.ok()) co_return st;
    }
    // One request per leader and partition (a request names one partition).
    std::map<std::pair<int32_t, std::optional<int64_t>>, std::vector<int32_t>> by_leader;
    std::vector<TableBucket> retry;
    for (const auto& b : todo) {
      auto leader = cluster->metadata().Leader(b);
      if (leader) by_leader[{*leader, b.partition_id}].push_back(b.bucket);
      else retry.push_back(b);
    }
    for (auto& [target, bs] : by_leader) {
      const auto& [leader, partition_id] = target;
      const std::string where = "table " + path.ToString() +
                                (partition_id ? " partition " + std::to_string(*partition_id) : std::string());
      const proto::ListOffsetsRequest req =
          protocol::MakeListOffsetsRequest(table.table_id, partition_id, bs, offset_type, timestamp_ms);
      auto conn = cluster->TabletServer(leader);
      // (No co_await inside ?: — GCC 12 mishandles the temporaries of such expressions.)
      Result<proto::ListOffsetsResponse> resp = Status::Network("leader unknown");
      if (conn) resp = co_await cluster->Call<proto::ListOffsetsResponse>(conn, ApiKey::LIST_OFFSETS, req);
      if (!resp.ok()) {
        if (!resp.status().IsRetriable()) co_return resp.status().WithContext("list offsets of " + where);
        last = resp.status();
        for (int32_t b : bs) retry.push_back(TableBucket{table.table_id, partition_id, b});
        continue;
      }
      // The response echoes no partition id: its buckets are those of this request's partition.
      const auto results = protocol::ParseListOffsetsResponse(*resp, where);
      for (const auto& r : results) {
        const TableBucket tb{table.table_id, partition_id, r.bucket_id};
        if (r.status.ok()) {
          out.offsets[tb] = r.offset;
          continue;
        }
        if (!r.status.IsRetriable()) co_return r.status;
        last = r.status;
        retry.push_back(tb);
      }
    }
    if (retry.empty()) break;
    if (Clock::now() >= deadline) co_return last;
    if (!partitioned) cluster->metadata().InvalidateTable(path);
    co_await cluster->Sleep(std::chrono::milliseconds(std::min(100 << std::min(attempt++, 3), 1000)));
    todo = std::move(retry);
  }
  co_return out;
}

asio::awaitable<Result<std::map<int32_t, int64_t>>> ListOffsets(
    std::shared_ptr<metadata::Cluster> cluster, TableInfo table, std::vector<int32_t> buckets, int32_t offset_type,
    std::optional<int64_t> timestamp_ms, std::optional<std::string> partition_name) {
  const TablePath& path = table.table_path;
  const std::string where = partition_name ? path.ToString() + " partition " + *partition_name : path.ToString();
  if (partition_name && !table.IsPartitioned())
    co_return Status::Server(protocol::TABLE_NOT_PARTITIONED_EXCEPTION, "table " + path.ToString() + " is not partitioned");
  if (!partition_name && table.IsPartitioned())
    co_return Status::InvalidArgument("table " + path.ToString() + " is partitioned: name the partition (list_partition_offsets)");
  for (int32_t b : buckets)
    if (b < 0 || b >= table.num_buckets)
      co_return Status::InvalidArgument("bucket " + std::to_string(b) + " is outside table " + where +
                                        " (" + std::to_string(table.num_buckets) + " buckets)");
  std::optional<int64_t> partition_id;
  if (partition_name) {
    auto pl = co_await cluster->PartitionLeaders(path, *partition_name);
    if (!pl.ok()) co_return pl.status();
    partition_id = pl->first;
  }
  std::vector<TableBucket> tbs;
  for (int32_t b : buckets) tbs.push_back(TableBucket{table.table_id, partition_id, b});
  auto got = co_await ListBucketOffsets(cluster, table, std::move(tbs), offset_type, timestamp_ms);
  if (!got.ok()) co_return got.status();
  if (!got->missing_partitions.empty())
    co_return Status::Server(protocol::PARTITION_NOT_EXISTS, "table " + where + " does not exist (dropped)");
  std::map<int32_t, int64_t> out;
  for (const auto& [tb, off] : got->offsets) out[tb.bucket] = off;
  co_return out;
}

}  // namespace fluss::scan

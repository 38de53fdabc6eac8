#include "fluss/scan/list_offsets.h"

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/list_offsets.h"

namespace fluss::scan {

using metadata::Clock;
using protocol::ApiKey;

asio::awaitable<Result<std::map<int32_t, int64_t>>> ListOffsets(
    std::shared_ptr<metadata::Cluster> cluster, TableInfo table, std::vector<int32_t> buckets, int32_t offset_type,
    std::optional<int64_t> timestamp_ms, std::optional<std::string> partition_name) {
  const TablePath& path = table.table_path;
  const std::string where = partition_name ? path.ToString() + " partition " + *partition_name : path.ToString();
  if (partition_name && !table.IsPartitioned())
    co_return Status::Server(37, "table " + path.ToString() + " is not partitioned");
  if (!partition_name && table.IsPartitioned())
    co_return Status::InvalidArgument("table " + path.ToString() + " is partitioned: name the partition (list_partition_offsets)");
  for (int32_t b : buckets)
    if (b < 0 || b >= table.num_buckets)
      co_return Status::InvalidArgument("bucket " + std::to_string(b) + " is outside table " + where +
                                        " (" + std::to_string(table.num_buckets) + " buckets)");
  const auto deadline = Clock::now() + std::chrono::milliseconds(cluster->options().request_timeout_ms);
  std::map<int32_t, int64_t> out;
  std::vector<int32_t> todo = std::move(buckets);
  int attempt = 0;
  while (!todo.empty()) {
    if (cluster->closed()) co_return Status::Closed("the connection is closed");
    // Leaders of the buckets asked for: the table's, or the partition's.
    std::map<int32_t, int32_t> leaders;
    std::optional<int64_t> partition_id;
    if (partition_name) {
      auto pl = co_await cluster->PartitionLeaders(path, *partition_name);
      if (!pl.ok()) co_return pl.status();
      partition_id = pl->first;
      leaders = std::move(pl->second);
    } else {
      // Always ask the coordinator for the current leaders first: a cached leader may have
      // lost its leadership and, still hosting a replica, would answer with its own lagging
      // high watermark (protocol-rpc.md section 8).
      const std::vector<TablePath> tables{path};
      Status refreshed = co_await cluster->RefreshMetadata(tables);
      if (!refreshed.ok() && !refreshed.IsRetriable()) co_return refreshed.WithContext("list offsets of " + where);
      Status st = co_await cluster->WaitForLeaders(path, table.num_buckets, deadline);
      if (!st.ok()) co_return st;
      for (int32_t b : todo) leaders[b] = *cluster->metadata().Leader(path, b);
    }
    std::map<int32_t, std::vector<int32_t>> by_leader;
    std::vector<int32_t> retry;
    for (int32_t b : todo) {
      auto it = leaders.find(b);
      if (it == leaders.end()) retry.push_back(b);
      else by_leader[it->second].push_back(b);
    }
    Status last = Status::Timeout("table " + where + ": bucket leaders not available within client.request-timeout");
    for (auto& [leader, bs] : by_leader) {
      const proto::ListOffsetsRequest req =
          protocol::MakeListOffsetsRequest(table.table_id, partition_id, bs, offset_type, timestamp_ms);
      auto conn = cluster->TabletServer(leader);
      // (No co_await inside ?: — GCC 12 mishandles the temporaries of such expressions.)
      Result<proto::ListOffsetsResponse> resp = Status::Network("leader unknown");
      if (conn) resp = co_await cluster->Call<proto::ListOffsetsResponse>(conn, ApiKey::LIST_OFFSETS, req);
      if (!resp.ok()) {
        if (!resp.status().IsRetriable()) co_return resp.status().WithContext("list offsets of " + where);
        last = resp.status();
        retry.insert(retry.end(), bs.begin(), bs.end());
        continue;
      }
      const auto results = protocol::ParseListOffsetsResponse(*resp, "table " + where);
      for (const auto& r : results) {
        if (r.status.ok()) {
          out[r.bucket_id] = r.offset;
          continue;
        }
        if (!r.status.IsRetriable()) co_return r.status;
        last = r.status;
        retry.push_back(r.bucket_id);
      }
    }
    if (retry.empty()) break;
    if (Clock::now() >= deadline) co_return last;
    cluster->metadata().InvalidateTable(path);
    co_await cluster->Sleep(std::chrono::milliseconds(std::min(100 << std::min(attempt++, 3), 1000)));
    todo = std::move(retry);
  }
  co_return out;
}

}  // namespace fluss::scan

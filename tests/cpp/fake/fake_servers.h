// What the fake coordinator and tablet servers know and answer: the tables (path, id, schema,
// table JSON written by metadata/table_json.h), the leader of each bucket, each bucket's log
// (fake_log.h) or key-value state (fake_kv.h), writer ids, and one handler per API, each turning
// a request body into the response message a Fluss 0.9.1 server would send (protocol-rpc.md
// sections 3, 5, 6, 8, 9, 11).
//
// Not modelled (a test needing them must not use the fake): partitions (metadata for partition
// names or ids answers PARTITION_NOT_EXISTS), projection pushdown and partial updates (answered
// per bucket with UNKNOWN_SERVER_ERROR), followers and replication (acks are not waited for; the
// high watermark is the log end offset), remote log segments, the changelog of primary-key
// tables and their merge engines, prefix lookups, limit scans, admin calls that change anything
// (create/drop database, table, partition), authentication.
//
// Thread affinity: none; not thread-safe (FakeCluster calls it under its mutex).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <google/protobuf/message.h>

#include "fake/fake_kv.h"
#include "fake/fake_log.h"
#include "fake/fake_script.h"
#include "fluss/types.h"

namespace fluss::fake {

/// A handler's answer to one request.
struct Answer {
  std::unique_ptr<google::protobuf::Message> response;  ///< the XxxResponse; null: ERROR_RESPONSE
  int32_t error_code = 0;                                ///< when `response` is null
  std::string error_message;
  bool silent = false;       ///< no answer at all (an unparsable body, as a real server)
  bool appended = false;     ///< records were stored (a waiting fetch may now be answered)
  /// FetchLog only: no bucket had records or an error, and the request lets the server wait
  /// (min_bytes set) up to `max_wait_ms` for data, as the real server does.
  bool may_wait = false;
  int32_t max_wait_ms = 0;
};

class FakeServers {
 public:
  explicit FakeServers(int tablet_servers) : tablet_servers_(tablet_servers) {}

  int tablet_servers() const { return tablet_servers_; }
  /// Where the coordinator (kCoordinator) and each tablet server listen, for metadata answers.
  void SetPort(int32_t server, int32_t port) { ports_[server] = port; }

  /// Adds a table (bucket_count defaults to 1, as the server's default.bucket.number) with id
  /// 1, 2, ... in order and schema id 1; bucket b is led by tablet server b % tablet_servers.
  int64_t AddTable(const TablePath& path, TableDescriptor descriptor);
  /// Moves the leadership of `bucket` of `table_id` to tablet server `server` (the old leader
  /// then answers NOT_LEADER_OR_FOLLOWER for it); bumps the leader epoch.
  void SetLeader(int64_t table_id, int32_t bucket, int32_t server);
  int32_t Leader(int64_t table_id, int32_t bucket) const;
  /// The log of `bucket` of `table_id` (created empty on first use).
  BucketLog& Log(int64_t table_id, int32_t bucket) { return logs_[{table_id, bucket}]; }
  /// The key-value state of `bucket` of the primary-key table `table_id` (created empty).
  BucketKv& Kv(int64_t table_id, int32_t bucket) { return kvs_[{table_id, bucket}]; }

  /// Whether `server` serves `key` (what its ApiVersions answer lists): unserved keys get no
  /// answer at all, as from a real server.
  bool Serves(int32_t server, protocol::ApiKey key) const;
  /// Fills `request->buckets` and `request->batches` from `body` (attempt numbers counted here).
  void Describe(std::string_view body, Request* request);
  /// Answers `body` of api `key` sent to `server`. `action` may name buckets to answer with an
  /// error instead (Action::BucketError); for an API without buckets such an error fails the
  /// whole request.
  Answer Handle(protocol::ApiKey key, int32_t server, std::string_view body, const Action& action);

 private:
  struct Table {
    TablePath path;
    int64_t id = 0;
    TableDescriptor descriptor;
    std::string table_json;
    std::string schema_json;
    std::vector<int32_t> leaders;
    std::vector<int32_t> epochs;
  };
  /// The script's view of a batch sent (again) to `bucket`, its attempt counted.
  RequestBatch Seen(int64_t table_id, int32_t bucket, int64_t writer_id, int32_t sequence, uint32_t crc, int32_t records);
  const Table* FindTable(int64_t id) const;
  const Table* FindTable(const TablePath& path) const;
  /// A per-bucket error and its message (code 0: none).
  struct Refusal {
    int32_t code = 0;
    std::string message;
  };
  /// The per-bucket error `server` answers for `bucket` (of partition `partition_id`) of table
  /// `table_id`, code 0 when it serves it: unknown table or bucket (21; every partition bucket,
  /// partitions not being modelled), not the leader (12), or the action's error.
  Refusal Refuse(int64_t table_id, std::optional<int64_t> partition_id, int32_t bucket, int32_t server,
                 const Action& action) const;

  Answer ApiVersions(int32_t server) const;
  Answer Metadata(std::string_view body) const;
  Answer GetTableInfo(std::string_view body) const;
  Answer GetTableSchema(std::string_view body) const;
  Answer InitWriter(std::string_view body);
  Answer ProduceLog(std::string_view body, int32_t server, const Action& action);
  Answer FetchLog(std::string_view body, int32_t server, const Action& action);
  Answer ListOffsets(std::string_view body, int32_t server, const Action& action);
  Answer PutKv(std::string_view body, int32_t server, const Action& action);
  Answer Lookup(std::string_view body, int32_t server, const Action& action);

  const int tablet_servers_;
  std::map<int32_t, int32_t> ports_;
  std::vector<Table> tables_;
  std::map<std::pair<int64_t, int32_t>, BucketLog> logs_;
  std::map<std::pair<int64_t, int32_t>, BucketKv> kvs_;
  int64_t next_writer_id_ = 0;
  int64_t last_commit_ms_ = 0;
  /// Times each produced batch was seen: (table, bucket, writer id, sequence or CRC) -> count.
  std::map<std::tuple<int64_t, int32_t, int64_t, int64_t>, int> seen_batches_;
};

}  // namespace fluss::fake

// Admin: database and table calls (protocol-rpc.md section 6) and ListOffsets (section 8).
#include "fluss/client/connection_impl.h"

#include <algorithm>

#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include "fluss/metadata/table_json.h"
#include "fluss/protocol/partition_requests.h"
#include "fluss/row/partition_name.h"
#include "fluss/scan/list_offsets.h"
#include "fluss/proto/fluss_api.pb.h"

namespace fluss {

using metadata::Cluster;
using protocol::ApiKey;

namespace {

// "a, b" for error messages.
std::string JoinKeys(const std::vector<std::string>& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : ", ") + k;
  return out;
}

void SetPath(proto::PbTablePath* p, const TablePath& path) {
  p->set_database_name(path.database_name);
  p->set_table_name(path.table_name);
}

// Runs a coordinator call whose response carries nothing but success.
template <typename Resp, typename Req>
void CoordinatorStatusCall(const std::shared_ptr<Cluster>& impl, ApiKey key, Req req,
                           std::string context, StatusCallback done) {
  impl->SpawnStatus(
      [](std::shared_ptr<Cluster> c, ApiKey k, Req r, std::string ctx) -> asio::awaitable<Status> {
        auto resp = co_await c->CallCoordinator<Resp>(k, r);
        if (resp.ok()) co_return Status::OK();
        co_return resp.status().WithContext(ctx);
      }(impl, key, std::move(req), std::move(context)),
      std::move(done));
}

Status CheckName(const std::string& name, const char* what) {
  if (name.empty()) return Status::InvalidArgument(std::string(what) + " must not be empty");
  if (name.size() > 200) return Status::InvalidArgument(std::string(what) + " '" + name + "' is longer than 200 characters");
  for (char ch : name) {
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-'))
      return Status::InvalidArgument(std::string(what) + " '" + name +
                                     "' may contain only ASCII letters, digits, '_' and '-'");
  }
  return Status::OK();
}

}  // namespace

void Admin::CreateDatabaseAsync(const std::string& name, const DatabaseDescriptor& descriptor,
                                bool ignore_if_exists, StatusCallback done) {
  Status st = CheckName(name, "database name");
  if (!st.ok()) return done(st);
  proto::CreateDatabaseRequest req;
  req.set_database_name(name);
  req.set_ignore_if_exists(ignore_if_exists);
  req.set_database_json(metadata::DatabaseDescriptorToJson(descriptor));
  CoordinatorStatusCall<proto::CreateDatabaseResponse>(impl_->cluster(), ApiKey::CREATE_DATABASE, std::move(req),
                                                       "database " + name, std::move(done));
}

void Admin::DropDatabaseAsync(const std::string& name, bool ignore_if_not_exists, bool cascade,
                              StatusCallback done) {
  proto::DropDatabaseRequest req;
  req.set_database_name(name);
  req.set_ignore_if_not_exists(ignore_if_not_exists);
  req.set_cascade(cascade);
  CoordinatorStatusCall<proto::DropDatabaseResponse>(impl_->cluster(), ApiKey::DROP_DATABASE, std::move(req),
                                                     "database " + name, std::move(done));
}

void Admin::ListDatabasesAsync(Callback<std::vector<std::string>> done) {
  impl_->cluster()->Spawn<std::vector<std::string>>(
      [](std::shared_ptr<Cluster> c) -> asio::awaitable<Result<std::vector<std::string>>> {
        proto::ListDatabasesRequest req;
        auto resp = co_await c->CallCoordinator<proto::ListDatabasesResponse>(ApiKey::LIST_DATABASES, req);
        if (!resp.ok()) co_return resp.status();
        co_return std::vector<std::string>(resp->database_name().begin(), resp->database_name().end());
      }(impl_->cluster()),
      std::move(done));
}

void Admin::DatabaseExistsAsync(const std::string& name, Callback<bool> done) {
  impl_->cluster()->Spawn<bool>(
      [](std::shared_ptr<Cluster> c, std::string n) -> asio::awaitable<Result<bool>> {
        proto::DatabaseExistsRequest req;
        req.set_database_name(n);
        auto resp = co_await c->CallCoordinator<proto::DatabaseExistsResponse>(ApiKey::DATABASE_EXISTS, req);
        if (!resp.ok()) co_return resp.status().WithContext("database " + n);
        co_return resp->exists();
      }(impl_->cluster(), name),
      std::move(done));
}

void Admin::GetDatabaseInfoAsync(const std::string& name, Callback<DatabaseInfo> done) {
  impl_->cluster()->Spawn<DatabaseInfo>(
      [](std::shared_ptr<Cluster> c, std::string n) -> asio::awaitable<Result<DatabaseInfo>> {
        proto::GetDatabaseInfoRequest req;
        req.set_database_name(n);
        auto resp = co_await c->CallCoordinator<proto::GetDatabaseInfoResponse>(ApiKey::GET_DATABASE_INFO, req);
        if (!resp.ok()) co_return resp.status().WithContext("database " + n);
        auto desc = metadata::DatabaseDescriptorFromJson(resp->database_json());
        if (!desc.ok()) co_return desc.status();
        DatabaseInfo info;
        info.database_name = n;
        info.descriptor = std::move(*desc);
        info.created_time = resp->created_time();
        info.modified_time = resp->modified_time();
        co_return info;
      }(impl_->cluster(), name),
      std::move(done));
}

void Admin::CreateTableAsync(const TablePath& path, const TableDescriptor& descriptor,
                             bool ignore_if_exists, StatusCallback done) {
  Status st = CheckName(path.database_name, "database name");
  if (st.ok()) st = CheckName(path.table_name, "table name");
  if (!st.ok()) return done(st);
  auto json = metadata::TableDescriptorToJson(descriptor);
  if (!json.ok()) return done(json.status().WithContext("table " + path.ToString()));
  proto::CreateTableRequest req;
  SetPath(req.mutable_table_path(), path);
  req.set_table_json(*json);
  req.set_ignore_if_exists(ignore_if_exists);
  CoordinatorStatusCall<proto::CreateTableResponse>(impl_->cluster(), ApiKey::CREATE_TABLE, std::move(req),
                                                    "table " + path.ToString(), std::move(done));
}

void Admin::DropTableAsync(const TablePath& path, bool ignore_if_not_exists, StatusCallback done) {
  proto::DropTableRequest req;
  SetPath(req.mutable_table_path(), path);
  req.set_ignore_if_not_exists(ignore_if_not_exists);
  CoordinatorStatusCall<proto::DropTableResponse>(impl_->cluster(), ApiKey::DROP_TABLE, std::move(req),
                                                  "table " + path.ToString(), std::move(done));
}

void Admin::AlterTableAsync(const TablePath& path, const TableChanges& changes, bool ignore_if_not_exists,
                            StatusCallback done) {
  const std::string where = "table " + path.ToString();
  if (changes.set_properties.empty() && changes.reset_properties.empty() && changes.add_columns.empty())
    return done(Status::InvalidArgument(where + ": alter_table without any change"));
  proto::AlterTableRequest req;
  SetPath(req.mutable_table_path(), path);
  req.set_ignore_if_not_exists(ignore_if_not_exists);
  for (const auto& [key, value] : changes.set_properties) {
    auto* c = req.add_config_changes();
    c->set_config_key(key);
    c->set_config_value(value);
    c->set_op_type(0);  // SET
  }
  for (const auto& key : changes.reset_properties) {
    auto* c = req.add_config_changes();
    c->set_config_key(key);
    c->set_op_type(1);  // DELETE: back to the default
  }
  for (const auto& field : changes.add_columns) {
    if (!field) return done(Status::InvalidArgument(where + ": add_columns holds a null field"));
    if (!field->nullable())
      return done(Status::InvalidArgument(where + ": added column '" + field->name() +
                                          "' must be nullable (rows written before have no value for it)"));
    auto type = metadata::ArrowFieldToFlussType(*field);
    if (!type.ok()) return done(type.status().WithContext(where));
    auto* c = req.add_add_columns();
    c->set_column_name(field->name());
    c->set_data_type_json(type->dump());
    if (field->metadata()) {
      auto comment = field->metadata()->Get("comment");
      if (comment.ok()) c->set_comment(*comment);
    }
    c->set_column_position_type(0);  // LAST
  }
  CoordinatorStatusCall<proto::AlterTableResponse>(impl_->cluster(), ApiKey::ALTER_TABLE, std::move(req), where,
                                                   std::move(done));
}

void Admin::GetTableInfoAsync(const TablePath& path, Callback<TableInfo> done) {
  impl_->cluster()->Spawn<TableInfo>(impl_->cluster()->FetchTableInfo(path), std::move(done));
}

void Admin::ListTablesAsync(const std::string& database, Callback<std::vector<std::string>> done) {
  impl_->cluster()->Spawn<std::vector<std::string>>(
      [](std::shared_ptr<Cluster> c, std::string db) -> asio::awaitable<Result<std::vector<std::string>>> {
        proto::ListTablesRequest req;
        req.set_database_name(db);
        auto resp = co_await c->CallCoordinator<proto::ListTablesResponse>(ApiKey::LIST_TABLES, req);
        if (!resp.ok()) co_return resp.status().WithContext("database " + db);
        co_return std::vector<std::string>(resp->table_name().begin(), resp->table_name().end());
      }(impl_->cluster(), database),
      std::move(done));
}

void Admin::TableExistsAsync(const TablePath& path, Callback<bool> done) {
  impl_->cluster()->Spawn<bool>(
      [](std::shared_ptr<Cluster> c, TablePath p) -> asio::awaitable<Result<bool>> {
        proto::TableExistsRequest req;
        SetPath(req.mutable_table_path(), p);
        auto resp = co_await c->CallCoordinator<proto::TableExistsResponse>(ApiKey::TABLE_EXISTS, req);
        if (!resp.ok()) co_return resp.status().WithContext("table " + p.ToString());
        co_return resp->exists();
      }(impl_->cluster(), path),
      std::move(done));
}

void Admin::ListOffsetsAsync(const TablePath& path, std::vector<int32_t> bucket_ids, OffsetType type,
                             std::optional<int64_t> timestamp_ms, Callback<std::map<int32_t, int64_t>> done) {
  if (type == OffsetType::kTimestamp && !timestamp_ms)
    return done(Status::InvalidArgument("list_offsets: offset type 'timestamp' needs a timestamp"));
  impl_->cluster()->Spawn<std::map<int32_t, int64_t>>(
      [](std::shared_ptr<Cluster> c, TablePath p, std::vector<int32_t> buckets, OffsetType t,
         std::optional<int64_t> ts) -> asio::awaitable<Result<std::map<int32_t, int64_t>>> {
        auto info = co_await c->FetchTableInfo(p);
        if (!info.ok()) co_return info.status();
        co_return co_await scan::ListOffsets(c, *info, buckets, static_cast<int32_t>(t), ts);
      }(impl_->cluster(), path, std::move(bucket_ids), type, timestamp_ms),
      std::move(done));
}

void Admin::GetServerNodesAsync(Callback<std::vector<ServerNode>> done) {
  impl_->cluster()->Spawn<std::vector<ServerNode>>(
      [](std::shared_ptr<Cluster> c) -> asio::awaitable<Result<std::vector<ServerNode>>> {
        const std::vector<TablePath> no_tables;
        Status st = co_await c->RefreshMetadata(no_tables);
        if (!st.ok()) co_return st;
        std::vector<ServerNode> nodes;
        if (const auto& cs = c->metadata().coordinator())
          nodes.push_back(ServerNode{cs->node_id, cs->host, cs->port, true});
        for (const auto& [id, ts] : c->metadata().tablet_servers()) nodes.push_back(ServerNode{id, ts.host, ts.port, false});
        co_return nodes;
      }(impl_->cluster()),
      std::move(done));
}

void Admin::ListBucketLeadersAsync(const TablePath& path, Callback<std::map<int32_t, int32_t>> done) {
  impl_->cluster()->Spawn<std::map<int32_t, int32_t>>(
      [](std::shared_ptr<Cluster> c, TablePath p) -> asio::awaitable<Result<std::map<int32_t, int32_t>>> {
        const std::vector<TablePath> tables{p};
        Status st = co_await c->RefreshMetadata(tables);
        if (!st.ok()) co_return st.WithContext("table " + p.ToString());
        co_return c->metadata().Leaders(p);
      }(impl_->cluster(), path),
      std::move(done));
}

void Admin::ListPartitionBucketLeadersAsync(const TablePath& path, const std::string& partition_name,
                                            Callback<std::map<int32_t, int32_t>> done) {
  impl_->cluster()->Spawn<std::map<int32_t, int32_t>>(
      [](std::shared_ptr<Cluster> c, TablePath p, std::string name) -> asio::awaitable<Result<std::map<int32_t, int32_t>>> {
        auto leaders = co_await c->PartitionLeaders(p, name);
        if (!leaders.ok()) co_return leaders.status();
        co_return std::move(leaders->second);
      }(impl_->cluster(), path, partition_name),
      std::move(done));
}

void Admin::ListPartitionOffsetsAsync(const TablePath& path, const std::string& partition_name,
                                      std::vector<int32_t> bucket_ids, OffsetType type,
                                      std::optional<int64_t> timestamp_ms, Callback<std::map<int32_t, int64_t>> done) {
  if (type == OffsetType::kTimestamp && !timestamp_ms)
    return done(Status::InvalidArgument("list_partition_offsets: offset type 'timestamp' needs a timestamp"));
  impl_->cluster()->Spawn<std::map<int32_t, int64_t>>(
      [](std::shared_ptr<Cluster> c, TablePath p, std::string partition, std::vector<int32_t> buckets,
         OffsetType t, std::optional<int64_t> ts) -> asio::awaitable<Result<std::map<int32_t, int64_t>>> {
        auto info = co_await c->FetchTableInfo(p);
        if (!info.ok()) co_return info.status();
        const std::optional<std::string> name = partition;
        co_return co_await scan::ListOffsets(c, *info, buckets, static_cast<int32_t>(t), ts, name);
      }(impl_->cluster(), path, partition_name, std::move(bucket_ids), type, timestamp_ms),
      std::move(done));
}

namespace {
std::string SpecString(const std::map<std::string, std::string>& spec) {
  std::string s;
  for (const auto& [k, v] : spec) s += (s.empty() ? "" : "/") + k + "=" + v;
  return s;
}
}  // namespace

void Admin::CreatePartitionAsync(const TablePath& path, const std::map<std::string, std::string>& spec,
                                 bool ignore_if_exists, StatusCallback done) {
  if (spec.empty()) return done(Status::InvalidArgument("create_partition: the partition spec is empty"));
  for (const auto& [key, value] : spec) {
    // The server's rules (protocol-data.md 8), checked first so the error names the key.
    Status st = row::CheckPartitionValue(value, key);
    if (st.ok() && value.rfind("__", 0) == 0)
      st = Status::InvalidArgument("partition column '" + key + "': the partition value '" + value +
                                   "' must not start with '__' (reserved)");
    if (!st.ok()) return done(st.WithContext("create_partition of table " + path.ToString()));
  }
  CoordinatorStatusCall<proto::CreatePartitionResponse>(impl_->cluster(), ApiKey::CREATE_PARTITION,
                                                        protocol::MakeCreatePartitionRequest(path, spec, ignore_if_exists),
                                                        "table " + path.ToString() + " partition " + SpecString(spec),
                                                        std::move(done));
}

void Admin::DropPartitionAsync(const TablePath& path, const std::map<std::string, std::string>& spec,
                               bool ignore_if_not_exists, StatusCallback done) {
  CoordinatorStatusCall<proto::DropPartitionResponse>(impl_->cluster(), ApiKey::DROP_PARTITION,
                                                      protocol::MakeDropPartitionRequest(path, spec, ignore_if_not_exists),
                                                      "table " + path.ToString() + " partition " + SpecString(spec),
                                                      std::move(done));
}

void Admin::ListPartitionInfosAsync(const TablePath& path, Callback<std::vector<PartitionInfo>> done) {
  ListPartitionInfosAsync(path, {}, std::move(done));
}

void Admin::ListPartitionInfosAsync(const TablePath& path, const std::map<std::string, std::string>& partial_spec,
                                    Callback<std::vector<PartitionInfo>> done) {
  impl_->cluster()->Spawn<std::vector<PartitionInfo>>(
      [](std::shared_ptr<Cluster> c, TablePath p,
         std::map<std::string, std::string> filter) -> asio::awaitable<Result<std::vector<PartitionInfo>>> {
        // Partition names join the values in partition-key order, which the table knows.
        auto info = co_await c->FetchTableInfo(p);
        if (!info.ok()) co_return info.status();
        const auto& keys = info->descriptor.partition_keys;
        proto::ListPartitionInfosRequest req;
        SetPath(req.mutable_table_path(), p);
        if (!filter.empty()) {
          auto* spec = req.mutable_partial_partition_spec();
          for (const auto& [key, value] : filter) {
            if (std::find(keys.begin(), keys.end(), key) == keys.end())
              co_return Status::InvalidArgument("table " + p.ToString() + ": partition_spec key '" + key +
                                                "' is not a partition key (" + JoinKeys(keys) + ")");
            auto* kv = spec->add_partition_key_values();
            kv->set_key(key);
            kv->set_value(value);
          }
        }
        auto resp = co_await c->CallCoordinator<proto::ListPartitionInfosResponse>(ApiKey::LIST_PARTITION_INFOS, req);
        if (!resp.ok()) co_return resp.status().WithContext("table " + p.ToString());
        std::vector<PartitionInfo> out;
        for (const auto& pi : resp->partitions_info()) {
          PartitionInfo x;
          x.partition_id = pi.partition_id();
          for (const auto& kv : pi.partition_spec().partition_key_values()) x.spec[kv.key()] = kv.value();
          for (const auto& key : keys) {
            if (!x.partition_name.empty()) x.partition_name += "$";
            x.partition_name += x.spec[key];
          }
          out.push_back(std::move(x));
        }
        co_return out;
      }(impl_->cluster(), path, partial_spec),
      std::move(done));
}

}  // namespace fluss

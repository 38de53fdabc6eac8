#include "fake/fake_servers.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "fake/fake_answers.h"
#include "fluss/metadata/table_json.h"
#include "fluss/record/kv_batch.h"

namespace fluss::fake {

using protocol::ApiKey;

int64_t FakeServers::AddTable(const TablePath& path, TableDescriptor descriptor) {
  if (!descriptor.bucket_count) descriptor.bucket_count = 1;
  // A real server materialises these defaults in the table JSON it returns (protocol-rpc.md 7.4).
  descriptor.properties.emplace("table.replication.factor", "1");
  if (!descriptor.schema.primary_keys.empty()) descriptor.properties.emplace("table.kv.format-version", "2");
  auto json = metadata::TableDescriptorToJson(descriptor);
  if (!json.ok()) throw std::invalid_argument("fake cluster: bad table " + path.ToString() + ": " + json.status().ToString());
  Table t;
  t.path = path;
  t.id = static_cast<int64_t>(tables_.size()) + 1;
  t.descriptor = std::move(descriptor);
  t.table_json = *json;
  t.schema_json = nlohmann::json::parse(t.table_json)["schema"].dump();
  for (int32_t b = 0; b < *t.descriptor.bucket_count; ++b) {
    t.leaders.push_back(b % tablet_servers_);
    t.epochs.push_back(0);
  }
  tables_.push_back(std::move(t));
  return tables_.back().id;
}

void FakeServers::SetLeader(int64_t table_id, int32_t bucket, int32_t server) {
  for (auto& t : tables_) {
    if (t.id != table_id) continue;
    t.leaders.at(static_cast<size_t>(bucket)) = server;
    ++t.epochs.at(static_cast<size_t>(bucket));
    return;
  }
  throw std::invalid_argument("fake cluster: no table " + std::to_string(table_id));
}

int32_t FakeServers::Leader(int64_t table_id, int32_t bucket) const {
  const Table* t = FindTable(table_id);
  return t && bucket >= 0 && bucket < static_cast<int32_t>(t->leaders.size()) ? t->leaders[static_cast<size_t>(bucket)] : -1;
}

const FakeServers::Table* FakeServers::FindTable(int64_t id) const {
  for (const auto& t : tables_)
    if (t.id == id) return &t;
  return nullptr;
}

const FakeServers::Table* FakeServers::FindTable(const TablePath& path) const {
  for (const auto& t : tables_)
    if (t.path == path) return &t;
  return nullptr;
}

bool FakeServers::Serves(int32_t server, ApiKey key) const {
  switch (key) {
    case ApiKey::API_VERSIONS:
    case ApiKey::GET_METADATA:
    case ApiKey::GET_TABLE_INFO:
    case ApiKey::GET_TABLE_SCHEMA:
      return true;  // coordinator and tablet servers (protocol-rpc.md 2.1)
    case ApiKey::PRODUCE_LOG:
    case ApiKey::FETCH_LOG:
    case ApiKey::LIST_OFFSETS:
    case ApiKey::INIT_WRITER:
    case ApiKey::PUT_KV:
    case ApiKey::LOOKUP:
      return server != kCoordinator;  // tablet servers only
    default:
      return false;
  }
}

RequestBatch FakeServers::Seen(int64_t table_id, int32_t bucket, int64_t writer_id, int32_t sequence, uint32_t crc,
                               int32_t records) {
  RequestBatch b;
  b.bucket = bucket;
  b.writer_id = writer_id;
  b.sequence = sequence;
  b.record_count = records;
  // A batch is the same batch again by writer id and sequence, or without them by its bytes.
  const int64_t identity = writer_id >= 0 ? sequence : static_cast<int64_t>(crc);
  b.attempt = seen_batches_[{table_id, bucket, writer_id, identity}]++;
  return b;
}

void FakeServers::Describe(std::string_view body, Request* request) {
  switch (request->api_key) {
    case ApiKey::PRODUCE_LOG: {
      proto::ProduceLogRequest req;
      if (!Parse(body, &req)) return;
      for (const auto& br : req.buckets_req()) {
        request->buckets.push_back(br.bucket_id());
        const auto* data = reinterpret_cast<const uint8_t*>(br.records().data());
        auto h = record::ParseLogBatchHeader(data, br.records().size());
        if (!h.ok()) continue;
        request->batches.push_back(
            Seen(req.table_id(), br.bucket_id(), h->writer_id, h->batch_sequence, h->crc, h->record_count));
      }
      return;
    }
    case ApiKey::PUT_KV: {
      proto::PutKvRequest req;
      if (!Parse(body, &req)) return;
      for (const auto& br : req.buckets_req()) {
        request->buckets.push_back(br.bucket_id());
        auto batch = record::ParseKvBatch(reinterpret_cast<const uint8_t*>(br.records().data()), br.records().size(), false);
        if (!batch.ok()) continue;
        request->batches.push_back(Seen(req.table_id(), br.bucket_id(), batch->writer_id, batch->batch_sequence,
                                        batch->crc, static_cast<int32_t>(batch->records.size())));
      }
      return;
    }
    case ApiKey::LOOKUP: {
      proto::LookupRequest req;
      if (!Parse(body, &req)) return;
      for (const auto& br : req.buckets_req()) request->buckets.push_back(br.bucket_id());
      return;
    }
    case ApiKey::FETCH_LOG: {
      proto::FetchLogRequest req;
      if (!Parse(body, &req)) return;
      for (const auto& tr : req.tables_req())
        for (const auto& br : tr.buckets_req()) request->buckets.push_back(br.bucket_id());
      return;
    }
    case ApiKey::LIST_OFFSETS: {
      proto::ListOffsetsRequest req;
      if (!Parse(body, &req)) return;
      for (int32_t b : req.bucket_id()) request->buckets.push_back(b);
      return;
    }
    default:
      return;
  }
}

FakeServers::Refusal FakeServers::Refuse(int64_t table_id, std::optional<int64_t> partition_id, int32_t bucket,
                                         int32_t server, const Action& action) const {
  const std::string where = "TableBucket{tableId=" + std::to_string(table_id) +
                            (partition_id ? ", partitionId=" + std::to_string(*partition_id) : std::string()) +
                            ", bucket=" + std::to_string(bucket) + "}";
  const Table* t = FindTable(table_id);
  if (!t || partition_id || bucket < 0 || bucket >= static_cast<int32_t>(t->leaders.size()))
    return {protocol::UNKNOWN_TABLE_OR_BUCKET_EXCEPTION, "Unknown table or bucket: " + where};
  if (t->leaders[static_cast<size_t>(bucket)] != server)
    return {protocol::NOT_LEADER_OR_FOLLOWER, "Leader not local for bucket " + where};
  if (action.error_code != 0 && (action.error_buckets.empty() || action.error_buckets.count(bucket)))
    return {action.error_code, !action.error_message.empty() ? action.error_message
                                                              : std::string(ErrorCodeName(action.error_code)) + " (fake) for " + where};
  return {};
}

Answer FakeServers::Handle(ApiKey key, int32_t server, std::string_view body, const Action& action) {
  switch (key) {
    case ApiKey::PRODUCE_LOG: return ProduceLog(body, server, action);
    case ApiKey::FETCH_LOG: return FetchLog(body, server, action);
    case ApiKey::LIST_OFFSETS: return ListOffsets(body, server, action);
    case ApiKey::PUT_KV: return PutKv(body, server, action);
    case ApiKey::LOOKUP: return Lookup(body, server, action);
    default: break;
  }
  // An API without buckets: a bucket error in the action fails the whole request.
  if (action.error_code != 0)
    return Fail(action.error_code, action.error_message.empty() ? ErrorCodeName(action.error_code) : action.error_message);
  switch (key) {
    case ApiKey::API_VERSIONS: return ApiVersions(server);
    case ApiKey::GET_METADATA: return Metadata(body);
    case ApiKey::GET_TABLE_INFO: return GetTableInfo(body);
    case ApiKey::GET_TABLE_SCHEMA: return GetTableSchema(body);
    case ApiKey::INIT_WRITER: return InitWriter(body);
    default: return Silence();
  }
}

Answer FakeServers::ApiVersions(int32_t server) const {
  auto resp = std::make_unique<proto::ApiVersionsResponse>();
  for (ApiKey k : {ApiKey::API_VERSIONS, ApiKey::GET_METADATA, ApiKey::GET_TABLE_INFO, ApiKey::GET_TABLE_SCHEMA,
                   ApiKey::PRODUCE_LOG, ApiKey::FETCH_LOG, ApiKey::LIST_OFFSETS, ApiKey::INIT_WRITER, ApiKey::PUT_KV,
                   ApiKey::LOOKUP}) {
    if (!Serves(server, k)) continue;
    auto* v = resp->add_api_versions();
    v->set_api_key(static_cast<int32_t>(k));
    v->set_min_version(0);
    // PUT_KV and LOOKUP at 0..1 as a 0.9.1 server (protocol-rpc.md 2.1, 3.3).
    v->set_max_version(k == ApiKey::PUT_KV || k == ApiKey::LOOKUP ? 1 : 0);
  }
  resp->set_server_type(server == kCoordinator ? 1 : 2);
  return Respond(std::move(resp));
}

Answer FakeServers::Metadata(std::string_view body) const {
  proto::MetadataRequest req;
  if (!Parse(body, &req)) return Silence();
  if (req.partitions_path_size() > 0 || req.partitions_id_size() > 0)
    return Fail(protocol::PARTITION_NOT_EXISTS, "partitions are not modelled by the fake cluster");
  auto resp = std::make_unique<proto::MetadataResponse>();
  auto node = [this](proto::PbServerNode* n, int32_t server) {
    n->set_node_id(server == kCoordinator ? 0 : server);
    n->set_host("127.0.0.1");
    n->set_port(ports_.at(server));
  };
  node(resp->mutable_coordinator_server(), kCoordinator);
  for (int32_t s = 0; s < tablet_servers_; ++s) node(resp->add_tablet_servers(), s);
  for (const auto& tp : req.table_path()) {
    const Table* t = FindTable(PathOf(tp));
    if (!t) return TableNotExist(tp);
    auto* tm = resp->add_table_metadata();
    *tm->mutable_table_path() = tp;
    tm->set_table_id(t->id);
    tm->set_schema_id(1);
    tm->set_table_json(t->table_json);
    tm->set_created_time(1);
    tm->set_modified_time(1);
    for (size_t b = 0; b < t->leaders.size(); ++b) {
      auto* bm = tm->add_bucket_metadata();
      bm->set_bucket_id(static_cast<int32_t>(b));
      bm->set_leader_id(t->leaders[b]);
      bm->add_replica_id(t->leaders[b]);
      bm->set_leader_epoch(t->epochs[b]);
    }
  }
  return Respond(std::move(resp));
}

Answer FakeServers::GetTableInfo(std::string_view body) const {
  proto::GetTableInfoRequest req;
  if (!Parse(body, &req)) return Silence();
  const Table* t = FindTable(PathOf(req.table_path()));
  if (!t) return TableNotExist(req.table_path());
  auto resp = std::make_unique<proto::GetTableInfoResponse>();
  resp->set_table_id(t->id);
  resp->set_schema_id(1);
  resp->set_table_json(t->table_json);
  resp->set_created_time(1);
  resp->set_modified_time(1);
  return Respond(std::move(resp));
}

Answer FakeServers::GetTableSchema(std::string_view body) const {
  proto::GetTableSchemaRequest req;
  if (!Parse(body, &req)) return Silence();
  const Table* t = FindTable(PathOf(req.table_path()));
  if (!t) return TableNotExist(req.table_path());
  if (req.has_schema_id() && req.schema_id() != 1)
    return Fail(protocol::SCHEMA_NOT_EXIST, "schema " + std::to_string(req.schema_id()) + " does not exist");
  auto resp = std::make_unique<proto::GetTableSchemaResponse>();
  resp->set_schema_id(1);
  resp->set_schema_json(t->schema_json);
  return Respond(std::move(resp));
}

Answer FakeServers::InitWriter(std::string_view body) {
  proto::InitWriterRequest req;
  if (!Parse(body, &req)) return Silence();
  auto resp = std::make_unique<proto::InitWriterResponse>();
  resp->set_writer_id(next_writer_id_++);
  return Respond(std::move(resp));
}

}  // namespace fluss::fake

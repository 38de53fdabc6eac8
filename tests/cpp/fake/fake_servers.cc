#include "fake/fake_servers.h"

#include <chrono>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "fluss/metadata/table_json.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/errors.h"
#include "fluss/record/kv_batch.h"

namespace fluss::fake {

using protocol::ApiKey;

namespace {

Answer Respond(std::unique_ptr<google::protobuf::Message> m) {
  Answer a;
  a.response = std::move(m);
  return a;
}

Answer Fail(int32_t code, std::string message) {
  Answer a;
  a.error_code = code;
  a.error_message = std::move(message);
  return a;
}

/// What a real server does with a body it cannot parse: nothing (protocol-rpc.md 1.3).
Answer Silence() {
  Answer a;
  a.silent = true;
  return a;
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

template <typename Msg>
bool Parse(std::string_view body, Msg* m) {
  return m->ParseFromArray(body.data(), static_cast<int>(body.size()));
}

TablePath PathOf(const proto::PbTablePath& p) { return TablePath{p.database_name(), p.table_name()}; }

/// The partition id of a request entry, if it names one.
template <typename In>
std::optional<int64_t> PartitionOf(const In& in) {
  return in.has_partition_id() ? std::optional<int64_t>(in.partition_id()) : std::nullopt;
}

/// TABLE_NOT_EXIST with the real server's message.
Answer TableNotExist(const proto::PbTablePath& p) {
  return Fail(protocol::TABLE_NOT_EXIST, "Table '" + PathOf(p).ToString() + "' does not exist.");
}

}  // namespace

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

namespace {

/// Starts a per-bucket answer: the partition and bucket id of the request entry `in`.
template <typename Out, typename In>
void Echo(Out* out, const In& in) {
  if (in.has_partition_id()) out->set_partition_id(in.partition_id());
  out->set_bucket_id(in.bucket_id());
}

/// Writes error `code` (with `message`) into the per-bucket answer `out` unless it is 0; true then.
template <typename Out>
bool Refused(Out* out, int32_t code, const std::string& message) {
  if (code == 0) return false;
  out->set_error_code(code);
  out->set_error_message(message);
  return true;
}

bool ValidAcks(int32_t acks) { return acks == 0 || acks == 1 || acks == -1; }

/// The request-level error of a write with acks outside {0, 1, -1} (protocol-rpc.md 11.1).
Answer InvalidAcks(int32_t acks) {
  return Fail(protocol::INVALID_REQUIRED_ACKS, "Invalid required acks: " + std::to_string(acks));
}

}  // namespace

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

Answer FakeServers::ProduceLog(std::string_view body, int32_t server, const Action& action) {
  proto::ProduceLogRequest req;
  if (!Parse(body, &req)) return Silence();
  if (!ValidAcks(req.acks())) return InvalidAcks(req.acks());
  auto resp = std::make_unique<proto::ProduceLogResponse>();
  Answer answer;
  last_commit_ms_ = std::max(last_commit_ms_, NowMs());
  for (const auto& br : req.buckets_req()) {
    auto* out = resp->add_buckets_resp();
    Echo(out, br);
    const Refusal no = Refuse(req.table_id(), PartitionOf(br), br.bucket_id(), server, action);
    if (Refused(out, no.code, no.message)) continue;
    AppendOutcome got = Log(req.table_id(), br.bucket_id()).Append(br.records(), last_commit_ms_);
    if (Refused(out, got.error_code, got.error_message)) continue;
    out->set_base_offset(got.base_offset);
    answer.appended |= !got.duplicate;
  }
  answer.response = std::move(resp);
  return answer;
}

Answer FakeServers::FetchLog(std::string_view body, int32_t server, const Action& action) {
  proto::FetchLogRequest req;
  if (!Parse(body, &req)) return Silence();
  auto resp = std::make_unique<proto::FetchLogResponse>();
  int64_t budget = req.max_bytes();
  bool any_records = false;
  bool any_error = false;
  for (const auto& tr : req.tables_req()) {
    auto* tout = resp->add_tables_resp();
    tout->set_table_id(tr.table_id());
    for (const auto& br : tr.buckets_req()) {
      auto* out = tout->add_buckets_resp();
      Echo(out, br);
      auto [code, message] = Refuse(tr.table_id(), PartitionOf(br), br.bucket_id(), server, action);
      if (code == 0 && tr.projection_pushdown_enabled() && tr.projected_fields_size() > 0) {
        code = protocol::UNKNOWN_SERVER_ERROR;
        message = "projection pushdown is not modelled by the fake cluster";
      }
      const BucketLog* log = code == 0 ? &Log(tr.table_id(), br.bucket_id()) : nullptr;
      const int64_t offset = br.fetch_offset() == -2 ? 0 : br.fetch_offset();
      if (code == 0 && (offset < 0 || offset > log->end_offset())) {
        code = protocol::LOG_OFFSET_OUT_OF_RANGE_EXCEPTION;
        message = "fetch offset " + std::to_string(offset) + " is out of range [0, " +
                  std::to_string(log->end_offset()) + "]";
      }
      if (Refused(out, code, message)) {
        any_error = true;
        continue;
      }
      out->set_high_watermark(log->end_offset());
      out->set_log_start_offset(0);  // as the 0.9.1 server (protocol-rpc.md 11.3)
      // Each bucket reads at most min(max_fetch_bytes, what is left of the request's budget);
      // the first bucket with data returns at least one batch.
      if (any_records && budget <= 0) continue;
      std::string records = log->Read(offset, static_cast<int32_t>(std::min<int64_t>(br.max_fetch_bytes(), std::max<int64_t>(budget, 0))),
                                      !any_records);
      if (records.empty()) continue;
      budget -= static_cast<int64_t>(records.size());
      any_records = true;
      out->set_records(std::move(records));
    }
  }
  Answer answer;
  answer.may_wait = !any_records && !any_error && req.has_min_bytes() && req.min_bytes() > 0;
  answer.max_wait_ms = req.has_max_wait_ms() ? req.max_wait_ms() : 100;
  answer.response = std::move(resp);
  return answer;
}

Answer FakeServers::ListOffsets(std::string_view body, int32_t server, const Action& action) {
  proto::ListOffsetsRequest req;
  if (!Parse(body, &req)) return Silence();
  auto resp = std::make_unique<proto::ListOffsetsResponse>();
  for (int32_t bucket : req.bucket_id()) {
    auto* out = resp->add_buckets_resp();
    out->set_bucket_id(bucket);
    // (The answer echoes no partition id: protocol-rpc.md 8.)
    auto [code, message] = Refuse(req.table_id(), PartitionOf(req), bucket, server, action);
    int64_t offset = 0;
    if (code == 0) {
      const BucketLog& log = Log(req.table_id(), bucket);
      switch (req.offset_type()) {
        case 0: offset = 0; break;
        case 1: offset = log.end_offset(); break;
        case 2:
          if (!req.has_starttimestamp()) {
            code = protocol::UNKNOWN_SERVER_ERROR;
            message = "start timestamp is missing";
          } else if (req.starttimestamp() > NowMs()) {
            code = protocol::INVALID_TIMESTAMP_EXCEPTION;
            message = "timestamp " + std::to_string(req.starttimestamp()) + " is in the future";
          } else {
            offset = log.OffsetForTimestamp(req.starttimestamp());
          }
          break;
        default:
          code = protocol::UNKNOWN_SERVER_ERROR;
          message = "unknown offset type " + std::to_string(req.offset_type());
      }
    }
    if (!Refused(out, code, message)) out->set_offset(offset);
  }
  return Respond(std::move(resp));
}

Answer FakeServers::PutKv(std::string_view body, int32_t server, const Action& action) {
  proto::PutKvRequest req;
  if (!Parse(body, &req)) return Silence();
  if (!ValidAcks(req.acks())) return InvalidAcks(req.acks());
  const Table* t = FindTable(req.table_id());
  auto resp = std::make_unique<proto::PutKvResponse>();
  Answer answer;
  for (const auto& br : req.buckets_req()) {
    auto* out = resp->add_buckets_resp();
    Echo(out, br);
    auto [code, message] = Refuse(req.table_id(), PartitionOf(br), br.bucket_id(), server, action);
    if (code == 0 && t->descriptor.schema.primary_keys.empty()) {
      code = protocol::NON_PRIMARY_KEY_TABLE_EXCEPTION;
      message = "table " + t->path.ToString() + " has no primary key";
    }
    if (code == 0 && req.target_columns_size() > 0) {
      code = protocol::UNKNOWN_SERVER_ERROR;
      message = "partial updates are not modelled by the fake cluster";
    }
    if (Refused(out, code, message)) continue;
    PutOutcome got = Kv(req.table_id(), br.bucket_id()).Put(br.records());
    if (Refused(out, got.error_code, got.error_message)) continue;
    out->set_log_end_offset(got.log_end_offset);
  }
  answer.response = std::move(resp);
  return answer;
}

Answer FakeServers::Lookup(std::string_view body, int32_t server, const Action& action) {
  proto::LookupRequest req;
  if (!Parse(body, &req)) return Silence();
  auto resp = std::make_unique<proto::LookupResponse>();
  for (const auto& br : req.buckets_req()) {
    auto* out = resp->add_buckets_resp();
    Echo(out, br);
    const Refusal no = Refuse(req.table_id(), PartitionOf(br), br.bucket_id(), server, action);
    if (Refused(out, no.code, no.message)) continue;
    const BucketKv& kv = Kv(req.table_id(), br.bucket_id());
    // One PbValue per key, in request order; no `values` field means not found (11.4).
    for (const auto& key : br.keys()) {
      auto* v = out->add_values();
      if (auto value = kv.Get(key)) v->set_values(*value);
    }
  }
  return Respond(std::move(resp));
}

}  // namespace fluss::fake

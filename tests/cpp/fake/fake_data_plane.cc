// The data-plane handlers of the fake tablet servers (fake_servers.h): ProduceLog, FetchLog,
// ListOffsets, PutKv and Lookup, per bucket, as a 0.9.1 leader answers them (protocol-rpc.md 8,
// 11).
#include <algorithm>

#include "fake/fake_answers.h"
#include "fake/fake_servers.h"

namespace fluss::fake {

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

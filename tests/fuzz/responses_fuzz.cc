// libFuzzer target: a response frame as read off a socket (protocol/frame.h: the bytes after the
// frame length), its ErrorResponse, and the body parsed as one of the responses the client
// consumes, then handed to the code that consumes it: the metadata cache (MetadataResponse),
// the fetch splitter and the log decoders (FetchLogResponse), the lookup and prefix-lookup
// matchers and the value decoder, ListOffsets, LimitScan, the produce/put answers, and the
// table-info and schema JSON. FetchLogResponse bodies are also received in pieces through
// FetchLogPlacement and must parse as when received whole. Which response a body is taken for comes from its request id, as
// in the client, where the id names the request it answers.
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <arrow/buffer.h>
#include <google/protobuf/stubs/logging.h>

#include "fluss/metadata/metadata_cache.h"
#include "fluss/metadata/table_json.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/errors.h"
#include "fluss/protocol/fetch_log_placement.h"
#include "fluss/protocol/fetch_log_response.h"
#include "fluss/protocol/frame.h"
#include "fluss/protocol/limit_scan.h"
#include "fluss/protocol/list_offsets.h"
#include "fluss/protocol/lookup.h"
#include "fluss/protocol/prefix_lookup.h"
#include "fluss/record/arrow_log.h"
#include "fluss/row/kv_value.h"
#include "fluss/scan/leader_fetch.h"
#include "fuzz_consume.h"
#include "fuzz_schemas.h"

namespace {

using namespace fluss;
constexpr int64_t kTable = 1;
constexpr int64_t kPartition = 7;

void DecodeValues(const std::vector<std::string_view>& values) {
  static const auto schema = fuzz::ScalarSchema();
  fuzz::RowBuilders builders(schema);
  for (const auto& value : values) {
    const auto* v = reinterpret_cast<const uint8_t*>(value.data());
    auto view = row::ParseValue(v, value.size());
    if (!view.ok()) continue;
    (void)row::DecodeValue(v, value.size(), view->schema_id, fuzz::CodecOf(0), builders.raw);
  }
  builders.FinishAndConsume();
}

void Metadata(std::string_view body) {
  proto::MetadataResponse resp;
  if (!resp.ParseFromArray(body.data(), static_cast<int>(body.size()))) return;
  metadata::MetadataCache cache;
  cache.Update(resp);
  cache.Update(resp);  // a second identical answer replaces the first
  volatile int sink = 0;
  for (int32_t b = 0; b < 4; ++b) {
    sink = sink + cache.Leader(metadata::TableBucket{kTable, std::nullopt, b}).value_or(-1);
    sink = sink + cache.Leader(metadata::TableBucket{kTable, kPartition, b}).value_or(-1);
  }
  for (const auto& t : resp.table_metadata()) {
    const TablePath path{t.table_path().database_name(), t.table_path().table_name()};
    sink = sink + static_cast<int>(cache.Leaders(path).size());
    cache.InvalidateTable(path);
  }
}

/// The hand-written FetchLogResponse reader against protobuf's: whatever protobuf accepts, it
/// reads the same (buckets, ids, errors, records bytes), records aligned as it says.
void CheckFetchLogParse(std::string_view body) {
  proto::FetchLogResponse resp;
  if (!resp.ParseFromArray(body.data(), static_cast<int>(body.size()))) return;
  auto copy = net::ResponseBody::Copy(body);
  auto got = protocol::ParseFetchLogResponse(copy.data, copy.size);
  if (!got.ok()) __builtin_trap();
  size_t i = 0;
  for (const auto& t : resp.tables_resp()) {
    for (const auto& b : t.buckets_resp()) {
      if (i >= got->size()) __builtin_trap();
      const auto& g = (*got)[i++];
      if (g.table_id != t.table_id() || g.bucket.bucket_id != b.bucket_id() ||
          g.bucket.partition_id.has_value() != b.has_partition_id() ||
          (b.has_partition_id() && *g.bucket.partition_id != b.partition_id()) ||
          g.error_code != b.error_code() || g.error_message != b.error_message() ||
          g.has_remote_log_fetch_info != b.has_remote_log_fetch_info() || g.has_records != b.has_records() ||
          std::string_view(reinterpret_cast<const char*>(copy.data) + g.records_offset, g.records_size) != b.records())
        __builtin_trap();
    }
  }
  if (i != got->size()) __builtin_trap();
}

/// The body received in pieces through FetchLogPlacement (piece sizes taken from its own
/// bytes), then parsed with what was placed, against the body parsed whole: the same outcome,
/// buckets and records bytes, whatever the bytes.
void CheckFetchLogPlacement(std::string_view body) {
  auto whole = net::ResponseBody::Copy(body);
  auto want = protocol::ParseFetchLogResponse(whole.data, whole.size);
  auto placed_body = net::ResponseBody::Copy(body);
  protocol::FetchLogPlacement placement(placed_body.data, placed_body.size);
  size_t sent = 0;
  while (!placement.complete()) {
    uint8_t* dst = nullptr;
    size_t max = 0;
    placement.NextRead(&dst, &max);
    if (max == 0 || dst < placed_body.data) __builtin_trap();
    const size_t n = std::min<size_t>(max, 1 + static_cast<uint8_t>(body[sent % body.size()]) % 67);
    std::memcpy(dst, body.data() + sent, n);
    sent += n;
    placement.Received(n);
  }
  const auto placed = placement.Finish();
  auto got = protocol::ParseFetchLogResponse(placed_body.data, placed_body.size, placed);
  if (want.ok() != got.ok()) __builtin_trap();
  if (!want.ok()) return;
  if (want->size() != got->size()) __builtin_trap();
  for (size_t i = 0; i < want->size(); ++i) {
    const auto& w = (*want)[i];
    const auto& g = (*got)[i];
    if (w.table_id != g.table_id || w.bucket.bucket_id != g.bucket.bucket_id || w.error_code != g.error_code ||
        w.has_records != g.has_records ||
        std::string_view(reinterpret_cast<const char*>(whole.data) + w.records_offset, w.records_size) !=
            std::string_view(reinterpret_cast<const char*>(placed_body.data) + g.records_offset, g.records_size))
      __builtin_trap();
  }
}

void FetchLog(std::string_view body, bool with_stop) {
  if (!with_stop) {
    CheckFetchLogParse(body);
    if (!body.empty()) CheckFetchLogPlacement(body);
  }
  std::map<metadata::TableBucket, int64_t> positions;
  for (int32_t b = 0; b < 3; ++b) {
    positions[metadata::TableBucket{kTable, std::nullopt, b}] = b;
    positions[metadata::TableBucket{kTable, kPartition, b}] = 0;
  }
  std::optional<std::map<metadata::TableBucket, int64_t>> stop;
  if (with_stop) stop = std::map<metadata::TableBucket, int64_t>{{metadata::TableBucket{kTable, std::nullopt, 0}, 5}};
  auto fetched = scan::TakeLeaderFetch(net::ResponseBody::Copy(body), positions, stop, "db.t");
  if (!fetched.ok()) return;
  static const auto schema = fuzz::ScalarSchema();
  for (const auto& raw : fetched->batches) {
    if (raw.from < 0 || raw.to < raw.from) __builtin_trap();
    auto rb = record::DecodeArrowLogBatch(raw.slice, raw.header, schema);
    if (rb.ok()) fuzz::ConsumeBatch(*rb);
  }
}

void Lookup(std::string_view body) {
  proto::LookupResponse resp;
  if (!resp.ParseFromArray(body.data(), static_cast<int>(body.size()))) return;
  const std::vector<protocol::LookupBucketKeys> asked{{protocol::BucketRef{std::nullopt, 0}, {"k0", "k1"}},
                                                      {protocol::BucketRef{kPartition, 1}, {"k2"}}};
  auto matched = protocol::MatchLookupResponse(kTable, asked, resp);
  if (!matched.ok()) return;
  if (matched->size() != asked.size()) __builtin_trap();
  std::vector<std::string_view> values;
  for (size_t i = 0; i < matched->size(); ++i) {
    const auto& r = (*matched)[i];
    if (!r.status.ok()) continue;
    if (r.values.size() != asked[i].keys.size()) __builtin_trap();  // one answer per key asked
    for (const auto& v : r.values)
      if (v) values.push_back(*v);
  }
  DecodeValues(values);
}

void PrefixLookup(std::string_view body) {
  proto::PrefixLookupResponse resp;
  if (!resp.ParseFromArray(body.data(), static_cast<int>(body.size()))) return;
  const std::vector<protocol::PrefixLookupBucketKeys> asked{{protocol::BucketRef{std::nullopt, 2}, {"p0", "p1"}}};
  auto matched = protocol::MatchPrefixLookupResponse(kTable, asked, resp);
  if (!matched.ok()) return;
  std::vector<std::string_view> values;
  for (const auto& r : *matched)
    for (const auto& rows : r.values) values.insert(values.end(), rows.begin(), rows.end());
  DecodeValues(values);
}

void ListOffsets(std::string_view body) {
  proto::ListOffsetsResponse resp;
  if (!resp.ParseFromArray(body.data(), static_cast<int>(body.size()))) return;
  (void)protocol::ParseListOffsetsResponse(resp, "table db.t");
}

void LimitScan(std::string_view body) {
  proto::LimitScanResponse resp;
  if (!resp.ParseFromArray(body.data(), static_cast<int>(body.size()))) return;
  (void)protocol::ParseLimitScanResponse(kTable, protocol::BucketRef{std::nullopt, 0}, resp, true);
  (void)protocol::ParseLimitScanResponse(kTable, protocol::BucketRef{kPartition, 1}, resp);
}

template <typename Resp>
void BucketAnswers(std::string_view body) {
  Resp resp;
  if (!resp.ParseFromArray(body.data(), static_cast<int>(body.size()))) return;
  for (const auto& r : resp.buckets_resp())
    if (r.has_error_code()) (void)protocol::ServerError(r.error_code(), r.error_message(), "table db.t");
}

void TableInfoJson(std::string_view body) {
  proto::GetTableInfoResponse resp;
  if (!resp.ParseFromArray(body.data(), static_cast<int>(body.size()))) return;
  (void)metadata::TableDescriptorFromJson(resp.table_json());
}

void TableSchema(std::string_view body) {
  proto::GetTableSchemaResponse resp;
  if (!resp.ParseFromArray(body.data(), static_cast<int>(body.size()))) return;
  (void)metadata::SchemaFromJson(resp.schema_json());
}

}  // namespace

// This build has no NDEBUG, so protobuf checks proto2 `string` fields for UTF-8 and logs one
// line per bad field on stderr (the parse still succeeds, as in a Release build, which does not
// check). Silenced: at thousands of inputs a second it filled gigabytes of log.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // An exact-size heap copy of the frame, as the connection reads it.
  std::vector<uint8_t> frame(data, data + size);
  auto decoded = protocol::DecodeResponse(frame.data(), frame.size());
  if (!decoded.ok()) return 0;
  const std::string_view body = decoded->body;
  if (body.data() < reinterpret_cast<const char*>(frame.data()) ||
      body.data() + body.size() > reinterpret_cast<const char*>(frame.data() + frame.size()))
    __builtin_trap();  // the body must lie inside the frame
  if (decoded->type != protocol::ResponseType::kSuccess) {
    proto::ErrorResponse err;
    if (err.ParseFromArray(body.data(), static_cast<int>(body.size())))
      (void)protocol::ServerError(err.error_code(), err.has_error_message() ? err.error_message() : "");
    return 0;
  }
  const uint32_t kind = static_cast<uint32_t>(decoded->request_id);
  switch (kind % 10) {
    case 0: Metadata(body); break;
    case 1: FetchLog(body, (kind / 10) % 2 == 1); break;
    case 2: Lookup(body); break;
    case 3: PrefixLookup(body); break;
    case 4: ListOffsets(body); break;
    case 5: LimitScan(body); break;
    case 6: BucketAnswers<proto::ProduceLogResponse>(body); break;
    case 7: BucketAnswers<proto::PutKvResponse>(body); break;
    case 8: TableInfoJson(body); break;
    default: TableSchema(body); break;
  }
  return 0;
}

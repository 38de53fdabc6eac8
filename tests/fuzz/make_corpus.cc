// Writes the seed corpus of every fuzz target: valid encodings of the schemas of fuzz_schemas.h
// made by our encoders, and the bytes a real Fluss 0.9.1 server sent (tests/data), so the
// fuzzers start from inputs that reach deep into each decoder.
//
//   make_corpus <dir>    writes <dir>/<target>/<seed> for each target (tools/fuzz runs it)
//
// Every seed must decode: a seed that fails is a bug here or in a decoder, and exits 1.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <arrow/buffer.h>
#include <arrow/array.h>
#include <arrow/json/from_string.h>
#include <arrow/record_batch.h>
#include <arrow/util/compression.h>

#include "fluss/metadata/table_json.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/frame.h"
#include "fluss/record/arrow_log.h"
#include "fluss/record/indexed_log.h"
#include "fluss/record/kv_batch.h"
#include "fluss/record/log_batch.h"
#include "fluss/record/lz4_frame_codec.h"
#include "fluss/record/value_batch.h"
#include "fluss/row/kv_value.h"
#include "fluss/row/value_arena.h"
#include "fuzz_schemas.h"

namespace {

using namespace fluss;
namespace fs = std::filesystem;

fs::path g_root;
int g_count = 0;

[[noreturn]] void Die(const std::string& what) {
  std::cerr << "make_corpus: " << what << "\n";
  std::exit(1);
}

template <typename T>
T Check(Result<T> r, const std::string& what) {
  if (!r.ok()) Die(what + ": " + r.status().ToString());
  return std::move(*r);
}
void Check(const Status& st, const std::string& what) {
  if (!st.ok()) Die(what + ": " + st.ToString());
}

void Write(const std::string& target, const std::string& name, const std::string& bytes) {
  fs::create_directories(g_root / target);
  std::ofstream out(g_root / target / name, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) Die("cannot write " + (g_root / target / name).string());
  ++g_count;
}

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) Die("cannot read " + p.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Str(const std::shared_ptr<arrow::Buffer>& b) { return b->ToString(); }

std::shared_ptr<arrow::RecordBatch> Batch(const std::shared_ptr<arrow::Schema>& schema,
                                          const std::vector<std::string>& columns) {
  std::vector<std::shared_ptr<arrow::Array>> arrays;
  for (int i = 0; i < schema->num_fields(); ++i)
  {
    auto a = arrow::json::ArrayFromJSONString(schema->field(i)->type(), columns[i]);
    if (!a.ok()) Die("column " + schema->field(i)->name() + ": " + a.status().ToString());
    arrays.push_back(*a);
  }
  return arrow::RecordBatch::Make(schema, arrays[0]->length(), arrays);
}

// Three rows of each schema, nulls and extremes included.
std::shared_ptr<arrow::RecordBatch> ScalarRows() {
  return Batch(fuzz::ScalarSchema(),
               {"[1, 2, 3]", "[true, null, false]", "[-128, null, 127]", "[-32768, null, 32767]",
                "[9223372036854775807, null, -1]", "[1.5, null, -0.5]", "[-2.25, null, 1e300]",
                R"(["hello", null, "Grüße ✓"])", R"(["ab", null, "wxyz"])", R"(["\u0000\u0001", null, ""])",
                R"(["abc", null, "xyz"])", R"(["12345.67", null, "-0.01"])", "[19723, null, -1]",
                "[45296789, null, 0]", "[1704112496123456, null, -1]", "[1704112496123, null, 0]"});
}

std::shared_ptr<arrow::RecordBatch> NestedRows() {
  return Batch(fuzz::NestedSchema(),
               {"[1, 2, 3]", "[[1, null, 3], null, []]", R"([[["a", 1], ["b", null]], null, []])",
                R"([{"a": 7, "tags": ["x", null]}, null, {"a": null, "tags": null}])",
                "[[[1.5], null, []], null, [[]]]", R"(["123456789012345678901234.56", null, "-0.01"])",
                "[1704112496123456789, null, -1]"});
}

std::vector<std::vector<Value>> RowsOf(const arrow::RecordBatch& rb, row::ValueArena* arena) {
  std::vector<std::vector<Value>> rows(static_cast<size_t>(rb.num_rows()));
  for (int64_t r = 0; r < rb.num_rows(); ++r) Check(row::RowValuesFromArrow(rb, r, &rows[r], arena), "row values");
  return rows;
}

struct Sample {
  const char* name;
  uint8_t selector_bit;  // bit 0 of the targets' first byte: nested schema
  std::shared_ptr<arrow::RecordBatch> rows;
};

// Log batches: ARROW (each compression) and INDEXED, one and two batches back to back.
std::vector<std::string> LogSeeds(const Sample& s, bool indexed) {
  std::vector<std::string> blobs;
  if (indexed) {
    row::ValueArena arena;
    record::IndexedBatchBuilder b(s.rows->schema());
    for (const auto& row : RowsOf(*s.rows, &arena)) Check(b.Append(row.data()), "indexed append");
    const std::string one = Str(Check(b.Finish(1), "indexed finish"));
    blobs = {one, one + one};
  } else {
    for (const char* codec : {"NONE", "LZ4_FRAME", "ZSTD"}) {
      auto options = Check(record::ArrowWriteOptions(codec, 3), "write options");
      blobs.push_back(Str(Check(record::EncodeArrowLogBatch(*s.rows, 1, options), "arrow batch")));
    }
    blobs.push_back(blobs[0] + blobs[2]);
  }
  return blobs;
}

// Every batch of the records blob `blob` decodes; with `want`, each batch to exactly `want`.
void CheckLogBlob(const std::string& blob, const std::shared_ptr<arrow::Schema>& schema, bool indexed,
                  const std::shared_ptr<arrow::RecordBatch>& want, const std::string& name) {
  auto buffer = arrow::Buffer::FromString(blob);
  record::LogBatchIterator it(buffer->data(), static_cast<size_t>(buffer->size()));
  record::LogBatchHeader header;
  const uint8_t* batch = nullptr;
  Status status;
  int batches = 0;
  while (it.Next(&header, &batch, &status)) {
    if (record::ComputeBatchCrc(batch, header.batch_size()) != header.crc) Die(name + ": CRC mismatch");
    auto slice = arrow::SliceBuffer(buffer, batch - buffer->data(), static_cast<int64_t>(header.batch_size()));
    auto rb = Check(indexed ? record::DecodeIndexedLogBatch(slice, header, schema)
                            : record::DecodeArrowLogBatch(slice, header, schema),
                    name + ": decoding");
    if (!rb || (want && !rb->Equals(*want))) Die(name + ": decoded rows differ from the rows encoded");
    ++batches;
  }
  Check(status, name);
  if (batches == 0) Die(name + ": no batch");
}

void LogRecordSeeds(const std::vector<Sample>& samples) {
  int n = 0;
  for (const auto& s : samples)
    for (bool indexed : {false, true})
      for (const auto& blob : LogSeeds(s, indexed)) {
        const std::string name = "ours_" + std::to_string(n++);
        CheckLogBlob(blob, s.rows->schema(), indexed, s.rows, name);
        const char selector = static_cast<char>(s.selector_bit | (indexed ? 2 : 0));
        Write("log_records", name, std::string(1, selector) + blob);
      }
  for (const char* f : {"java_none.bin", "java_zstd.bin"}) {
    const std::string blob = ReadFile(fs::path(FLUSS_TEST_DATA_DIR) / f);
    CheckLogBlob(blob, fuzz::ScalarSchema(), false, nullptr, f);
    Write("log_records", std::string(f), std::string(1, '\0') + blob);
  }
}

// Value bytes (schema id + row) of every row of `s` in `format`.
std::vector<std::string> ValueBytes(const Sample& s, row::KvFormat format) {
  auto codec = Check(row::KvRowCodec::Make(*s.rows->schema(), format), "codec");
  row::ValueArena arena;
  std::vector<std::string> out;
  for (const auto& row : RowsOf(*s.rows, &arena)) {
    std::string v;
    Check(row::EncodeValue(1, codec, row.data(), &v), "encode value");
    out.push_back(std::move(v));
  }
  return out;
}

void RowAndKvSeeds(const std::vector<Sample>& samples) {
  int n = 0;
  for (const auto& s : samples)
    for (auto format : {row::KvFormat::kCompacted, row::KvFormat::kIndexed}) {
      const uint8_t bits = static_cast<uint8_t>(s.selector_bit | (format == row::KvFormat::kIndexed ? 2 : 0));
      const auto values = ValueBytes(s, format);
      record::KvBatchBuilder kv;
      for (size_t i = 0; i < values.size(); ++i) {
        Write("rows", "row_" + std::to_string(n) + "_" + std::to_string(i),
              std::string(1, static_cast<char>(bits)) + values[i].substr(2));  // the row after the schema id
        Check(kv.AppendUpsert("key" + std::to_string(i), values[i].substr(2)), "kv upsert");
      }
      Check(kv.AppendDelete("gone"), "kv delete");
      Write("kv_batches", "kv_" + std::to_string(n), std::string(1, static_cast<char>(bits | 4)) +
                                                         Str(Check(kv.Finish(1, 42, 0), "kv finish")));
      Write("kv_batches", "values_" + std::to_string(n),
            std::string(1, static_cast<char>(bits)) + record::BuildValueRecordBatch(values));
      ++n;
    }
}

void TableJsonSeeds() {
  for (const char* f : {"java_none.table.json", "java_zstd.table.json"})
    Write("table_json", f, std::string(1, '\0') + ReadFile(fs::path(FLUSS_TEST_DATA_DIR) / f));
  TableDescriptor pk;
  pk.schema.arrow_schema = fuzz::NestedSchema();
  pk.schema.primary_keys = {"id"};
  pk.bucket_count = 3;
  pk.comment = "nested";
  pk.properties = {{"table.kv.format", "INDEXED"}};
  pk.custom_properties = {{"owner", "fuzz"}};
  Write("table_json", "nested_pk", std::string(1, '\0') + Check(metadata::TableDescriptorToJson(pk), "pk json"));
  TableDescriptor part;
  part.schema.arrow_schema = fuzz::ScalarSchema();
  part.partition_keys = {"name"};
  part.bucket_keys = {"id"};
  part.bucket_count = 2;
  const std::string part_json = Check(metadata::TableDescriptorToJson(part), "partitioned json");
  Write("table_json", "partitioned", std::string(1, '\0') + part_json);
  Write("table_json", "schema", std::string(1, '\1') + nlohmann::json::parse(part_json)["schema"].dump());
  DatabaseDescriptor db;
  db.comment = "db";
  db.custom_properties = {{"k", "v"}};
  Write("table_json", "database", std::string(1, '\2') + metadata::DatabaseDescriptorToJson(db));
}

void Lz4Seeds() {
  auto codec = record::MakeFlussLz4FrameCodec();
  const std::string text = ReadFile(fs::path(FLUSS_TEST_DATA_DIR) / "java_none.table.json");
  std::vector<uint8_t> out(static_cast<size_t>(codec->MaxCompressedLen(text.size(), nullptr)));
  auto compressed = codec->Compress(static_cast<int64_t>(text.size()), reinterpret_cast<const uint8_t*>(text.data()),
                                    static_cast<int64_t>(out.size()), out.data());
  if (!compressed.ok()) Die("lz4 compress: " + compressed.status().ToString());
  const int64_t n = *compressed;
  std::string seed;
  seed.push_back(static_cast<char>(text.size() & 0xff));
  seed.push_back(static_cast<char>((text.size() >> 8) & 0xff));
  seed.append(reinterpret_cast<const char*>(out.data()), static_cast<size_t>(n));
  Write("lz4_frame", "json", seed);
}

// A success frame (the bytes after frame_length) answering request `request_id`.
std::string Frame(int32_t request_id, const google::protobuf::MessageLite& body) {
  std::string f(1, '\0');
  for (int shift = 24; shift >= 0; shift -= 8) f.push_back(static_cast<char>((request_id >> shift) & 0xff));
  return f + body.SerializeAsString();
}

void ResponseSeeds(const std::vector<Sample>& samples) {
  const std::string table_json = ReadFile(fs::path(FLUSS_TEST_DATA_DIR) / "java_none.table.json");
  proto::MetadataResponse md;
  for (int id = 0; id < 3; ++id) {
    auto* ts = md.add_tablet_servers();
    ts->set_node_id(id);
    ts->set_host("127.0.0.1");
    ts->set_port(9124 + id);
  }
  auto* cs = md.mutable_coordinator_server();
  cs->set_node_id(100);
  cs->set_host("127.0.0.1");
  cs->set_port(9123);
  auto* tm = md.add_table_metadata();
  tm->mutable_table_path()->set_database_name("db");
  tm->mutable_table_path()->set_table_name("t");
  tm->set_table_id(1);
  tm->set_schema_id(1);
  tm->set_table_json(table_json);
  tm->set_created_time(1);
  tm->set_modified_time(1);
  for (int b = 0; b < 3; ++b) {
    auto* bm = tm->add_bucket_metadata();
    bm->set_bucket_id(b);
    bm->set_leader_id(b);
    bm->set_leader_epoch(0);
    for (int r = 0; r < 3; ++r) bm->add_replica_id((b + r) % 3);
  }
  auto* pm = md.add_partition_metadata();
  pm->set_table_id(1);
  pm->set_partition_name("2024");
  pm->set_partition_id(7);
  pm->add_bucket_metadata()->set_bucket_id(0);
  Write("responses", "metadata", Frame(0, md));

  proto::FetchLogResponse fetch;
  auto* ft = fetch.add_tables_resp();
  ft->set_table_id(1);
  const auto arrow_blobs = LogSeeds(samples[0], false);
  for (int b = 0; b < 3; ++b) {
    auto* fb = ft->add_buckets_resp();
    fb->set_bucket_id(b);
    fb->set_high_watermark(3);
    fb->set_log_start_offset(0);
    fb->set_records(b == 0 ? ReadFile(fs::path(FLUSS_TEST_DATA_DIR) / "java_none.bin") : arrow_blobs[b]);
  }
  auto* fp = ft->add_buckets_resp();
  fp->set_partition_id(7);
  fp->set_bucket_id(0);
  fp->set_error_code(12);
  fp->set_error_message("not leader");
  Write("responses", "fetch", Frame(1, fetch));
  Write("responses", "fetch_stop", Frame(11, fetch));

  const auto values = ValueBytes(samples[0], row::KvFormat::kCompacted);
  proto::LookupResponse lookup;
  auto* lb = lookup.add_buckets_resp();
  lb->set_bucket_id(0);
  lb->add_values()->set_values(values[0]);
  lb->add_values();  // key not found
  auto* lp = lookup.add_buckets_resp();
  lp->set_partition_id(7);
  lp->set_bucket_id(1);
  lp->add_values()->set_values(values[2]);
  Write("responses", "lookup", Frame(2, lookup));

  proto::PrefixLookupResponse prefix;
  auto* pb = prefix.add_buckets_resp();
  pb->set_bucket_id(2);
  auto* list = pb->add_value_lists();
  for (const auto& v : values) list->add_values(v);
  pb->add_value_lists();
  Write("responses", "prefix_lookup", Frame(3, prefix));

  proto::ListOffsetsResponse offsets;
  auto* ob = offsets.add_buckets_resp();
  ob->set_bucket_id(0);
  ob->set_offset(42);
  auto* oe = offsets.add_buckets_resp();
  oe->set_bucket_id(1);
  oe->set_error_code(12);
  Write("responses", "list_offsets", Frame(4, offsets));

  proto::LimitScanResponse limit;
  limit.set_is_log_table(true);
  limit.set_records(arrow_blobs[0]);
  Write("responses", "limit_scan", Frame(5, limit));

  proto::ProduceLogResponse produce;
  auto* pr = produce.add_buckets_resp();
  pr->set_bucket_id(0);
  pr->set_base_offset(10);
  auto* pe = produce.add_buckets_resp();
  pe->set_bucket_id(1);
  pe->set_error_code(47);
  pe->set_error_message("out of order");
  Write("responses", "produce", Frame(6, produce));

  proto::PutKvResponse put;
  put.add_buckets_resp()->set_bucket_id(0);
  Write("responses", "put_kv", Frame(7, put));

  proto::GetTableInfoResponse info;
  info.set_table_id(1);
  info.set_schema_id(1);
  info.set_table_json(table_json);
  info.set_created_time(1);
  info.set_modified_time(1);
  Write("responses", "table_info", Frame(8, info));

  proto::GetTableSchemaResponse schema;
  schema.set_schema_id(1);
  schema.set_schema_json(nlohmann::json::parse(table_json)["schema"].dump());
  Write("responses", "table_schema", Frame(9, schema));

  proto::ErrorResponse err;
  err.set_error_code(7);
  err.set_error_message("table does not exist");
  std::string ef = Frame(3, err);
  ef[0] = 1;
  Write("responses", "error", ef);
  std::string sf = err.SerializeAsString();
  Write("responses", "server_failure", std::string(1, '\2') + sf);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) Die("usage: make_corpus <dir>");
  g_root = argv[1];
  const std::vector<Sample> samples{{"scalar", 0, ScalarRows()}, {"nested", 1, NestedRows()}};
  LogRecordSeeds(samples);
  RowAndKvSeeds(samples);
  TableJsonSeeds();
  Lz4Seeds();
  ResponseSeeds(samples);
  std::cout << "make_corpus: " << g_count << " seeds in " << g_root.string() << "\n";
  return 0;
}

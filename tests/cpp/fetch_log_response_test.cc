// protocol/fetch_log_response.h: the FetchLogResponse read by hand reads what protobuf's parser
// reads (fields in any order, unknown fields and known fields of another wire type skipped,
// the last value winning), places each bucket's records 8-byte aligned in the frame where the
// bytes before them allow, and refuses malformed bytes and absent required fields.
#include <gtest/gtest.h>

#include <string>

#include "fluss/net/server_connection.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/fetch_log_response.h"
#include "fluss/protocol/wire.h"

namespace fluss::protocol {
namespace {

std::string Records(size_t n, char seed) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(seed + i * 7);
  return s;
}

/// Parses `bytes` from a frame whose body starts `lead` bytes into it (as after the frame's
/// type and request id), and checks every records range is 8-byte aligned.
Result<std::vector<FetchLogBucketResponse>> ParseAt(const std::string& bytes, size_t lead, net::ResponseBody* body) {
  *body = net::ResponseBody::Copy(std::string(lead, 'x') + bytes);
  body->data += lead;
  body->size -= lead;
  return ParseFetchLogResponse(body->data, body->size);
}

std::string_view RecordsOf(const net::ResponseBody& body, const FetchLogBucketResponse& b) {
  return {reinterpret_cast<const char*>(body.data) + b.records_offset, b.records_size};
}

TEST(FetchLogResponse, ReadsWhatProtobufWritesWithRecordsAligned) {
  proto::FetchLogResponse resp;
  auto* t1 = resp.add_tables_resp();
  t1->set_table_id(11);
  auto* a = t1->add_buckets_resp();
  a->set_bucket_id(0);
  a->set_high_watermark(1000);
  a->set_log_start_offset(3);
  a->set_records(Records(1001, 'a'));
  auto* b = t1->add_buckets_resp();
  b->set_partition_id(77);
  b->set_bucket_id(5);
  b->set_error_code(12);
  b->set_error_message("not the leader");
  auto* c = t1->add_buckets_resp();
  c->set_bucket_id(6);
  c->mutable_remote_log_fetch_info()->set_remote_log_tablet_dir("/tiered");
  c->set_records(Records(37, 'q'));
  auto* t2 = resp.add_tables_resp();
  t2->set_table_id(-2);
  t2->add_buckets_resp()->set_bucket_id(-1);
  const std::string bytes = resp.SerializeAsString();
  // Every offset of the body in its frame: the records land on every misalignment.
  for (size_t lead = 0; lead < 8; ++lead) {
    SCOPED_TRACE("lead " + std::to_string(lead));
    net::ResponseBody body;
    auto got = ParseAt(bytes, lead, &body);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_EQ(got->size(), 4u);
    const auto& g = *got;
    EXPECT_EQ(g[0].table_id, 11);
    EXPECT_EQ(g[0].bucket, (BucketRef{std::nullopt, 0}));
    EXPECT_EQ(g[0].high_watermark, 1000);
    EXPECT_EQ(g[0].log_start_offset, 3);
    EXPECT_EQ(g[0].error_code, 0);
    EXPECT_TRUE(g[0].has_records);
    EXPECT_EQ(RecordsOf(body, g[0]), Records(1001, 'a'));
    EXPECT_EQ(g[1].bucket, (BucketRef{77, 5}));
    EXPECT_EQ(g[1].error_code, 12);
    EXPECT_EQ(g[1].error_message, "not the leader");
    EXPECT_FALSE(g[1].has_records);
    EXPECT_FALSE(g[1].high_watermark.has_value());
    EXPECT_TRUE(g[2].has_remote_log_fetch_info);
    EXPECT_EQ(RecordsOf(body, g[2]), Records(37, 'q'));
    EXPECT_EQ(g[3].table_id, -2);
    EXPECT_EQ(g[3].bucket.bucket_id, -1);
    for (const auto& r : g) {
      if (r.has_records)
        EXPECT_EQ(reinterpret_cast<uintptr_t>(body.data + r.records_offset) % 8, 0u) << r.bucket.ToString();
    }
  }
}

TEST(FetchLogResponse, SkipsUnknownFieldsAndKnownOnesOfAnotherWireTypeAndTakesTheLastValue) {
  // A bucket: unknown field 20 (varint), bucket_id as bytes (skipped by protobuf), then
  // bucket_id 3 twice (the last, 4, wins), records twice (the last wins); table_id after it.
  std::string bucket;
  wire::AppendInt64(&bucket, 20, 99);
  wire::AppendLengthDelimitedHeader(&bucket, 2, 1);
  bucket += "z";
  wire::AppendInt32(&bucket, 2, 3);
  wire::AppendLengthDelimitedHeader(&bucket, 8, 3);
  bucket += "old";
  wire::AppendInt32(&bucket, 2, 4);
  wire::AppendLengthDelimitedHeader(&bucket, 8, 3);
  bucket += "new";
  std::string table;
  wire::AppendLengthDelimitedHeader(&table, 2, bucket.size());
  table += bucket;
  wire::AppendInt64(&table, 1, 8);
  std::string bytes;
  wire::AppendInt64(&bytes, 9, 1);  // unknown top-level field
  wire::AppendLengthDelimitedHeader(&bytes, 1, table.size());
  bytes += table;
  proto::FetchLogResponse reference;
  ASSERT_TRUE(reference.ParseFromString(bytes));
  ASSERT_EQ(reference.tables_resp(0).buckets_resp(0).bucket_id(), 4);
  net::ResponseBody body;
  auto got = ParseAt(bytes, 5, &body);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), 1u);
  EXPECT_EQ((*got)[0].table_id, 8);
  EXPECT_EQ((*got)[0].bucket.bucket_id, 4);
  EXPECT_EQ(RecordsOf(body, (*got)[0]), "new");
}

TEST(FetchLogResponse, RefusesMalformedBytesAndAbsentRequiredFields) {
  proto::FetchLogResponse resp;
  auto* t = resp.add_tables_resp();
  t->set_table_id(1);
  auto* b = t->add_buckets_resp();
  b->set_bucket_id(0);
  b->set_records(Records(100, 'r'));
  const std::string bytes = resp.SerializeAsString();
  net::ResponseBody body;
  for (size_t cut = 1; cut < bytes.size(); ++cut) {
    auto got = ParseAt(bytes.substr(0, cut), 0, &body);
    EXPECT_FALSE(got.ok()) << "cut at " << cut;
    if (!got.ok()) EXPECT_EQ(got.status().code(), StatusCode::kProtocol);
  }
  proto::FetchLogResponse no_bucket_id;
  no_bucket_id.add_tables_resp()->set_table_id(1);
  no_bucket_id.mutable_tables_resp(0)->add_buckets_resp()->set_error_code(3);
  auto got = ParseAt(no_bucket_id.SerializePartialAsString(), 0, &body);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("without bucket_id"), std::string::npos) << got.status().ToString();
  proto::FetchLogResponse no_table_id;
  no_table_id.add_tables_resp()->add_buckets_resp()->set_bucket_id(0);
  got = ParseAt(no_table_id.SerializePartialAsString(), 0, &body);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("without table_id"), std::string::npos) << got.status().ToString();
  // A group (wire type 3) that never ends.
  got = ParseAt(std::string("\x0b", 1), 0, &body);
  EXPECT_FALSE(got.ok());
  // The empty response has no buckets.
  got = ParseAt("", 0, &body);
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(got->empty());
}

// Groups are in no Fluss message, but protobuf skips an unknown one (and a known field number
// sent as a group), nested ones too, up to its end tag: so does the reader. Found by the
// differential fuzz check (tests/fuzz/regressions/responses/unknown-group-field).
TEST(FetchLogResponse, SkipsGroupsAsProtobufDoes) {
  auto tag = [](uint32_t field, int type) { return std::string(1, static_cast<char>(field << 3 | type)); };
  std::string bucket = tag(2, 0) + "\x05" + tag(9, 3) + tag(1, 0) + "\x01" + tag(10, 3) + tag(10, 4) + tag(9, 4) +
                       tag(2, 3) + tag(2, 4);  // bucket_id 5, then a nested group, then field 2 as a group
  std::string table = tag(1, 0) + "\x07" + tag(2, 2) + static_cast<char>(bucket.size()) + bucket;
  std::string bytes = tag(14, 3) + tag(14, 4) + tag(1, 2) + static_cast<char>(table.size()) + table;
  proto::FetchLogResponse reference;
  ASSERT_TRUE(reference.ParseFromString(bytes));
  ASSERT_EQ(reference.tables_resp(0).buckets_resp(0).bucket_id(), 5);
  net::ResponseBody body;
  auto got = ParseAt(bytes, 5, &body);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), 1u);
  EXPECT_EQ((*got)[0].table_id, 7);
  EXPECT_EQ((*got)[0].bucket.bucket_id, 5);
  // An end tag of another field, or one without a start: protobuf refuses both, so does the reader.
  for (const std::string& bad : {tag(14, 3) + tag(15, 4), tag(14, 4), tag(1, 2) + "\x02" + tag(3, 4) + "\x00"}) {
    EXPECT_FALSE(reference.ParseFromString(bad));
    EXPECT_FALSE(ParseAt(bad, 0, &body).ok());
  }
}

}  // namespace
}  // namespace fluss::protocol

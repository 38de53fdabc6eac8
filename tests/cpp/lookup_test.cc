// Lookup, PrefixLookup and LimitScan request building and response matching
// (protocol-rpc.md 11.4-11.6), without a server: responses are built with the generated messages,
// serialised and parsed back as they would arrive.
#include <gtest/gtest.h>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/limit_scan.h"
#include "fluss/protocol/lookup.h"
#include "fluss/protocol/prefix_lookup.h"
#include "fluss/record/value_batch.h"

namespace fluss::protocol {
namespace {

template <typename M>
M RoundTrip(const M& m) {
  M out;
  EXPECT_TRUE(out.ParseFromString(m.SerializeAsString()));
  return out;
}

TEST(LookupProtocol, RequestHasKeysInOrderPerBucket) {
  const std::vector<LookupBucketKeys> buckets = {{{std::nullopt, 3}, {"\x01", "\x02"}}, {{11, 0}, {"\x05"}}};
  auto req = RoundTrip(MakeLookupRequest(99, buckets));
  EXPECT_EQ(req.table_id(), 99);
  ASSERT_EQ(req.buckets_req_size(), 2);
  EXPECT_FALSE(req.buckets_req(0).has_partition_id());
  EXPECT_EQ(req.buckets_req(0).bucket_id(), 3);
  ASSERT_EQ(req.buckets_req(0).keys_size(), 2);
  EXPECT_EQ(req.buckets_req(0).keys(1), "\x02");
  EXPECT_EQ(req.buckets_req(1).partition_id(), 11);
  EXPECT_FALSE(req.has_insert_if_not_exists());
  EXPECT_FALSE(req.has_acks());
  auto insert = MakeLookupRequest(99, buckets, LookupInsertIfNotExists{-1, 5000});
  EXPECT_TRUE(insert.insert_if_not_exists());
  EXPECT_EQ(insert.acks(), -1);
  EXPECT_EQ(insert.timeout_ms(), 5000);
}

TEST(LookupProtocol, ValuesInRequestOrderAbsentMeansNotFound) {
  const std::vector<LookupBucketKeys> buckets = {
      {{std::nullopt, 3}, {"a", "b", "c"}}, {{std::nullopt, 4}, {"d"}}, {{std::nullopt, 5}, {"e"}},
      {{std::nullopt, 6}, {"f", "g"}}};
  proto::LookupResponse resp;
  // Bucket 4 answers first (order is not the request order) with an error.
  auto* b4 = resp.add_buckets_resp();
  b4->set_bucket_id(4);
  b4->set_error_code(7);
  b4->set_error_message("table does not exist");
  auto* b3 = resp.add_buckets_resp();
  b3->set_bucket_id(3);
  b3->add_values()->set_values(std::string("\x01\x00\x00\x01", 4));
  b3->add_values();                  // not found
  b3->add_values()->set_values("");  // found, empty value bytes
  auto* b6 = resp.add_buckets_resp();
  b6->set_bucket_id(6);
  b6->add_values();  // one value for two keys
  // bucket 5: no answer
  auto wire = RoundTrip(resp);
  auto results = MatchLookupResponse(99, buckets, wire);
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  ASSERT_EQ(results->size(), 4u);
  const auto& r3 = (*results)[0];
  ASSERT_TRUE(r3.status.ok()) << r3.status.ToString();
  ASSERT_EQ(r3.values.size(), 3u);
  ASSERT_TRUE(r3.values[0].has_value());
  EXPECT_EQ(*r3.values[0], std::string_view("\x01\x00\x00\x01", 4));
  EXPECT_FALSE(r3.values[1].has_value());
  ASSERT_TRUE(r3.values[2].has_value());
  EXPECT_TRUE(r3.values[2]->empty());
  EXPECT_EQ((*results)[1].status.error_code(), 7);
  EXPECT_NE((*results)[1].status.message().find("bucket 4"), std::string::npos) << (*results)[1].status.message();
  EXPECT_EQ((*results)[2].status.code(), StatusCode::kProtocol);
  EXPECT_EQ((*results)[3].status.code(), StatusCode::kProtocol);
  // A result for a bucket never asked for fails the whole response.
  resp.add_buckets_resp()->set_bucket_id(42);
  EXPECT_EQ(MatchLookupResponse(99, buckets, resp).status().code(), StatusCode::kProtocol);
}

TEST(PrefixLookupProtocol, OneListPerPrefix) {
  const std::vector<PrefixLookupBucketKeys> buckets = {{{8, 1}, {"p1", "p2"}}, {{8, 2}, {"p3"}}};
  auto req = RoundTrip(MakePrefixLookupRequest(5, buckets));
  EXPECT_EQ(req.table_id(), 5);
  ASSERT_EQ(req.buckets_req_size(), 2);
  EXPECT_EQ(req.buckets_req(0).partition_id(), 8);
  EXPECT_EQ(req.buckets_req(1).keys(0), "p3");

  proto::PrefixLookupResponse resp;
  auto* b2 = resp.add_buckets_resp();
  b2->set_partition_id(8);
  b2->set_bucket_id(2);
  b2->add_value_lists();  // no row matches p3
  auto* b1 = resp.add_buckets_resp();
  b1->set_partition_id(8);
  b1->set_bucket_id(1);
  auto* l1 = b1->add_value_lists();
  l1->add_values("v1");
  l1->add_values("v2");
  b1->add_value_lists()->add_values("v3");
  auto wire = RoundTrip(resp);
  auto results = MatchPrefixLookupResponse(5, buckets, wire);
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  ASSERT_TRUE((*results)[0].status.ok());
  ASSERT_EQ((*results)[0].values.size(), 2u);
  EXPECT_EQ((*results)[0].values[0], (std::vector<std::string_view>{"v1", "v2"}));
  EXPECT_EQ((*results)[0].values[1], (std::vector<std::string_view>{"v3"}));
  ASSERT_TRUE((*results)[1].status.ok());
  ASSERT_EQ((*results)[1].values.size(), 1u);
  EXPECT_TRUE((*results)[1].values[0].empty());
  // Partition 8 bucket 1 and non-partitioned bucket 1 are different buckets.
  proto::PrefixLookupResponse wrong;
  wrong.add_buckets_resp()->set_bucket_id(1);
  EXPECT_EQ(MatchPrefixLookupResponse(5, buckets, wrong).status().code(), StatusCode::kProtocol);
}

TEST(LimitScanProtocol, RequestFieldsStartAtTwo) {
  auto req = MakeLimitScanRequest(12, {3, 4}, 100);
  const std::string bytes = req.SerializeAsString();
  // field 2 varint (tag 0x10) table_id 12, field 3 partition 3 (0x18), 4 bucket 4 (0x20), 5 limit 100 (0x28).
  EXPECT_EQ(bytes, std::string("\x10\x0c\x18\x03\x20\x04\x28\x64", 8));
  EXPECT_FALSE(MakeLimitScanRequest(12, {std::nullopt, 4}, 1).has_partition_id());
}

TEST(LimitScanProtocol, ValueBatchOfAPrimaryKeyTable) {
  proto::LimitScanResponse resp;
  resp.set_is_log_table(false);
  resp.set_records(record::BuildValueRecordBatch({std::string("\x01\x00\x00\x01\x01\x61\x64", 7)}));
  auto wire = RoundTrip(resp);
  auto r = ParseLimitScanResponse(12, {std::nullopt, 0}, wire, false);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->is_log_table);
  auto values = record::ParseValueRecordBatch(reinterpret_cast<const uint8_t*>(r->records.data()), r->records.size());
  ASSERT_TRUE(values.ok());
  ASSERT_EQ(values->size(), 1u);
  EXPECT_EQ((*values)[0], std::string_view("\x01\x00\x00\x01\x01\x61\x64", 7));
  EXPECT_EQ(ParseLimitScanResponse(12, {std::nullopt, 0}, wire, true).status().code(), StatusCode::kProtocol);

  proto::LimitScanResponse err;
  err.set_error_code(7);
  err.set_error_message("gone");
  auto e = ParseLimitScanResponse(12, {std::nullopt, 0}, err);
  EXPECT_EQ(e.status().code(), StatusCode::kServer);
  EXPECT_NE(e.status().message().find("table 12"), std::string::npos) << e.status().message();
  proto::LimitScanResponse empty;
  auto none = ParseLimitScanResponse(12, {std::nullopt, 0}, empty);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->records.empty());
}

}  // namespace
}  // namespace fluss::protocol

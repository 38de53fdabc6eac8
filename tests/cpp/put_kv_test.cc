// PutKvRequest by hand equals the generated protobuf serialiser's bytes (field order, packed
// target columns, agg_mode after the buckets, negative acks as 10-byte varints), with the KV
// batches borrowed, not copied; and the per-bucket response matching of bucket_response.h.
#include <gtest/gtest.h>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/api_keys.h"
#include "fluss/protocol/bucket_response.h"
#include "fluss/protocol/frame.h"
#include "fluss/protocol/put_kv.h"

namespace fluss::protocol {
namespace {

std::string Join(const std::vector<EncodedPiece>& pieces, size_t skip) {
  std::string out;
  for (const auto& p : pieces) {
    if (p.owner) out.append(reinterpret_cast<const char*>(p.data), p.size);
    else out.append(p.bytes);
  }
  return out.substr(skip);
}

PutKvBucket Borrow(const std::shared_ptr<std::string>& bytes, int32_t bucket, std::optional<int64_t> partition) {
  PutKvBucket b;
  b.bucket_id = bucket;
  b.partition_id = partition;
  b.owner = bytes;
  b.records = reinterpret_cast<const uint8_t*>(bytes->data());
  b.size = bytes->size();
  return b;
}

TEST(PutKvEncoder, EqualsTheProtobufSerialiser) {
  auto r1 = std::make_shared<std::string>(std::string("\x29\x00\x00\x00\x00", 5));
  auto r2 = std::make_shared<std::string>(200, 'k');  // a length needing a 2-byte varint
  const std::vector<PutKvBucket> buckets = {Borrow(r1, 0, std::nullopt), Borrow(r2, 5, 9876543210LL)};
  const std::vector<int32_t> target = {0, 2, 300};
  auto pieces = EncodePutKvRequest(-1, 77, 30000, target, kAggModeOverwrite, buckets, 12);
  ASSERT_EQ(pieces[0].bytes.substr(0, 12), std::string(12, '\0'));
  EXPECT_EQ(pieces[1].data, buckets[0].records);  // borrowed
  EXPECT_EQ(pieces[3].data, buckets[1].records);

  proto::PutKvRequest req;
  req.set_acks(-1);
  req.set_table_id(77);
  req.set_timeout_ms(30000);
  for (int32_t c : target) req.add_target_columns(c);
  auto* b0 = req.add_buckets_req();
  b0->set_bucket_id(0);
  b0->set_records(*r1);
  auto* b1 = req.add_buckets_req();
  b1->set_partition_id(9876543210LL);
  b1->set_bucket_id(5);
  b1->set_records(*r2);
  req.set_agg_mode(kAggModeOverwrite);
  EXPECT_EQ(Join(pieces, 12), req.SerializeAsString());
  proto::PutKvRequest parsed;
  ASSERT_TRUE(parsed.ParseFromString(Join(pieces, 12)));
  EXPECT_EQ(parsed.target_columns_size(), 3);
  EXPECT_EQ(parsed.agg_mode(), 1);
}

TEST(PutKvEncoder, FullRowsNoAggModeNoBuckets) {
  proto::PutKvRequest req;
  req.set_acks(1);
  req.set_table_id(3);
  req.set_timeout_ms(5);
  EXPECT_EQ(Join(EncodePutKvRequest(1, 3, 5, {}, std::nullopt, {}, 0), 0), req.SerializeAsString());
  req.set_agg_mode(0);
  EXPECT_EQ(Join(EncodePutKvRequest(1, 3, 5, {}, kAggModeAggregate, {}, 0), 0), req.SerializeAsString());
  auto r = std::make_shared<std::string>("x");
  req.add_buckets_req()->set_bucket_id(1);
  req.mutable_buckets_req(0)->set_records(*r);
  EXPECT_EQ(Join(EncodePutKvRequest(1, 3, 5, {}, kAggModeAggregate, {Borrow(r, 1, std::nullopt)}, 0), 0),
            req.SerializeAsString());
}

TEST(PutKvEncoder, ApiKeysAndNames) {
  EXPECT_EQ(static_cast<int>(ApiKey::PUT_KV), 1016);
  EXPECT_EQ(static_cast<int>(ApiKey::LOOKUP), 1017);
  EXPECT_EQ(static_cast<int>(ApiKey::LIMIT_SCAN), 1033);
  EXPECT_EQ(static_cast<int>(ApiKey::PREFIX_LOOKUP), 1034);
  EXPECT_STREQ(ApiKeyName(ApiKey::PUT_KV), "PUT_KV");
  EXPECT_STREQ(ApiKeyName(ApiKey::PREFIX_LOOKUP), "PREFIX_LOOKUP");
}

TEST(BucketResponse, MatchedByPartitionAndBucketNotOrder) {
  proto::PutKvResponse resp;
  auto* a = resp.add_buckets_resp();
  a->set_partition_id(7);
  a->set_bucket_id(1);
  a->set_error_code(12);  // NOT_LEADER_OR_FOLLOWER
  a->set_error_message("not the leader");
  auto* b = resp.add_buckets_resp();
  b->set_bucket_id(1);
  b->set_log_end_offset(42);
  const std::vector<BucketRef> requested = {{std::nullopt, 1}, {7, 1}, {7, 2}};
  auto matched = MatchBuckets<proto::PbPutKvRespForBucket>(requested, resp.buckets_resp());
  ASSERT_TRUE(matched.ok()) << matched.status().ToString();
  ASSERT_EQ(matched->size(), 3u);
  ASSERT_NE((*matched)[0], nullptr);
  EXPECT_EQ((*matched)[0]->log_end_offset(), 42);
  EXPECT_TRUE(BucketStatus((*matched)[0], "put").ok());
  Status st = BucketStatus((*matched)[1], "put to partition 7 bucket 1");
  EXPECT_EQ(st.code(), StatusCode::kServer);
  EXPECT_EQ(st.error_code(), 12);
  EXPECT_TRUE(st.IsRetriable());
  EXPECT_EQ((*matched)[2], nullptr);
  EXPECT_EQ(BucketStatus((*matched)[2], "put").code(), StatusCode::kProtocol);

  auto* dup = resp.add_buckets_resp();
  dup->set_bucket_id(1);
  EXPECT_EQ((MatchBuckets<proto::PbPutKvRespForBucket>(requested, resp.buckets_resp())).status().code(),
            StatusCode::kProtocol);
  proto::PutKvResponse stray;
  stray.add_buckets_resp()->set_bucket_id(9);
  EXPECT_EQ((MatchBuckets<proto::PbPutKvRespForBucket>(requested, stray.buckets_resp())).status().code(),
            StatusCode::kProtocol);
}

}  // namespace
}  // namespace fluss::protocol

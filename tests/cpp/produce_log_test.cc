// The hand-written ProduceLogRequest encoder must produce exactly the bytes of the protobuf
// serialiser for the same message (field order, varints, negative acks as 10-byte varints).
#include <gtest/gtest.h>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/produce_log.h"

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

TEST(ProduceLogEncoder, EqualsTheProtobufSerialiser) {
  auto r1 = std::make_shared<std::string>(std::string("\x01\x02\x03", 3));
  auto r2 = std::make_shared<std::string>(300, 'x');  // a length needing a 2-byte varint
  std::vector<ProduceBucket> buckets(2);
  buckets[0].bucket_id = 0;
  buckets[0].owner = r1;
  buckets[0].records = reinterpret_cast<const uint8_t*>(r1->data());
  buckets[0].size = r1->size();
  buckets[1].bucket_id = 7;
  buckets[1].partition_id = 12345678901LL;
  buckets[1].owner = r2;
  buckets[1].records = reinterpret_cast<const uint8_t*>(r2->data());
  buckets[1].size = r2->size();
  auto pieces = EncodeProduceLogRequest(-1, 4242, 30000, buckets, 12);
  ASSERT_EQ(pieces[0].bytes.substr(0, 12), std::string(12, '\0'));
  // The record bytes are borrowed, not copied.
  EXPECT_EQ(pieces[1].data, buckets[0].records);
  EXPECT_EQ(pieces[3].data, buckets[1].records);

  proto::ProduceLogRequest req;
  req.set_acks(-1);
  req.set_table_id(4242);
  req.set_timeout_ms(30000);
  auto* b0 = req.add_buckets_req();
  b0->set_bucket_id(0);
  b0->set_records(*r1);
  auto* b1 = req.add_buckets_req();
  b1->set_partition_id(12345678901LL);
  b1->set_bucket_id(7);
  b1->set_records(*r2);
  EXPECT_EQ(Join(pieces, 12), req.SerializeAsString());
  // acks -1 is the 10-byte varint ff ff ff ff ff ff ff ff ff 01 after tag 0x08.
  EXPECT_EQ(pieces[0].bytes.substr(12, 11), std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11));
}

TEST(ProduceLogEncoder, NoBuckets) {
  auto pieces = EncodeProduceLogRequest(1, 1, 5, {}, 0);
  proto::ProduceLogRequest req;
  req.set_acks(1);
  req.set_table_id(1);
  req.set_timeout_ms(5);
  EXPECT_EQ(Join(pieces, 0), req.SerializeAsString());
}

}  // namespace
}  // namespace fluss::protocol

// protocol/fetch_log_placement.h: a FetchLogResponse body received in pieces of any size, with
// its records placed as they arrive, parses to exactly what the body parses to when received
// whole (same buckets, same records bytes, records 8-byte aligned), and the records were
// placed, not moved afterwards; bytes the placement does not expect end it without changing the
// outcome.
#include "fluss/protocol/fetch_log_placement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/fetch_log_response.h"
#include "fluss/protocol/wire.h"

namespace fluss::protocol {
namespace {

std::string Records(size_t n, uint32_t seed) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(seed * 31 + i * 7);
  return s;
}

struct Parsed {
  Status status;
  std::vector<FetchLogBucketResponse> buckets;
  std::vector<std::string> records;  // the bytes of each bucket's records
  size_t placed = 0;                 // payloads placed while receiving
  bool aligned = true;               // every non-empty records range 8-byte aligned
};

Parsed Collect(const uint8_t* body, Result<std::vector<FetchLogBucketResponse>> r, size_t placed) {
  Parsed p;
  p.placed = placed;
  p.status = r.status();
  if (!r.ok()) return p;
  p.buckets = std::move(*r);
  for (const auto& b : p.buckets) {
    p.records.emplace_back(reinterpret_cast<const char*>(body) + b.records_offset, b.records_size);
    if (b.records_size > 0 && reinterpret_cast<uintptr_t>(body + b.records_offset) % 8 != 0) p.aligned = false;
  }
  return p;
}

/// `bytes` received whole at `lead` bytes into an 8-aligned buffer, then parsed.
Parsed Whole(const std::string& bytes, size_t lead) {
  std::vector<uint64_t> storage(bytes.size() / 8 + 3);
  auto* body = reinterpret_cast<uint8_t*>(storage.data()) + lead;
  std::memcpy(body, bytes.data(), bytes.size());
  return Collect(body, ParseFetchLogResponse(body, bytes.size()), 0);
}

/// `bytes` received through FetchLogPlacement in pieces of random sizes (each at most what
/// NextRead allows), then parsed with what it placed.
Parsed Pieces(const std::string& bytes, size_t lead, std::mt19937* rng, size_t max_piece) {
  std::vector<uint64_t> storage(bytes.size() / 8 + 3);
  auto* body = reinterpret_cast<uint8_t*>(storage.data()) + lead;
  FetchLogPlacement placement(body, bytes.size());
  size_t sent = 0;
  while (!placement.complete()) {
    uint8_t* dst = nullptr;
    size_t max = 0;
    placement.NextRead(&dst, &max);
    EXPECT_GT(max, 0u);
    EXPECT_GE(dst, body);
    if (max == 0) break;
    const size_t n = std::min<size_t>(max, 1 + (*rng)() % max_piece);
    std::memcpy(dst, bytes.data() + sent, n);
    sent += n;
    placement.Received(n);
  }
  EXPECT_EQ(sent, bytes.size());
  auto placed = placement.Finish();
  const size_t count = placed.size();
  return Collect(body, ParseFetchLogResponse(body, bytes.size(), placed), count);
}

void ExpectSame(const Parsed& want, const Parsed& got) {
  ASSERT_EQ(want.status.ok(), got.status.ok()) << want.status.ToString() << " / " << got.status.ToString();
  if (!want.status.ok()) return;
  ASSERT_EQ(want.buckets.size(), got.buckets.size());
  for (size_t i = 0; i < want.buckets.size(); ++i) {
    const auto& w = want.buckets[i];
    const auto& g = got.buckets[i];
    EXPECT_EQ(w.table_id, g.table_id);
    EXPECT_EQ(w.bucket.bucket_id, g.bucket.bucket_id);
    EXPECT_EQ(w.bucket.partition_id, g.bucket.partition_id);
    EXPECT_EQ(w.error_code, g.error_code);
    EXPECT_EQ(w.error_message, g.error_message);
    EXPECT_EQ(w.high_watermark, g.high_watermark);
    EXPECT_EQ(w.has_records, g.has_records);
    EXPECT_EQ(want.records[i], got.records[i]) << "bucket " << i;
  }
  EXPECT_EQ(want.aligned, got.aligned);
}

/// A response as the server sends it: tables of buckets, records of many sizes, errors.
std::string Response(std::mt19937* rng, int tables, int buckets) {
  proto::FetchLogResponse resp;
  const size_t sizes[] = {0, 1, 7, 13, 61, 4096, 100000, 262147};
  for (int t = 0; t < tables; ++t) {
    auto* tr = resp.add_tables_resp();
    tr->set_table_id(100 + t);
    for (int b = 0; b < buckets; ++b) {
      auto* br = tr->add_buckets_resp();
      if ((*rng)() % 3 == 0) br->set_partition_id((*rng)() % 1000);
      br->set_bucket_id(b);
      if ((*rng)() % 7 == 0) {
        br->set_error_code(57);
        br->set_error_message(std::string((*rng)() % 300, 'e'));
        continue;
      }
      br->set_high_watermark((*rng)() % 100000);
      br->set_log_start_offset((*rng)() % 10);
      br->set_records(Records(sizes[(*rng)() % 8], (*rng)()));
    }
  }
  return resp.SerializeAsString();
}

TEST(FetchLogPlacement, PiecesOfAnySizeParseAsTheWholeBodyWithRecordsPlaced) {
  std::mt19937 rng(7);
  size_t placed = 0;
  for (int round = 0; round < 200; ++round) {
    const std::string bytes = Response(&rng, 1 + round % 3, 1 + round % 5);
    const size_t lead = round % 8;  // where the body starts: after the 5-byte header, in the client
    const Parsed whole = Whole(bytes, lead);
    ASSERT_TRUE(whole.status.ok()) << whole.status.ToString();
    const size_t max_piece = round % 4 == 0 ? 3 : round % 4 == 1 ? 97 : round % 4 == 2 ? 5000 : 1 << 20;
    const Parsed pieces = Pieces(bytes, lead, &rng, max_piece);
    ExpectSame(whole, pieces);
    EXPECT_TRUE(pieces.aligned);
    placed += pieces.placed;
  }
  EXPECT_GT(placed, 100u);  // the records were placed, not moved by the parser
}

TEST(FetchLogPlacement, PlacesEveryMisalignedPayloadOfATypicalAnswer) {
  // Three buckets of 1.8 MB, as a 3-bucket scan receives them: each payload lands aligned as
  // it arrives; none is left for the parser to move.
  proto::FetchLogResponse resp;
  auto* tr = resp.add_tables_resp();
  tr->set_table_id(1453);
  for (int b = 0; b < 3; ++b) {
    auto* br = tr->add_buckets_resp();
    br->set_bucket_id(b);
    br->set_high_watermark(333333 + b);
    br->set_log_start_offset(0);
    br->set_records(Records(1839496 + 8 * b + b, b));
  }
  const std::string bytes = resp.SerializeAsString();
  std::mt19937 rng(1);
  for (size_t lead = 0; lead < 8; ++lead) {
    const Parsed whole = Whole(bytes, lead);
    const Parsed pieces = Pieces(bytes, lead, &rng, 65536);
    ExpectSame(whole, pieces);
    EXPECT_TRUE(pieces.aligned);
    // How many payloads start misaligned in the body as sent (each found by its bytes; the
    // body starts `lead` bytes past an aligned address).
    size_t misaligned = 0;
    for (size_t i = 0, at = 0; i < 3; ++i) {
      const std::string& r = whole.records[i];
      at = bytes.find(r.substr(0, 64), at);
      ASSERT_NE(at, std::string::npos);
      if ((lead + at) % 8 != 0) ++misaligned;
      at += r.size();
    }
    EXPECT_EQ(pieces.placed, misaligned) << "lead " << lead;
  }
}

TEST(FetchLogPlacement, UnexpectedBytesEndThePlacingNotTheParse) {
  std::mt19937 rng(3);
  // An unknown top-level field first, then one inside a bucket, then a group: the placement
  // stops at each; the parse reads the same as a whole body's.
  std::string tail = Response(&rng, 2, 3);
  std::string unknown_top;
  wire::AppendInt64(&unknown_top, 9, 5);
  std::string group;
  wire::AppendTag(&group, 12, 3);
  wire::AppendTag(&group, 12, 4);
  for (const std::string& bytes : {unknown_top + tail, tail + unknown_top, group + tail, tail + group}) {
    for (size_t lead = 0; lead < 8; ++lead) {
      const Parsed whole = Whole(bytes, lead);
      ASSERT_TRUE(whole.status.ok()) << whole.status.ToString();
      ExpectSame(whole, Pieces(bytes, lead, &rng, 1 + lead * 37));
    }
  }
}

TEST(FetchLogPlacement, MalformedBodiesFailAsTheWholeBodyFails) {
  std::mt19937 rng(11);
  for (int round = 0; round < 300; ++round) {
    std::string bytes = Response(&rng, 1 + round % 2, 2);
    // Damage a few bytes, or cut the body short.
    if (round % 2 == 0) {
      for (int k = 0; k < 3; ++k) bytes[rng() % bytes.size()] = static_cast<char>(rng());
    } else {
      bytes.resize(rng() % bytes.size());
    }
    const size_t lead = round % 8;
    ExpectSame(Whole(bytes, lead), Pieces(bytes, lead, &rng, 1 + rng() % 200));
  }
}

}  // namespace
}  // namespace fluss::protocol

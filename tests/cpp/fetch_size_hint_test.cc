// FetchSizeHint (scan/fetch_size_hint.h): the byte limit a bucket's next fetch asks for.
#include "fluss/scan/fetch_size_hint.h"

#include <gtest/gtest.h>

namespace fluss::scan {
namespace {

constexpr int64_t kMax = 16 << 20;  // client.scanner.log.fetch.max-bytes

TEST(FetchSizeHint, NothingCutYetLeavesThePerBucketLimit) {
  FetchSizeHint h;
  EXPECT_EQ(h.BytesToAsk(kMax), 0);
  h.OnNewPosition();
  EXPECT_EQ(h.BytesToAsk(kMax), 0);
}

TEST(FetchSizeHint, AsksForTheCutBatchExactlyThenTheLargestWithHeadroom) {
  FetchSizeHint h;
  h.OnCutBatch(1'839'496, kMax);
  EXPECT_EQ(h.BytesToAsk(kMax), 1'839'496);  // the batch at the position, whole
  h.OnNewPosition();                          // it arrived: the next batch's size is unknown
  EXPECT_EQ(h.BytesToAsk(kMax), 1'839'496 + 1'839'496 / 64);
  h.OnCutBatch(1'838'080, kMax);              // the headroom caught the next one's header
  EXPECT_EQ(h.BytesToAsk(kMax), 1'838'080);
  h.OnNewPosition();
  EXPECT_EQ(h.BytesToAsk(kMax), 1'839'496 + 1'839'496 / 64);  // the largest, not the last
  h.OnCutBatch(3'000'000, kMax);
  h.OnNewPosition();
  EXPECT_EQ(h.BytesToAsk(kMax), 3'000'000 + 3'000'000 / 64);
}

TEST(FetchSizeHint, NeverAsksForMoreThanTheFetchLimit) {
  FetchSizeHint h;
  h.OnCutBatch(int64_t{1} << 30, kMax);  // a hostile or corrupt header
  EXPECT_EQ(h.BytesToAsk(kMax), kMax);
  h.OnNewPosition();
  EXPECT_EQ(h.BytesToAsk(kMax), kMax);
  FetchSizeHint near;
  near.OnCutBatch(kMax - 1, kMax);
  near.OnNewPosition();
  EXPECT_EQ(near.BytesToAsk(kMax), kMax);  // the headroom is capped too
}

}  // namespace
}  // namespace fluss::scan

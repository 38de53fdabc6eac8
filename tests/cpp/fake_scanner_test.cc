// The log scanner against the fake cluster (tests/cpp/fake): per-bucket errors, leader moves,
// lost answers, truncated and corrupt batches in FetchLog answers, and waiting fetches; each
// record must be returned exactly once, in offset order.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <optional>
#include <thread>

#include "fake/fake_test_support.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/record/log_batch.h"

namespace fluss::fake {
namespace {

using protocol::ApiKey;

class FakeScannerTest : public FakeClusterTest {
 protected:
  /// Writes rows 0 .. n-1, one batch each.
  void WriteRows(int32_t n) {
    auto w = NewWriter();
    std::vector<WriteResult> handles;
    for (int32_t v = 0; v < n; ++v) handles.push_back(AppendAlone(*w, v));
    for (auto& h : handles) ASSERT_TRUE(Outcome(h).ok());
  }

  std::shared_ptr<LogScanner> Scanner(int64_t start = 0) {
    auto s = table_->NewLogScanner();
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    if (!s.ok()) return nullptr;
    EXPECT_TRUE((*s)->Subscribe(0, start).ok());
    return *s;
  }

  /// Polls until `n` records came (or a poll fails: its status in `*failed`); the values and
  /// offsets of what came, in order.
  std::vector<std::pair<int64_t, int32_t>> PollRecords(LogScanner& s, size_t n, Status* failed = nullptr) {
    std::vector<std::pair<int64_t, int32_t>> out;
    const auto deadline = std::chrono::steady_clock::now() + kGenerous;
    while (out.size() < n && std::chrono::steady_clock::now() < deadline) {
      auto r = AwaitBounded<std::vector<ScanBatch>>([&](auto cb) { s.PollAsync(500, std::move(cb)); });
      if (!r.ok()) {
        if (failed) *failed = r.status();
        return out;
      }
      for (const auto& b : *r) {
        const auto& col = static_cast<const arrow::Int32Array&>(*b.batch->column(0));
        for (int64_t i = 0; i < col.length(); ++i) out.emplace_back(b.base_offset + i, col.Value(i));
      }
    }
    return out;
  }

  static std::vector<std::pair<int64_t, int32_t>> Expected(int32_t n) {
    std::vector<std::pair<int64_t, int32_t>> v;
    for (int32_t i = 0; i < n; ++i) v.emplace_back(i, i);
    return v;
  }

  /// Rewrites the records of the first FetchLog answer with `edit` (one bucket is fetched).
  void EditFirstFetchRecords(std::function<void(std::string*)> edit) {
    cluster_->SetScript([edit](const Request& r) {
      if (r.api_key != ApiKey::FETCH_LOG || r.nth != 0) return Action::Answer();
      return Action::Answer().Edit([edit](google::protobuf::Message& m) {
        auto& resp = static_cast<proto::FetchLogResponse&>(m);
        edit(resp.mutable_tables_resp(0)->mutable_buckets_resp(0)->mutable_records());
      });
    });
  }

  // One row whose batch's stored CRC is wrong in the first fetch answer (its data intact), read
  // by a scanner opened with `options`: asserts it reads back, returns the FETCH_LOG count.
  int FetchesToReadARowWithAWrongCrc(std::map<std::string, std::string> options) {
    Open(std::move(options));
    if (HasFatalFailure()) return -1;
    WriteRows(1);
    if (HasFatalFailure()) return -1;
    auto s = Scanner();
    EditFirstFetchRecords([](std::string* records) { (*records)[fluss::record::kCrcOffset] ^= 0x01; });
    EXPECT_EQ(PollRecords(*s, 1), Expected(1));
    return cluster_->Count(ApiKey::FETCH_LOG);
  }

  std::vector<int32_t> FetchServers() const {
    std::vector<int32_t> out;
    for (const auto& r : cluster_->Requests())
      if (r.request.api_key == ApiKey::FETCH_LOG) out.push_back(r.request.server);
    return out;
  }
};

// The leader moved after the scanner learnt it: the old leader answers NOT_LEADER_OR_FOLLOWER
// (12); the scanner refreshes the metadata and reads from the new leader.
TEST_F(FakeScannerTest, NotLeaderMovesTheFetchToTheNewLeader) {
  ASSERT_NO_FATAL_FAILURE(Open());
  ASSERT_NO_FATAL_FAILURE(WriteRows(3));
  auto s = Scanner();
  cluster_->SetLeader(table_id_, 0, 1);
  EXPECT_EQ(PollRecords(*s, 3), Expected(3));
  auto servers = FetchServers();
  ASSERT_GE(servers.size(), 2u);
  EXPECT_EQ(servers.front(), 0);
  EXPECT_EQ(servers.back(), 1);
}

// A non-retriable per-bucket error (AUTHORIZATION_EXCEPTION 48) fails the poll with that code;
// the position is kept, so once the server answers again the records come, once.
TEST_F(FakeScannerTest, NonRetriableBucketErrorFailsThePollAndKeepsThePosition) {
  ASSERT_NO_FATAL_FAILURE(Open());
  ASSERT_NO_FATAL_FAILURE(WriteRows(2));
  auto s = Scanner();
  cluster_->SetScript([](const Request& r) {
    return r.api_key == ApiKey::FETCH_LOG ? Action::BucketError(protocol::AUTHORIZATION_EXCEPTION, "no READ (fake)")
                                          : Action::Answer();
  });
  Status failed;
  EXPECT_TRUE(PollRecords(*s, 2, &failed).empty());
  EXPECT_EQ(failed.code(), StatusCode::kServer);
  EXPECT_EQ(failed.error_code(), protocol::AUTHORIZATION_EXCEPTION) << failed.ToString();
  EXPECT_NE(failed.message().find("no READ (fake)"), std::string::npos) << failed.ToString();
  cluster_->SetScript(nullptr);
  EXPECT_EQ(PollRecords(*s, 2), Expected(2));
}

// A retriable storage error (LOG_STORAGE_EXCEPTION 10) is fetched again; a bounded read
// (ToArrow) returns every record once.
TEST_F(FakeScannerTest, RetriableBucketErrorIsFetchedAgainByABoundedRead) {
  ASSERT_NO_FATAL_FAILURE(Open());
  ASSERT_NO_FATAL_FAILURE(WriteRows(3));
  auto s = Scanner();
  cluster_->SetScript([](const Request& r) {
    return r.api_key == ApiKey::FETCH_LOG && r.nth < 2 ? Action::BucketError(protocol::LOG_STORAGE_EXCEPTION)
                                                       : Action::Answer();
  });
  auto t = AwaitBounded<std::shared_ptr<arrow::Table>>([&](auto cb) { s->ToArrowAsync(std::move(cb)); });
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ((*t)->num_rows(), 3);
  std::vector<int32_t> values;
  for (const auto& chunk : (*t)->column(0)->chunks())
    for (int64_t i = 0; i < chunk->length(); ++i) values.push_back(static_cast<const arrow::Int32Array&>(*chunk).Value(i));
  EXPECT_EQ(values, (std::vector<int32_t>{0, 1, 2}));
  EXPECT_GE(cluster_->Count(ApiKey::FETCH_LOG), 3);
}

// A fetch answer whose last batch is cut short (allowed in fetch responses): the complete
// batches are returned, the cut one is fetched again from its offset.
TEST_F(FakeScannerTest, TruncatedTrailingBatchIsFetchedAgain) {
  ASSERT_NO_FATAL_FAILURE(Open());
  ASSERT_NO_FATAL_FAILURE(WriteRows(3));
  auto s = Scanner();
  EditFirstFetchRecords([](std::string* records) { records->resize(records->size() - 10); });
  EXPECT_EQ(PollRecords(*s, 3), Expected(3));
  EXPECT_GE(cluster_->Count(ApiKey::FETCH_LOG), 2);
}

// A batch whose bytes do not match its CRC: the whole fetch round counts as not read
// (CORRUPT_RECORD_EXCEPTION, retriable) and is fetched again; each record comes once.
TEST_F(FakeScannerTest, CorruptBatchIsFetchedAgainAndNothingIsReturnedTwice) {
  ASSERT_NO_FATAL_FAILURE(Open());
  ASSERT_NO_FATAL_FAILURE(WriteRows(3));
  auto s = Scanner();
  EditFirstFetchRecords([](std::string* records) {
    // A byte in the records of the second batch (past its 48-byte header); the three batches
    // have the same size.
    (*records)[records->size() / 3 + 60] ^= 0x5A;
  });
  EXPECT_EQ(PollRecords(*s, 3), Expected(3));
  EXPECT_GE(cluster_->Count(ApiKey::FETCH_LOG), 2);
}

// TryPoll takes what an earlier poll left buffered (max_records), on the calling thread and
// without a request, in order; with nothing buffered it returns nullopt and sends nothing.
TEST_F(FakeScannerTest, TryPollTakesTheBufferedRestInOrder) {
  ASSERT_NO_FATAL_FAILURE(Open());
  auto s = Scanner();
  EXPECT_FALSE(s->TryPoll(0).has_value());  // nothing fetched yet
  ASSERT_NO_FATAL_FAILURE(WriteRows(5));
  std::vector<std::pair<int64_t, int32_t>> got;
  auto take = [&](const std::vector<ScanBatch>& batches) {
    for (const auto& b : batches) {
      const auto& col = static_cast<const arrow::Int32Array&>(*b.batch->column(0));
      for (int64_t i = 0; i < col.length(); ++i) got.emplace_back(b.base_offset + i, col.Value(i));
    }
  };
  const auto deadline = std::chrono::steady_clock::now() + kGenerous;
  while (got.empty() && std::chrono::steady_clock::now() < deadline) {
    auto r = AwaitBounded<std::vector<ScanBatch>>([&](auto cb) { s->PollAsync(500, 2, std::move(cb)); });
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    take(*r);
  }
  ASSERT_EQ(got.size(), 2u);  // one fetch brought all 5 (one bucket); 3 stay buffered
  const int fetches = cluster_->Count(ApiKey::FETCH_LOG);
  // The poll counts as running until its callback has returned (on the I/O thread, after
  // AwaitBounded has its result): TryPoll says nullopt until then.
  std::optional<std::vector<ScanBatch>> next;
  const auto until = std::chrono::steady_clock::now() + kGenerous;
  while (!(next = s->TryPoll(2)) && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(next.has_value());
  take(*next);
  auto last = s->TryPoll(0);
  ASSERT_TRUE(last.has_value());
  take(*last);
  EXPECT_FALSE(s->TryPoll(0).has_value());
  EXPECT_EQ(got, Expected(5));
  EXPECT_EQ(cluster_->Count(ApiKey::FETCH_LOG), fetches);
}

// client.scanner.log.check-crc = false: the batch is returned from the first fetch, as the
// Java client does with the check off; by default the same answer is refused and fetched again.
TEST_F(FakeScannerTest, CheckCrcFalseReadsABatchWithAWrongCrc) {
  EXPECT_EQ(FetchesToReadARowWithAWrongCrc({{"client.scanner.log.check-crc", "false"}}), 1);
}

TEST_F(FakeScannerTest, WrongCrcIsFetchedAgainByDefault) {
  EXPECT_GE(FetchesToReadARowWithAWrongCrc({}), 2);
}

// A fetch answer that never comes: the fetch times out after client.request-timeout and is
// sent again; polls keep returning by their own timeout meanwhile.
TEST_F(FakeScannerTest, LostFetchAnswerIsFetchedAgain) {
  ASSERT_NO_FATAL_FAILURE(Open({{"client.request-timeout", "500 ms"}}));
  ASSERT_NO_FATAL_FAILURE(WriteRows(2));
  auto s = Scanner();
  cluster_->SetScript([](const Request& r) {
    return r.api_key == ApiKey::FETCH_LOG && r.nth == 0 ? Action::Drop() : Action::Answer();
  });
  EXPECT_EQ(PollRecords(*s, 2), Expected(2));
  EXPECT_GE(cluster_->Count(ApiKey::FETCH_LOG), 2);
}

// An EARLIEST subscription resolved by ListOffsets, whose first answer is a retriable
// per-bucket error: asked again, then read from offset 0.
TEST_F(FakeScannerTest, ListOffsetsErrorIsRetriedForAnEarliestSubscription) {
  ASSERT_NO_FATAL_FAILURE(Open());
  ASSERT_NO_FATAL_FAILURE(WriteRows(2));
  auto s = Scanner(kEarliestOffset);
  cluster_->SetScript([](const Request& r) {
    return r.api_key == ApiKey::LIST_OFFSETS && r.nth == 0 ? Action::BucketError(protocol::NOT_LEADER_OR_FOLLOWER)
                                                           : Action::Answer();
  });
  EXPECT_EQ(PollRecords(*s, 2), Expected(2));
  EXPECT_EQ(cluster_->Count(ApiKey::LIST_OFFSETS), 2);
}

// A fetch of an empty log waits at the server (min_bytes, max_wait_ms) and is answered as soon
// as a write lands, as a real leader does: one poll, one fetch.
TEST_F(FakeScannerTest, WaitingFetchIsAnsweredByTheNextWrite) {
  ASSERT_NO_FATAL_FAILURE(Open({{"client.scanner.log.fetch.wait-max-time", "50 s"}}));
  auto s = Scanner();
  auto polled = std::async(std::launch::async, [&] {
    return AwaitBounded<std::vector<ScanBatch>>([&](auto cb) { s->PollAsync(55000, std::move(cb)); });
  });
  // The fetch is waiting at the fake (nothing to return yet) before the write.
  ASSERT_TRUE(cluster_->WaitFor([&] { return cluster_->Count(ApiKey::FETCH_LOG) >= 1; }));
  auto w = NewWriter();
  EXPECT_TRUE(Outcome(AppendAlone(*w, 42)).ok());
  ASSERT_EQ(polled.wait_for(kGenerous), std::future_status::ready);
  auto got = polled.get();
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), 1u);
  EXPECT_EQ((*got)[0].base_offset, 0);
  EXPECT_EQ(static_cast<const arrow::Int32Array&>(*(*got)[0].batch->column(0)).Value(0), 42);
  EXPECT_EQ(cluster_->Count(ApiKey::FETCH_LOG), 1);
}

// A long poll of an idle bucket: the leader holds an empty fetch for max_wait_ms
// (client.scanner.log.fetch.wait-max-time) before answering. With that wait longer than
// client.request-timeout, the client must not take the wait for a lost answer (which made every
// such fetch time out, and a poll of an idle table fail after 2 x client.request-timeout).
TEST_F(FakeScannerTest, LongPollOfAnIdleBucketIsNotTakenForALostAnswer) {
  ASSERT_NO_FATAL_FAILURE(Open({{"client.request-timeout", "1 s"}, {"client.scanner.log.fetch.wait-max-time", "2 s"}}));
  // A fetch that arrives while an earlier one still waits at the fake was sent because the
  // client gave the earlier one up.
  FakeCluster* cluster = cluster_.get();
  auto overlapped = std::make_shared<std::atomic<bool>>(false);
  cluster_->SetScript([cluster, overlapped](const Request& r) {
    if (r.api_key == ApiKey::FETCH_LOG && cluster->WaitingFetches() > 0) *overlapped = true;
    return Action::Answer();
  });
  auto s = Scanner();
  auto r = AwaitBounded<std::vector<ScanBatch>>([&](auto cb) { s->PollAsync(4000, std::move(cb)); });
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->empty());
  EXPECT_GE(cluster_->Count(ApiKey::FETCH_LOG), 1);
  EXPECT_FALSE(*overlapped);
}

}  // namespace
}  // namespace fluss::fake

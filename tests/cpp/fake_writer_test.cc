// The append writer against the fake cluster (tests/cpp/fake): per-bucket errors, lost and
// late answers, out-of-order sequences and timeouts, each scripted on the exact request, with
// the fake's log (what a leader stored) checked row by row.
#include <gtest/gtest.h>

#include "fake/fake_test_support.h"

namespace fluss::fake {
namespace {

using protocol::ApiKey;

class FakeWriterTest : public FakeClusterTest {
 protected:
  /// Holds the answer to the first send of batch 0 (stored on arrival) under `tag`.
  void HoldFirstSendOfBatch0(const std::string& tag) {
    cluster_->SetScript([tag](const Request& r) {
      if (r.api_key == ApiKey::PRODUCE_LOG && FirstBatch(r).sequence == 0 && FirstBatch(r).attempt == 0 && r.nth == 0)
        return Action::Answer().Hold(tag);
      return Action::Answer();
    });
  }
};

// A leader that moved: the old leader answers NOT_LEADER_OR_FOLLOWER (12) for all three
// batches in flight; the writer refreshes the metadata at the coordinator and sends them, in
// sequence order, to the new leader, which stores each once.
TEST_F(FakeWriterTest, NotLeaderRefreshesMetadataAndRetriesAtTheNewLeader) {
  ASSERT_NO_FATAL_FAILURE(Open());
  ASSERT_EQ(cluster_->Leader(table_id_, 0), 0);
  cluster_->SetLeader(table_id_, 0, 1);  // the client still believes tablet server 0 leads
  auto w = NewWriter();
  std::vector<WriteResult> handles;
  for (int32_t v = 0; v < 3; ++v) handles.push_back(AppendAlone(*w, v));
  for (auto& h : handles) EXPECT_TRUE(Outcome(h).ok());
  EXPECT_TRUE(Flush(*w).ok());
  EXPECT_EQ(Stored(), (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(StoredSequences(), (std::vector<int32_t>{0, 1, 2}));
  // Every batch went to server 0 first and was stored by server 1; metadata was asked between.
  int at_old = 0, at_new = 0;
  for (const auto& p : Produces()) (p.server == 0 ? at_old : at_new) += 1;
  EXPECT_GE(at_old, 1);
  EXPECT_EQ(at_new, 3);
  EXPECT_GE(cluster_->Count(ApiKey::GET_METADATA), 3);  // bootstrap, GetTable, the refresh
}

// A retriable error without a leader change (NOT_ENOUGH_REPLICAS 29) twice for the first
// batch: retried until stored; the later batches wait behind it and keep their order.
TEST_F(FakeWriterTest, RetriableErrorIsRetriedAndEveryRowStoredOnceInOrder) {
  ASSERT_NO_FATAL_FAILURE(Open());
  cluster_->SetScript([](const Request& r) {
    if (r.api_key == ApiKey::PRODUCE_LOG && FirstBatch(r).sequence == 0 && FirstBatch(r).attempt < 2)
      return Action::BucketError(protocol::NOT_ENOUGH_REPLICAS_EXCEPTION);
    return Action::Answer();
  });
  auto w = NewWriter();
  std::vector<WriteResult> handles;
  for (int32_t v = 0; v < 4; ++v) handles.push_back(AppendAlone(*w, v));
  for (auto& h : handles) EXPECT_TRUE(Outcome(h).ok());
  EXPECT_EQ(Stored(), (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(StoredSequences(), (std::vector<int32_t>{0, 1, 2, 3}));
  int seq0_attempts = 0;
  for (const auto& p : Produces())
    if (FirstBatch(p).sequence == 0) ++seq0_attempts;
  EXPECT_EQ(seq0_attempts, 3);
}

// A non-retriable error (RECORD_TOO_LARGE 13) for the first batch while two more are in flight
// behind it: its handle (and the flush) fail with 13; the server refuses the two behind it
// with OUT_OF_ORDER_SEQUENCE (31), as they follow a sequence it never stored, and the writer
// sends them again under a new writer id, so the later rows are stored, once, in order.
TEST_F(FakeWriterTest, NonRetriableErrorFailsTheHandleAndLaterRowsAreStored) {
  ASSERT_NO_FATAL_FAILURE(Open());
  cluster_->SetScript([](const Request& r) {
    if (r.api_key == ApiKey::PRODUCE_LOG && r.nth == 0)
      return Action::BucketError(protocol::RECORD_TOO_LARGE_EXCEPTION, "the batch is too large (fake)");
    return Action::Answer();
  });
  auto w = NewWriter();
  Value v0 = Value::Int(0);
  auto h0 = w->Append(&v0, 1);
  ASSERT_TRUE(h0.ok());
  // The flush waiting when the batch fails reports it (AppendAlone's flushes report to no one).
  auto flushed = std::make_shared<std::promise<Status>>();
  w->FlushAsync([flushed](Status st) { flushed->set_value(st); });
  auto h1 = AppendAlone(*w, 1);
  auto h2 = AppendAlone(*w, 2);
  Status st0 = Outcome(*h0);
  EXPECT_EQ(st0.code(), StatusCode::kServer);
  EXPECT_EQ(st0.error_code(), protocol::RECORD_TOO_LARGE_EXCEPTION) << st0.ToString();
  EXPECT_NE(st0.message().find("the batch is too large (fake)"), std::string::npos) << st0.ToString();
  EXPECT_TRUE(Outcome(h1).ok());
  EXPECT_TRUE(Outcome(h2).ok());
  auto flush_status = flushed->get_future();
  ASSERT_EQ(flush_status.wait_for(kGenerous), std::future_status::ready);
  Status fst = flush_status.get();
  EXPECT_EQ(fst.error_code(), protocol::RECORD_TOO_LARGE_EXCEPTION) << fst.ToString();
  // A later row works too.
  EXPECT_TRUE(Outcome(AppendAlone(*w, 3)).ok());
  EXPECT_TRUE(Flush(*w).ok());
  EXPECT_EQ(Stored(), (std::vector<int32_t>{1, 2, 3}));
  auto log = cluster_->Log(table_id_, 0);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0].header.batch_sequence, 0);  // a new writer id starts at 0 again
  EXPECT_NE(log[0].header.writer_id, FirstBatch(Produces()[0]).writer_id);
  EXPECT_EQ(log[1].header.batch_sequence, 1);
  EXPECT_EQ(log[2].header.batch_sequence, 2);
}

// The lost response of an early batch with later batches in flight: batch 0 is stored but its
// answer is held while batches 1 and 2 are acknowledged; then the connection drops (the held
// answer with it). The writer sends batch 0 again; the leader recognises its writer id and
// sequence and answers success with the original offset (protocol-rpc.md 9.3). Every handle
// succeeds and every batch is stored exactly once, in sequence order.
TEST_F(FakeWriterTest, LostResponseOfAnEarlyBatchIsAcknowledgedByItsRetry) {
  // (A request timeout far beyond the test: only the closed connection ends batch 0's request.)
  ASSERT_NO_FATAL_FAILURE(Open({{"client.request-timeout", "60 s"}}));
  HoldFirstSendOfBatch0("lost");
  auto w = NewWriter();
  auto h0 = AppendAlone(*w, 0);
  auto h1 = AppendAlone(*w, 1);
  auto h2 = AppendAlone(*w, 2);
  EXPECT_TRUE(Outcome(h1).ok());
  EXPECT_TRUE(Outcome(h2).ok());
  EXPECT_FALSE(h0.done());  // its answer is held
  EXPECT_EQ(Stored(), (std::vector<int32_t>{0, 1, 2}));
  cluster_->CloseConnections(0);
  EXPECT_TRUE(Outcome(h0).ok());
  EXPECT_TRUE(Flush(*w).ok());
  EXPECT_EQ(Stored(), (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(StoredSequences(), (std::vector<int32_t>{0, 1, 2}));
  bool retried = false;
  for (const auto& p : Produces()) retried |= FirstBatch(p).sequence == 0 && FirstBatch(p).attempt == 1;
  EXPECT_TRUE(retried);
}

// The same trap through the request timeout: batch 0's answer never comes in time, the writer
// gives up on that request after client.request-timeout and sends the batch again (a
// duplicate, answered with its original offset); the late answer, released afterwards, is for
// a request the client no longer waits for and changes nothing.
TEST_F(FakeWriterTest, LateAnswerAfterTheRetryIsIgnored) {
  ASSERT_NO_FATAL_FAILURE(Open({{"client.request-timeout", "500 ms"}}));
  HoldFirstSendOfBatch0("late");
  auto w = NewWriter();
  auto h0 = AppendAlone(*w, 0);
  auto h1 = AppendAlone(*w, 1);
  EXPECT_TRUE(Outcome(h1).ok());
  EXPECT_TRUE(Outcome(h0).ok());  // acknowledged by the retry
  ASSERT_EQ(cluster_->Held("late"), 1u);
  cluster_->Release("late");
  ASSERT_TRUE(cluster_->WaitFor([&] { return cluster_->Held("late") == 0; }));
  EXPECT_TRUE(Outcome(AppendAlone(*w, 2)).ok());
  EXPECT_TRUE(Flush(*w).ok());
  EXPECT_EQ(Stored(), (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(StoredSequences(), (std::vector<int32_t>{0, 1, 2}));
}

// Answers out of order: batch 0 fails with a retriable error (not stored), but its answer is
// held until batch 1's answer is written; batch 1, behind the missing sequence 0, is refused
// with OUT_OF_ORDER_SEQUENCE (31). The writer must not take 31 for batch 1 as final: batch 0
// was not acknowledged, so batch 1 is re-sent after it (protocol-rpc.md 9.4).
TEST_F(FakeWriterTest, OutOfOrderSequenceBehindAFailedBatchIsResentInOrder) {
  ASSERT_NO_FATAL_FAILURE(Open());
  cluster_->SetScript([](const Request& r) {
    if (r.api_key != ApiKey::PRODUCE_LOG || FirstBatch(r).attempt != 0) return Action::Answer();
    if (FirstBatch(r).sequence == 0) return Action::BucketError(protocol::NOT_ENOUGH_REPLICAS_EXCEPTION).Hold("first");
    if (FirstBatch(r).sequence == 1) return Action::Answer().ThenRelease("first");
    return Action::Answer();
  });
  auto w = NewWriter();
  auto h0 = AppendAlone(*w, 0);
  auto h1 = AppendAlone(*w, 1);
  EXPECT_TRUE(Outcome(h0).ok());
  EXPECT_TRUE(Outcome(h1).ok());
  EXPECT_EQ(Stored(), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(StoredSequences(), (std::vector<int32_t>{0, 1}));
  // Batch 1's first answer really was 31 (the fake applied the sequence rules).
  auto produces = Produces();
  ASSERT_GE(produces.size(), 4u);
  EXPECT_EQ(FirstBatch(produces[1]).sequence, 1);
}

// OUT_OF_ORDER_SEQUENCE for the next expected batch (the server lost the writer's state): the
// writer fails that batch with 31 and starts over with a new writer id; the batch in flight
// behind it is sent again under the new id and stored (protocol-rpc.md 9.4).
TEST_F(FakeWriterTest, OutOfOrderSequenceOfTheNextExpectedBatchFailsItAndResetsTheWriter) {
  ASSERT_NO_FATAL_FAILURE(Open());
  auto w = NewWriter();
  EXPECT_TRUE(Outcome(AppendAlone(*w, 0)).ok());
  cluster_->SetScript([](const Request& r) {
    if (r.api_key == ApiKey::PRODUCE_LOG && FirstBatch(r).sequence == 1 && FirstBatch(r).attempt == 0)
      return Action::BucketError(protocol::OUT_OF_ORDER_SEQUENCE_EXCEPTION, "writer state lost (fake)");
    return Action::Answer();
  });
  auto h1 = AppendAlone(*w, 1);
  auto h2 = AppendAlone(*w, 2);
  Status st1 = Outcome(h1);
  EXPECT_EQ(st1.error_code(), protocol::OUT_OF_ORDER_SEQUENCE_EXCEPTION) << st1.ToString();
  EXPECT_TRUE(Outcome(h2).ok());
  EXPECT_EQ(Stored(), (std::vector<int32_t>{0, 2}));
  auto log = cluster_->Log(table_id_, 0);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_NE(log[1].header.writer_id, log[0].header.writer_id);
  EXPECT_EQ(log[1].header.batch_sequence, 0);
  EXPECT_EQ(cluster_->Count(ApiKey::INIT_WRITER), 2);
}

// A batch whose answer is lost (stored, answer held) while the batch behind it fails for good
// (RECORD_TOO_LARGE 13): the writer id is replaced, and sending the first batch again under the
// new id would store it twice (the leader cannot match it to its old sequence). It fails with
// UNKNOWN_WRITER_ID_EXCEPTION (33) instead; the leader holds it exactly once.
TEST_F(FakeWriterTest, BatchInDoubtAfterAWriterResetFailsInsteadOfBeingStoredTwice) {
  ASSERT_NO_FATAL_FAILURE(Open({{"client.request-timeout", "60 s"}}));
  cluster_->SetScript([](const Request& r) {
    if (r.api_key != ApiKey::PRODUCE_LOG) return Action::Answer();
    if (r.nth == 0) return Action::Answer().Hold("lost");
    if (r.nth == 1) return Action::BucketError(protocol::RECORD_TOO_LARGE_EXCEPTION);
    return Action::Answer();
  });
  auto w = NewWriter();
  auto h0 = AppendAlone(*w, 0);
  auto h1 = AppendAlone(*w, 1);
  EXPECT_EQ(Outcome(h1).error_code(), protocol::RECORD_TOO_LARGE_EXCEPTION);
  cluster_->CloseConnections(0);  // batch 0's answer is lost with the connection
  Status st0 = Outcome(h0);
  EXPECT_EQ(st0.error_code(), protocol::UNKNOWN_WRITER_ID_EXCEPTION) << st0.ToString();
  EXPECT_NE(st0.message().find("may have stored it"), std::string::npos) << st0.ToString();
  EXPECT_TRUE(Outcome(AppendAlone(*w, 2)).ok());
  EXPECT_EQ(Stored(), (std::vector<int32_t>{0, 2}));
}

// No answer ever comes (every ProduceLog is stored but held): each attempt times out after
// client.request-timeout and is retried until client.writer.delivery-timeout, then the handle
// fails with kTimeout saying the batch may be stored (it is: once). Later rows are written
// under a new writer id.
TEST_F(FakeWriterTest, NoAnswerFailsTheHandleAtTheDeliveryTimeout) {
  ASSERT_NO_FATAL_FAILURE(Open({{"client.request-timeout", "300 ms"}, {"client.writer.delivery-timeout", "1500 ms"}}));
  cluster_->SetScript([](const Request& r) {
    return r.api_key == ApiKey::PRODUCE_LOG ? Action::Answer().Hold("never") : Action::Answer();
  });
  auto w = NewWriter();
  Status st = Outcome(AppendAlone(*w, 0));
  EXPECT_EQ(st.code(), StatusCode::kTimeout) << st.ToString();
  EXPECT_NE(st.message().find("client.writer.delivery-timeout"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("may have stored it"), std::string::npos) << st.ToString();
  EXPECT_GE(cluster_->Count(ApiKey::PRODUCE_LOG), 2);  // retried at least once
  cluster_->SetScript(nullptr);
  cluster_->Release("never");
  EXPECT_TRUE(Outcome(AppendAlone(*w, 1)).ok());
  EXPECT_EQ(Stored(), (std::vector<int32_t>{0, 1}));
}

// InitWriter refused with a retriable error (LEADER_NOT_AVAILABLE 44): asked again (of the
// next tablet server); the write then goes through with the writer id obtained.
TEST_F(FakeWriterTest, RetriableInitWriterErrorIsRetried) {
  ASSERT_NO_FATAL_FAILURE(Open());
  cluster_->SetScript([](const Request& r) {
    return r.api_key == ApiKey::INIT_WRITER && r.nth == 0 ? Action::RequestError(protocol::LEADER_NOT_AVAILABLE_EXCEPTION)
                                                          : Action::Answer();
  });
  auto w = NewWriter();
  EXPECT_TRUE(Outcome(AppendAlone(*w, 1)).ok());
  EXPECT_EQ(cluster_->Count(ApiKey::INIT_WRITER), 2);
  EXPECT_EQ(Stored(), (std::vector<int32_t>{1}));
  EXPECT_EQ(StoredSequences(), (std::vector<int32_t>{0}));
}

// InitWriter refused for good (AUTHORIZATION_EXCEPTION 48): the waiting writes fail with that
// code, nothing is sent; once the server accepts, later writes go through.
TEST_F(FakeWriterTest, NonRetriableInitWriterErrorFailsTheWaitingWrites) {
  ASSERT_NO_FATAL_FAILURE(Open());
  cluster_->SetScript([](const Request& r) {
    return r.api_key == ApiKey::INIT_WRITER && r.nth == 0
               ? Action::RequestError(protocol::AUTHORIZATION_EXCEPTION, "no WRITE on the table (fake)")
               : Action::Answer();
  });
  auto w = NewWriter();
  Status st = Outcome(AppendAlone(*w, 1));
  EXPECT_EQ(st.error_code(), protocol::AUTHORIZATION_EXCEPTION) << st.ToString();
  EXPECT_NE(st.message().find("no WRITE on the table (fake)"), std::string::npos) << st.ToString();
  EXPECT_EQ(cluster_->Count(ApiKey::PRODUCE_LOG), 0);
  EXPECT_TRUE(Outcome(AppendAlone(*w, 2)).ok());
  EXPECT_EQ(Stored(), (std::vector<int32_t>{2}));
}

// A slow answer well within the request timeout is simply waited for: no retry.
TEST_F(FakeWriterTest, DelayedAnswerWithinTheTimeoutIsNotRetried) {
  ASSERT_NO_FATAL_FAILURE(Open({{"client.request-timeout", "30 s"}}));
  cluster_->SetScript([](const Request& r) {
    return r.api_key == ApiKey::PRODUCE_LOG ? Action::Answer().After(200) : Action::Answer();
  });
  auto w = NewWriter();
  EXPECT_TRUE(Outcome(AppendAlone(*w, 7)).ok());
  EXPECT_EQ(cluster_->Count(ApiKey::PRODUCE_LOG), 1);
  EXPECT_EQ(Stored(), (std::vector<int32_t>{7}));
}

// Without idempotence a lost answer cannot be told from a lost request: the retry stores the
// batch a second time (the documented price of client.writer.enable-idempotence=false).
TEST_F(FakeWriterTest, WithoutIdempotenceALostAnswerDuplicatesTheBatch) {
  ASSERT_NO_FATAL_FAILURE(Open({{"client.writer.enable-idempotence", "false"}}));
  cluster_->SetScript([](const Request& r) {
    if (r.api_key == ApiKey::PRODUCE_LOG && r.nth == 0) return Action::StoreAndClose();
    return Action::Answer();
  });
  auto w = NewWriter();
  EXPECT_TRUE(Outcome(AppendAlone(*w, 5)).ok());
  EXPECT_EQ(Stored(), (std::vector<int32_t>{5, 5}));
  EXPECT_EQ(StoredSequences(), (std::vector<int32_t>{-1, -1}));
  EXPECT_EQ(cluster_->Count(ApiKey::INIT_WRITER), 0);
}

}  // namespace
}  // namespace fluss::fake

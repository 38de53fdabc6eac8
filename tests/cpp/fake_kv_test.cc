// Primary-key tables against the fake cluster (tests/cpp/fake): the upsert writer's lost and
// refused answers (a stale retry must never overwrite a later write), and point lookups across
// leader moves, errors and unanswered requests.
#include <gtest/gtest.h>

#include "fake/fake_test_support.h"

namespace fluss::fake {
namespace {

using protocol::ApiKey;

class FakeKvTest : public FakeClusterTest {
 protected:
  TableDescriptor Descriptor() const override {
    TableDescriptor d;
    d.schema.arrow_schema = arrow::schema({arrow::field("id", arrow::int32(), false), arrow::field("v", arrow::utf8())});
    d.schema.primary_keys = {"id"};
    return d;
  }

  std::shared_ptr<UpsertWriter> NewUpsertWriter() {
    auto w = table_->NewUpsertWriter();
    EXPECT_TRUE(w.ok()) << w.status().ToString();
    return w.ok() ? *w : nullptr;
  }

  /// Upserts (id, v) and sends its batch at once (a flush not waited for): a batch and a
  /// request of its own.
  static WriteResult UpsertAlone(UpsertWriter& w, int32_t id, std::string_view v) {
    const Value row[] = {Value::Int(id), Value::Bytes(v)};
    auto r = w.Upsert(row, 2);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    w.FlushAsync([](Status) {});
    return r.ok() ? *r : WriteResult();
  }

  /// The v of the row with primary key `id`, "<none>" when there is none, "<error ...>" on failure.
  std::string Lookup(int32_t id) {
    auto l = table_->NewLookuper();
    if (!l.ok()) return "<error " + l.status().ToString() + ">";
    const Value key[] = {Value::Int(id), Value::Null()};
    auto r = AwaitBounded<std::shared_ptr<arrow::RecordBatch>>([&](auto cb) { (*l)->LookupAsync(key, 2, std::move(cb)); });
    if (!r.ok()) return "<error " + r.status().ToString() + ">";
    if (!*r) return "<none>";
    return static_cast<const arrow::StringArray&>(*(*r)->column(1)).GetString(0);
  }

  Status LookupStatus(int32_t id) {
    auto l = table_->NewLookuper();
    if (!l.ok()) return l.status();
    const Value key[] = {Value::Int(id), Value::Null()};
    auto r = AwaitBounded<std::shared_ptr<arrow::RecordBatch>>([&](auto cb) { (*l)->LookupAsync(key, 2, std::move(cb)); });
    return r.ok() ? Status::OK() : r.status();
  }

  /// Holds the answer to the first PutKv (applied on arrival) under `tag`.
  void HoldFirstPut(const std::string& tag) {
    cluster_->SetScript([tag](const Request& r) {
      return r.api_key == ApiKey::PUT_KV && r.nth == 0 ? Action::Answer().Hold(tag) : Action::Answer();
    });
  }
};

// The lost answer of an upsert with a later upsert of the same key acknowledged meanwhile: the
// first batch is sent again after the connection drops, the leader recognises it as a duplicate
// and does not apply it again, so the later value stays (a stale retry applied again would
// silently undo the later write).
TEST_F(FakeKvTest, RetriedUpsertIsNotAppliedAgainOverALaterOne) {
  ASSERT_NO_FATAL_FAILURE(Open({{"client.request-timeout", "60 s"}}));
  HoldFirstPut("lost");
  auto w = NewUpsertWriter();
  auto first = UpsertAlone(*w, 1, "old");
  auto second = UpsertAlone(*w, 1, "new");
  EXPECT_TRUE(Outcome(second).ok());
  cluster_->CloseConnections(0);
  EXPECT_TRUE(Outcome(first).ok());
  EXPECT_EQ(Lookup(1), "new");
  EXPECT_EQ(cluster_->KvBatchesApplied(table_id_, 0), 2);
  EXPECT_EQ(cluster_->KvRows(table_id_, 0).size(), 1u);
}

// Without idempotence the writer keeps one batch per bucket in flight, so the later upsert waits
// for the first one's fate: the retry of the first is applied twice (no deduplication) but
// still before the later one, which wins.
TEST_F(FakeKvTest, WithoutIdempotenceTheLaterUpsertWaitsForTheRetriedOne) {
  ASSERT_NO_FATAL_FAILURE(Open({{"client.request-timeout", "60 s"}, {"client.writer.enable-idempotence", "false"}}));
  HoldFirstPut("lost");
  auto w = NewUpsertWriter();
  auto first = UpsertAlone(*w, 1, "old");
  auto second = UpsertAlone(*w, 1, "new");
  ASSERT_TRUE(cluster_->WaitFor([&] { return cluster_->Held("lost") == 1; }));
  cluster_->CloseConnections(0);
  EXPECT_TRUE(Outcome(first).ok());
  EXPECT_TRUE(Outcome(second).ok());
  EXPECT_EQ(Lookup(1), "new");
  EXPECT_EQ(cluster_->KvBatchesApplied(table_id_, 0), 3);
  // The order the leader saw: the first batch, its retry, then the later one.
  std::vector<int> attempts;
  for (const auto& r : cluster_->Requests())
    if (r.request.api_key == ApiKey::PUT_KV) attempts.push_back(FirstBatch(r.request).attempt);
  EXPECT_EQ(attempts, (std::vector<int>{0, 1, 0}));
}

// Leader moves: NOT_LEADER_OR_FOLLOWER (12) from the old leader; the writer refreshes the
// metadata and writes at the new one, lookups follow. A delete (after a move back) leaves no row.
TEST_F(FakeKvTest, UpsertLookupAndDeleteFollowALeaderMove) {
  ASSERT_NO_FATAL_FAILURE(Open());
  cluster_->SetLeader(table_id_, 0, 1);
  auto w = NewUpsertWriter();
  EXPECT_TRUE(Outcome(UpsertAlone(*w, 7, "seven")).ok());
  EXPECT_EQ(Lookup(7), "seven");
  EXPECT_EQ(Lookup(8), "<none>");
  cluster_->SetLeader(table_id_, 0, 0);
  const Value key[] = {Value::Int(7), Value::Null()};
  auto d = w->Delete(key, 2);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  w->FlushAsync([](Status) {});
  EXPECT_TRUE(Outcome(*d).ok());
  EXPECT_EQ(Lookup(7), "<none>");
  EXPECT_TRUE(cluster_->KvRows(table_id_, 0).empty());
  // Each write went first to the server the client still took for the leader (refused) and
  // was applied by the other; lookups went where the writes had taught the client.
  std::map<int32_t, int> puts, lookups;
  for (const auto& r : cluster_->Requests()) {
    if (r.request.api_key == ApiKey::PUT_KV) ++puts[r.request.server];
    if (r.request.api_key == ApiKey::LOOKUP) ++lookups[r.request.server];
  }
  EXPECT_EQ(puts, (std::map<int32_t, int>{{0, 2}, {1, 2}}));
  EXPECT_EQ(lookups, (std::map<int32_t, int>{{0, 1}, {1, 2}}));
  EXPECT_EQ(cluster_->KvBatchesApplied(table_id_, 0), 2);
}

// A refused upsert (a non-retriable per-bucket error) fails its handle with that code; the
// row is not there, and the next upsert is written.
TEST_F(FakeKvTest, NonRetriableUpsertErrorFailsTheHandle) {
  ASSERT_NO_FATAL_FAILURE(Open());
  cluster_->SetScript([](const Request& r) {
    return r.api_key == ApiKey::PUT_KV && r.nth == 0 ? Action::BucketError(protocol::INVALID_TARGET_COLUMN, "bad columns (fake)")
                                                     : Action::Answer();
  });
  auto w = NewUpsertWriter();
  Status st = Outcome(UpsertAlone(*w, 1, "x"));
  EXPECT_EQ(st.error_code(), protocol::INVALID_TARGET_COLUMN) << st.ToString();
  EXPECT_EQ(Lookup(1), "<none>");
  EXPECT_TRUE(Outcome(UpsertAlone(*w, 2, "y")).ok());
  EXPECT_EQ(Lookup(2), "y");
}

// A lookup refused with a non-retriable error fails with that code; a lookup whose answer never
// comes fails with kTimeout at client.request-timeout. The next lookup works either way.
TEST_F(FakeKvTest, LookupErrorsFailTheLookupAndTheNextWorks) {
  ASSERT_NO_FATAL_FAILURE(Open({{"client.request-timeout", "500 ms"}}));
  auto w = NewUpsertWriter();
  EXPECT_TRUE(Outcome(UpsertAlone(*w, 3, "three")).ok());
  cluster_->SetScript([](const Request& r) {
    if (r.api_key != ApiKey::LOOKUP) return Action::Answer();
    if (r.nth == 0) return Action::BucketError(protocol::AUTHORIZATION_EXCEPTION, "no READ (fake)");
    if (r.nth == 1) return Action::Drop();
    return Action::Answer();
  });
  Status refused = LookupStatus(3);
  EXPECT_EQ(refused.error_code(), protocol::AUTHORIZATION_EXCEPTION) << refused.ToString();
  Status unanswered = LookupStatus(3);
  EXPECT_EQ(unanswered.code(), StatusCode::kTimeout) << unanswered.ToString();
  EXPECT_EQ(Lookup(3), "three");
}

}  // namespace
}  // namespace fluss::fake

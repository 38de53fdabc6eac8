// Connections against the fake cluster (tests/cpp/fake): malformed frames, answers that never
// come, and connections closed by the server, on admin calls and on writes. The client must
// fail the call with a clear error (or retry it, for writes), reconnect, and go on; it must
// never hang or crash.
#include <gtest/gtest.h>

#include "fake/fake_test_support.h"
#include "fluss/proto/fluss_api.pb.h"

namespace fluss::fake {
namespace {

using protocol::ApiKey;

class FakeConnectionTest : public FakeClusterTest {
 protected:
  Result<TableInfo> GetTableInfo() {
    auto admin = conn_->GetAdmin();
    return AwaitBounded<TableInfo>([&](auto cb) { admin->GetTableInfoAsync(path_, std::move(cb)); });
  }
  /// The connection number of the last GetTableInfo the coordinator received.
  uint64_t LastTableInfoConnection() const {
    uint64_t c = 0;
    for (const auto& r : cluster_->Requests())
      if (r.request.api_key == ApiKey::GET_TABLE_INFO) c = r.request.connection;
    return c;
  }
  void FailFirstTableInfo(Action a) {
    cluster_->SetScript([a](const Request& r) {
      return r.api_key == ApiKey::GET_TABLE_INFO && r.nth == 1 ? a : Action::Answer();
    });
  }
};

/// The test name suffix of a malformed-frame kind.
std::string KindName(MalformedKind k) {
  switch (k) {
    case MalformedKind::kNegativeLength: return "NegativeLength";
    case MalformedKind::kHugeLength: return "HugeLength";
    case MalformedKind::kUnknownResponseType: return "UnknownResponseType";
    case MalformedKind::kGarbageBody: return "GarbageBody";
    case MalformedKind::kServerFailure: return "ServerFailure";
  }
  return "Unknown";
}

/// A malformed frame and what the client must make of it.
struct MalformedCase {
  MalformedKind kind;
  StatusCode code;   ///< of the failed call
  const char* text;  ///< in its message
  bool reconnects;   ///< the connection was dropped
};

class MalformedFrameTest : public FakeConnectionTest, public ::testing::WithParamInterface<MalformedCase> {};

// A malformed frame on the coordinator connection fails the call with an error naming the
// server. A frame the client cannot take apart (bad length, unknown response type, SERVER_FAILURE)
// ends the connection, and the next call reconnects; a body that does not parse in an intact
// frame fails only its call (the connection is kept). Either way the next call succeeds.
TEST_P(MalformedFrameTest, FailsTheCallAndTheNextCallSucceeds) {
  ASSERT_NO_FATAL_FAILURE(Open());
  const MalformedCase& c = GetParam();
  FailFirstTableInfo(Action::Malformed(c.kind));
  auto bad = GetTableInfo();
  ASSERT_FALSE(bad.ok());
  const uint64_t bad_connection = LastTableInfoConnection();
  const Status& st = bad.status();
  EXPECT_EQ(st.code(), c.code) << st.ToString();
  EXPECT_NE(st.message().find(c.text), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("127.0.0.1:" + std::to_string(cluster_->port(kCoordinator))), std::string::npos)
      << st.ToString();
  auto good = GetTableInfo();
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EXPECT_EQ(good->table_id, table_id_);
  EXPECT_EQ(LastTableInfoConnection() != bad_connection, c.reconnects);
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, MalformedFrameTest,
    ::testing::Values(
        MalformedCase{MalformedKind::kNegativeLength, StatusCode::kNetwork, "bad response frame length -1", true},
        MalformedCase{MalformedKind::kHugeLength, StatusCode::kNetwork, "bad response frame length 2147483647", true},
        MalformedCase{MalformedKind::kUnknownResponseType, StatusCode::kProtocol, "unknown response type 7", true},
        MalformedCase{MalformedKind::kGarbageBody, StatusCode::kProtocol, "malformed GET_TABLE_INFO response from", false},
        // UNKNOWN_SERVER_ERROR (-1), the code the fake's SERVER_FAILURE frame carries
        MalformedCase{MalformedKind::kServerFailure, StatusCode::kServer, "fake server failure", true}),
    [](const auto& info) { return KindName(info.param.kind); });

// A malformed answer to a write that the leader stored: the batch's outcome is unknown, so the
// writer sends it again (a duplicate the leader recognises) and it is stored exactly once.
class MalformedProduceAnswerTest : public FakeConnectionTest, public ::testing::WithParamInterface<MalformedKind> {};

TEST_P(MalformedProduceAnswerTest, StoredWriteIsRetriedAndStoredOnce) {
  ASSERT_NO_FATAL_FAILURE(Open());
  const MalformedKind kind = GetParam();
  cluster_->SetScript([kind](const Request& r) {
    return r.api_key == ApiKey::PRODUCE_LOG && r.nth == 0 ? Action::Malformed(kind).Applied() : Action::Answer();
  });
  auto w = NewWriter();
  auto h0 = AppendAlone(*w, 0);
  Status st = Outcome(h0);
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(Outcome(AppendAlone(*w, 1)).ok());
  EXPECT_EQ(Stored(), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(StoredSequences(), (std::vector<int32_t>{0, 1}));
}

INSTANTIATE_TEST_SUITE_P(Kinds, MalformedProduceAnswerTest,
                         ::testing::Values(MalformedKind::kNegativeLength, MalformedKind::kHugeLength,
                                           MalformedKind::kUnknownResponseType, MalformedKind::kGarbageBody),
                         [](const auto& info) { return KindName(info.param); });

// An admin call whose answer never comes fails with kTimeout after client.request-timeout
// (not a hang); the next call on the same connection succeeds.
TEST_F(FakeConnectionTest, UnansweredCallTimesOutAndTheNextSucceeds) {
  ASSERT_NO_FATAL_FAILURE(Open({{"client.request-timeout", "300 ms"}}));
  FailFirstTableInfo(Action::Drop());
  auto bad = GetTableInfo();
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kTimeout) << bad.status().ToString();
  EXPECT_NE(bad.status().message().find("client.request-timeout"), std::string::npos) << bad.status().ToString();
  EXPECT_TRUE(bad.status().IsRetriable());
  auto good = GetTableInfo();
  ASSERT_TRUE(good.ok()) << good.status().ToString();
}

// A server that closes the connection instead of answering: the call fails with kNetwork
// (retriable), the next reconnects.
TEST_F(FakeConnectionTest, ClosedConnectionFailsTheCallAndTheNextReconnects) {
  ASSERT_NO_FATAL_FAILURE(Open());
  FailFirstTableInfo(Action::Close());
  auto bad = GetTableInfo();
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kNetwork) << bad.status().ToString();
  EXPECT_TRUE(bad.status().IsRetriable());
  auto good = GetTableInfo();
  ASSERT_TRUE(good.ok()) << good.status().ToString();
}

// An ERROR_RESPONSE for the request: the call fails with the server's code and message; the
// connection stays (the next call uses it).
TEST_F(FakeConnectionTest, ErrorResponseFailsOnlyThatCall) {
  ASSERT_NO_FATAL_FAILURE(Open());
  FailFirstTableInfo(Action::RequestError(protocol::AUTHORIZATION_EXCEPTION, "no DESCRIBE on the table (fake)"));
  const uint64_t before = LastTableInfoConnection();
  auto bad = GetTableInfo();
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().error_code(), protocol::AUTHORIZATION_EXCEPTION) << bad.status().ToString();
  EXPECT_NE(bad.status().message().find("no DESCRIBE on the table (fake)"), std::string::npos);
  auto good = GetTableInfo();
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EXPECT_EQ(LastTableInfoConnection(), before);
}

// The bootstrap server closes the first connection: Connect tries again and succeeds.
TEST_F(FakeConnectionTest, BootstrapRetriesAfterAClosedConnection) {
  cluster_ = std::make_unique<FakeCluster>(1);
  cluster_->SetScript([](const Request& r) {
    return r.api_key == ApiKey::GET_METADATA && r.nth == 0 ? Action::Close() : Action::Answer();
  });
  auto conn = AwaitBounded<std::shared_ptr<Connection>>([&](auto cb) {
    Connection::ConnectAsync({{"bootstrap.servers", cluster_->bootstrap()}}, std::move(cb));
  });
  ASSERT_TRUE(conn.ok()) << conn.status().ToString();
  conn_ = *conn;
  EXPECT_EQ(cluster_->Count(ApiKey::GET_METADATA), 2);
}

// A server that reports no live tablet servers yet (a cluster starting): Connect asks again
// instead of failing or keeping an empty server list.
TEST_F(FakeConnectionTest, BootstrapWaitsWhileNoTabletServerIsReported) {
  cluster_ = std::make_unique<FakeCluster>(1);
  cluster_->SetScript([](const Request& r) {
    if (r.api_key != ApiKey::GET_METADATA || r.nth != 0) return Action::Answer();
    return Action::Answer().Edit([](google::protobuf::Message& m) {
      static_cast<proto::MetadataResponse&>(m).clear_tablet_servers();
    });
  });
  auto conn = AwaitBounded<std::shared_ptr<Connection>>([&](auto cb) {
    Connection::ConnectAsync({{"bootstrap.servers", cluster_->bootstrap()}}, std::move(cb));
  });
  ASSERT_TRUE(conn.ok()) << conn.status().ToString();
  conn_ = *conn;
  EXPECT_EQ(cluster_->Count(ApiKey::GET_METADATA), 2);
}

// Metadata naming a bucket leader that is not in the tablet-server list (as during a restart,
// LEADER_NOT_AVAILABLE for the Java client): the writer waits for a refresh that names a live
// leader instead of sending anywhere, and the row is stored once.
TEST_F(FakeConnectionTest, LeaderMissingFromTheServerListIsRefreshedBeforeWriting) {
  ASSERT_NO_FATAL_FAILURE(Open());
  // The next metadata answer (the writer's first refresh would be the one after it) names node 7.
  const int seen = cluster_->Count(ApiKey::GET_METADATA);
  cluster_->SetLeader(table_id_, 0, 1);  // the cached leader (0) refuses; the refresh is edited
  cluster_->SetScript([seen](const Request& r) {
    if (r.api_key != ApiKey::GET_METADATA || r.nth != seen) return Action::Answer();
    return Action::Answer().Edit([](google::protobuf::Message& m) {
      auto& resp = static_cast<proto::MetadataResponse&>(m);
      for (auto& t : *resp.mutable_table_metadata())
        for (auto& b : *t.mutable_bucket_metadata()) b.set_leader_id(7);
    });
  });
  auto w = NewWriter();
  EXPECT_TRUE(Outcome(AppendAlone(*w, 4)).ok());
  EXPECT_EQ(Stored(), (std::vector<int32_t>{4}));
  for (const auto& p : Produces()) EXPECT_NE(p.server, 7);
  EXPECT_GE(cluster_->Count(ApiKey::GET_METADATA), seen + 2);
}

// Answers to two requests on one connection in the opposite order (a delayed answer overtaken
// by a later one): each goes to its own request, matched by request id.
TEST_F(FakeConnectionTest, AnswersOutOfOrderAreMatchedByRequestId) {
  ASSERT_NO_FATAL_FAILURE(Open());
  auto admin = conn_->GetAdmin();
  FakeCluster* cluster = cluster_.get();
  cluster_->SetScript([cluster](const Request& r) {
    if (r.api_key == ApiKey::GET_TABLE_INFO && r.nth == 1) return Action::Answer().Hold("first");
    if (r.api_key == ApiKey::GET_METADATA && cluster->Held("first") == 1) return Action::Answer().ThenRelease("first");
    return Action::Answer();
  });
  auto info = std::async(std::launch::async, [&] { return GetTableInfo(); });
  ASSERT_TRUE(cluster_->WaitFor([&] { return cluster_->Held("first") == 1; }));
  auto leaders = AwaitBounded<std::map<int32_t, int32_t>>([&](auto cb) { admin->ListBucketLeadersAsync(path_, std::move(cb)); });
  ASSERT_TRUE(leaders.ok()) << leaders.status().ToString();
  EXPECT_EQ(*leaders, (std::map<int32_t, int32_t>{{0, 0}}));
  ASSERT_EQ(info.wait_for(kGenerous), std::future_status::ready);
  auto got = info.get();
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(got->table_id, table_id_);
}

}  // namespace
}  // namespace fluss::fake

// What the fake-cluster tests share: a fixture with a fake cluster, a log table on it and a
// real client connection, bounded waits (a test fails instead of hanging), and the values the
// fake stored, decoded from its log.
#pragma once

#include <gtest/gtest.h>

#include <arrow/api.h>

#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fake/fake_cluster.h"
#include "fluss/client.h"
#include "fluss/protocol/errors.h"
#include "fluss/record/arrow_log.h"

namespace fluss::fake {

/// The bound of every wait of these tests: generous, so only a hang or a lost completion
/// reaches it, never a slow machine.
inline constexpr std::chrono::seconds kGenerous{60};

/// Runs `start(callback)` and waits at most kGenerous for the result; a kTimeout status saying
/// "the test gave up" when it does not come (the call hung).
template <typename T, typename Start>
Result<T> AwaitBounded(Start&& start) {
  auto promise = std::make_shared<std::promise<Result<T>>>();
  auto future = promise->get_future();
  start([promise](Result<T> r) { promise->set_value(std::move(r)); });
  if (future.wait_for(kGenerous) != std::future_status::ready)
    return Status::Timeout("the test gave up waiting: the call never completed");
  return future.get();
}

template <typename Start>
Status AwaitStatusBounded(Start&& start) {
  auto r = AwaitBounded<bool>([&](Callback<bool> cb) { start([cb](Status st) { cb(st.ok() ? Result<bool>(true) : Result<bool>(st)); }); });
  return r.ok() ? Status::OK() : r.status();
}

/// The outcome of a write handle, waited for at most kGenerous.
inline Status Outcome(const WriteResult& w) {
  return AwaitStatusBounded([&](StatusCallback cb) { w.OnComplete(std::move(cb)); });
}

/// A fake cluster with `tablet_servers()` tablet servers, the table Descriptor() describes (by
/// default a one-column, INT "a", ARROW log table, uncompressed) and a client connected to it.
class FakeClusterTest : public ::testing::Test {
 protected:
  virtual int tablet_servers() const { return 2; }
  virtual TableDescriptor Descriptor() const {
    TableDescriptor d;
    d.schema.arrow_schema = arrow::schema({arrow::field("a", arrow::int32())});
    d.properties["table.log.arrow.compression.type"] = "NONE";
    return d;
  }

  /// Adds the table and connects with `properties` on top of the bootstrap address and a 10 s
  /// request timeout (tests of lost answers set a shorter one; the others must not see a
  /// timeout on a slow machine). A fatal failure when it cannot.
  void Open(std::map<std::string, std::string> properties = {}, int32_t buckets = 1) {
    cluster_ = std::make_unique<FakeCluster>(tablet_servers());
    TableDescriptor d = Descriptor();
    d.bucket_count = buckets;
    table_id_ = cluster_->AddTable(path_, d);
    properties["bootstrap.servers"] = cluster_->bootstrap();
    properties.emplace("client.request-timeout", "10 s");
    auto conn = AwaitBounded<std::shared_ptr<Connection>>(
        [&](Callback<std::shared_ptr<Connection>> cb) { Connection::ConnectAsync(properties, std::move(cb)); });
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    conn_ = *conn;
    auto table = AwaitBounded<std::shared_ptr<Table>>([&](auto cb) { conn_->GetTableAsync(path_, std::move(cb)); });
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    table_ = *table;
  }

  void TearDown() override {
    if (conn_) EXPECT_TRUE(conn_->Close().ok());
    conn_.reset();
    cluster_.reset();
  }

  std::shared_ptr<AppendWriter> NewWriter() {
    auto w = table_->NewAppendWriter();
    EXPECT_TRUE(w.ok()) << w.status().ToString();
    return w.ok() ? *w : nullptr;
  }

  /// Appends one row (a = `v`) and closes its batch at once (a flush not waited for), so every
  /// call makes a batch, and so a request, of its own.
  static WriteResult AppendAlone(AppendWriter& w, int32_t v) {
    Value value = Value::Int(v);
    auto r = w.Append(&value, 1);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    w.FlushAsync([](Status) {});
    return r.ok() ? *r : WriteResult();
  }

  static Status Flush(AppendWriter& w) {
    return AwaitStatusBounded([&](StatusCallback cb) { w.FlushAsync(std::move(cb)); });
  }

  /// The values of column a stored in `bucket`, in offset order, decoded from the fake's log.
  std::vector<int32_t> Stored(int32_t bucket = 0) const {
    std::vector<int32_t> out;
    for (const auto& b : cluster_->Log(table_id_, bucket)) {
      auto buf = arrow::Buffer::FromString(b.bytes);
      auto rb = record::DecodeArrowLogBatch(buf, b.header, table_->info().descriptor.schema.arrow_schema);
      EXPECT_TRUE(rb.ok()) << rb.status().ToString();
      if (!rb.ok() || !*rb) continue;
      const auto& col = static_cast<const arrow::Int32Array&>(*(*rb)->column(0));
      for (int64_t i = 0; i < col.length(); ++i) out.push_back(col.Value(i));
    }
    return out;
  }

  /// The batch sequences stored in `bucket`, in offset order.
  std::vector<int32_t> StoredSequences(int32_t bucket = 0) const {
    std::vector<int32_t> out;
    for (const auto& b : cluster_->Log(table_id_, bucket)) out.push_back(b.header.batch_sequence);
    return out;
  }

  /// The ProduceLog requests received so far, in order.
  std::vector<Request> Produces() const {
    std::vector<Request> out;
    for (const auto& r : cluster_->Requests())
      if (r.request.api_key == protocol::ApiKey::PRODUCE_LOG) out.push_back(r.request);
    return out;
  }

  std::unique_ptr<FakeCluster> cluster_;
  TablePath path_{"fluss", "fake_t"};
  int64_t table_id_ = 0;
  std::shared_ptr<Connection> conn_;
  std::shared_ptr<Table> table_;
};

/// The first (only) batch of a ProduceLog request, or a default one.
inline RequestBatch FirstBatch(const Request& r) { return r.batches.empty() ? RequestBatch{} : r.batches[0]; }

}  // namespace fluss::fake

// Integration tests against a real cluster (FLUSS_BOOTSTRAP_SERVERS): idempotent produce. The
// server must write a re-sent batch (same writer id and sequence) once, answering with its
// original offset, and our writer must stamp writer ids and per-bucket sequences.
#include <gtest/gtest.h>

#include <arrow/api.h>

#include <cstdlib>
#include <future>
#include <thread>

#include "fluss/client.h"
#include "fluss/client/connection_impl.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/errors.h"
#include "fluss/record/arrow_log.h"
#include "fluss/record/kv_batch.h"
#include "fluss/record/log_batch.h"
#include "fluss/row/kv_value.h"
#include "it_support.h"

namespace fluss {
namespace {

using client::ConnectionImpl;
using it::Bootstrap;
using it::RunOnIo;
using protocol::ApiKey;

// How long a new table's bucket may take to get a leader: a bound against a hang, not a speed
// requirement (under a loaded machine 0.9.1's coordinator took over 30 s once).
constexpr auto kLeaderWait = std::chrono::seconds(180);

class IdempotenceIT : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(it::Connect(&conn_, &admin_));
    path_ = it::TestTablePath("idempotence_it_");
    TableDescriptor d;
    d.schema.arrow_schema = arrow::schema({arrow::field("a", arrow::int32())});
    d.bucket_count = 1;
    d.properties["table.log.arrow.compression.type"] = "NONE";
    ASSERT_TRUE(it::CreateServedTable(*admin_, path_, d).ok());
    auto t = Await<std::shared_ptr<Table>>([&](auto cb) { conn_->GetTableAsync(path_, cb); });
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    table_ = *t;
    auto impl = ConnectionImpl::Create({{"bootstrap.servers", Bootstrap()}});
    ASSERT_TRUE(impl.ok());
    raw_ = *impl;
    auto ready = RunOnIo<bool>(raw_, [](std::shared_ptr<ConnectionImpl> c, TablePath p) -> asio::awaitable<Result<bool>> {
                  Status st = co_await c->cluster()->Bootstrap();
                  if (!st.ok()) co_return st;
                  const std::vector<TablePath> tables{p};
                  st = co_await c->cluster()->WaitForLeaders(p, 1, metadata::Clock::now() + kLeaderWait);
                  if (!st.ok()) co_return st;
                  co_return true;
                }(raw_, path_));
    ASSERT_TRUE(ready.ok()) << ready.status().ToString();
  }
  void TearDown() override {
    if (admin_) EXPECT_TRUE(AwaitStatus([&](auto cb) { admin_->DropTableAsync(path_, true, cb); }).ok());
    if (raw_) EXPECT_TRUE(raw_->Close().ok());
    if (conn_) EXPECT_TRUE(conn_->Close().ok());
  }

  /// The leader of bucket 0 of `leader_path_` (the fixture's table unless a test sets another).
  std::shared_ptr<net::ServerConnection> Leader() {
    return raw_->cluster()->TabletServer(*raw_->cluster()->metadata().Leader(leader_path_.table_name.empty() ? path_ : leader_path_, 0));
  }

  /// Sends `req` to the leader of bucket 0, retrying the first bucket's retriable errors for a
  /// while (right after create the leader may not serve the bucket yet), as the writer does.
  template <typename Resp, typename Req>
  Result<Resp> CallRetrying(ApiKey key, const Req& req) {
    for (int attempt = 0;; ++attempt) {
      auto r = RunOnIo<Resp>(raw_, raw_->cluster()->Call<Resp>(Leader(), key, req));
      if (!r.ok() || !r->buckets_resp(0).has_error_code() || attempt >= 100 ||
          !protocol::IsRetriableError(r->buckets_resp(0).error_code()))
        return r;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  Result<proto::ProduceLogResponse> Produce(const std::shared_ptr<arrow::Buffer>& batch) {
    proto::ProduceLogRequest req;
    req.set_acks(-1);
    req.set_table_id(table_->info().table_id);
    req.set_timeout_ms(30000);
    auto* b = req.add_buckets_req();
    b->set_bucket_id(0);
    b->set_records(batch->data(), static_cast<size_t>(batch->size()));
    return CallRetrying<proto::ProduceLogResponse>(ApiKey::PRODUCE_LOG, req);
  }

  /// Every batch header of bucket 0 from offset 0 (of the fixture's table, or `table_id`).
  std::vector<record::LogBatchHeader> Headers(int64_t table_id = -1) {
    proto::FetchLogRequest req;
    req.set_follower_server_id(-1);
    req.set_max_bytes(1 << 20);
    auto* t = req.add_tables_req();
    t->set_table_id(table_id >= 0 ? table_id : table_->info().table_id);
    t->set_projection_pushdown_enabled(false);
    auto* b = t->add_buckets_req();
    b->set_bucket_id(0);
    b->set_fetch_offset(0);
    b->set_max_fetch_bytes(1 << 20);
    auto resp = RunOnIo<proto::FetchLogResponse>(raw_, raw_->cluster()->Call<proto::FetchLogResponse>(Leader(), ApiKey::FETCH_LOG, req));
    EXPECT_TRUE(resp.ok()) << resp.status().ToString();
    std::vector<record::LogBatchHeader> out;
    if (!resp.ok()) return out;
    const std::string& rec = resp->tables_resp(0).buckets_resp(0).records();
    record::LogBatchIterator it(reinterpret_cast<const uint8_t*>(rec.data()), rec.size());
    record::LogBatchHeader h;
    const uint8_t* p;
    Status st;
    while (it.Next(&h, &p, &st)) out.push_back(h);
    return out;
  }

  std::shared_ptr<arrow::Buffer> Batch(std::vector<int32_t> values, int64_t writer_id, int32_t seq) {
    arrow::Int32Builder b;
    EXPECT_TRUE(b.AppendValues(values).ok());
    auto rb = arrow::RecordBatch::Make(table_->info().descriptor.schema.arrow_schema,
                                       static_cast<int64_t>(values.size()), {*b.Finish()});
    auto enc = record::EncodeArrowLogBatch(*rb, static_cast<int16_t>(table_->info().schema_id),
                                           *record::ArrowWriteOptions("NONE", 3));
    EXPECT_TRUE(enc.ok());
    record::SetWriterAndSequence((*enc)->mutable_data(), static_cast<size_t>((*enc)->size()), writer_id, seq);
    return *enc;
  }

  int64_t InitWriter() {
    proto::InitWriterRequest req;
    auto* p = req.add_table_path();
    p->set_database_name(path_.database_name);
    p->set_table_name(path_.table_name);
    auto r = RunOnIo<proto::InitWriterResponse>(raw_, raw_->cluster()->Call<proto::InitWriterResponse>(Leader(), ApiKey::INIT_WRITER, req));
    for (int attempt = 0; !r.ok() && r.status().IsRetriable() && attempt < 100; ++attempt) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      r = RunOnIo<proto::InitWriterResponse>(raw_, raw_->cluster()->Call<proto::InitWriterResponse>(Leader(), ApiKey::INIT_WRITER, req));
    }
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r->writer_id() : -1;
  }

  std::shared_ptr<Connection> conn_;
  std::shared_ptr<Admin> admin_;
  std::shared_ptr<Table> table_;
  std::shared_ptr<ConnectionImpl> raw_;
  TablePath path_;
  TablePath leader_path_;
};

TEST_F(IdempotenceIT, ResentBatchIsWrittenOnceWithItsOriginalOffset) {
  const int64_t writer = InitWriter();
  ASSERT_GE(writer, 0);
  auto first = Batch({1, 2, 3}, writer, 0);
  auto r1 = Produce(first);
  ASSERT_TRUE(r1.ok());
  ASSERT_FALSE(r1->buckets_resp(0).has_error_code());
  EXPECT_EQ(r1->buckets_resp(0).base_offset(), 0);
  // The same bytes again (as after a lost response): success, original offset, no new rows.
  auto r2 = Produce(first);
  ASSERT_TRUE(r2.ok());
  ASSERT_FALSE(r2->buckets_resp(0).has_error_code()) << r2->buckets_resp(0).error_message();
  EXPECT_EQ(r2->buckets_resp(0).base_offset(), 0);
  auto r3 = Produce(Batch({4}, writer, 1));
  ASSERT_TRUE(r3.ok());
  EXPECT_EQ(r3->buckets_resp(0).base_offset(), 3);
  // A gap in the sequence is refused.
  auto r4 = Produce(Batch({9}, writer, 5));
  ASSERT_TRUE(r4.ok());
  EXPECT_EQ(r4->buckets_resp(0).error_code(), protocol::OUT_OF_ORDER_SEQUENCE_EXCEPTION);
  auto headers = Headers();
  ASSERT_EQ(headers.size(), 2u);
  EXPECT_EQ(headers[0].base_offset, 0);
  EXPECT_EQ(headers[0].record_count, 3);
  EXPECT_EQ(headers[0].writer_id, writer);
  EXPECT_EQ(headers[0].batch_sequence, 0);
  EXPECT_EQ(headers[1].base_offset, 3);
  EXPECT_EQ(headers[1].batch_sequence, 1);
}

TEST_F(IdempotenceIT, AppendWriterStampsWriterIdAndSequences) {
  auto writer = table_->NewAppendWriter();
  ASSERT_TRUE(writer.ok());
  for (int i = 0; i < 3; ++i) {
    Value v = Value::Int(i);
    ASSERT_TRUE((*writer)->Append(&v, 1).ok());
    ASSERT_TRUE(AwaitStatus([&](auto cb) { (*writer)->FlushAsync(cb); }).ok());
  }
  auto headers = Headers();
  ASSERT_EQ(headers.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_GE(headers[i].writer_id, 0);
    EXPECT_EQ(headers[i].writer_id, headers[0].writer_id);
    EXPECT_EQ(headers[i].batch_sequence, i);
    EXPECT_EQ(headers[i].base_offset, i);
  }
}

TEST_F(IdempotenceIT, WithoutIdempotenceBatchesCarryNoWriterId) {
  auto conn = Connection::Connect({{"bootstrap.servers", Bootstrap()}, {"client.writer.enable-idempotence", "false"}});
  ASSERT_TRUE(conn.ok());
  auto t = Await<std::shared_ptr<Table>>([&](auto cb) { (*conn)->GetTableAsync(path_, cb); });
  ASSERT_TRUE(t.ok());
  auto writer = (*t)->NewAppendWriter();
  ASSERT_TRUE(writer.ok());
  Value v = Value::Int(7);
  ASSERT_TRUE((*writer)->Append(&v, 1).ok());
  ASSERT_TRUE(AwaitStatus([&](auto cb) { (*writer)->FlushAsync(cb); }).ok());
  // The connection's metrics count that one write exactly.
  const ClientMetrics m = (*conn)->Metrics();
  EXPECT_EQ(m.records_sent, 1);
  EXPECT_EQ(m.batches_sent, 1);
  EXPECT_GT(m.bytes_sent, 0);
  EXPECT_EQ(m.write_retries, 0);
  EXPECT_EQ(m.batches_in_flight, 0);
  EXPECT_EQ(m.buffer_used_bytes, 0);
  EXPECT_EQ(m.records_fetched, 0);
  EXPECT_GT(m.requests, 0);
  EXPECT_GT(m.request_latency_avg_us, 0);
  EXPECT_LE(m.request_latency_avg_us, m.request_latency_max_us);
  EXPECT_EQ(m.buffer_limit_bytes, (*conn)->options().writer_buffer_memory_size);
  EXPECT_TRUE((*conn)->Close().ok());
  auto headers = Headers();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].writer_id, -1);
  EXPECT_EQ(headers[0].batch_sequence, -1);
}

TEST_F(IdempotenceIT, ResentKvBatchIsWrittenOnce) {
  // A primary-key table (a INT primary key, b INT), one bucket.
  const TablePath pk_path{path_.database_name, path_.table_name + "_pk"};
  TableDescriptor d;
  d.schema.arrow_schema = arrow::schema({arrow::field("a", arrow::int32(), false), arrow::field("b", arrow::int32())});
  d.schema.primary_keys = {"a"};
  d.bucket_count = 1;
  ASSERT_TRUE(it::CreateServedTable(*admin_, pk_path, d).ok());
  auto t = Await<std::shared_ptr<Table>>([&](auto cb) { conn_->GetTableAsync(pk_path, cb); });
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  const auto& info = (*t)->info();
  ASSERT_TRUE(RunOnIo<bool>(raw_, [](std::shared_ptr<ConnectionImpl> c, TablePath p) -> asio::awaitable<Result<bool>> {
                Status st = co_await c->cluster()->WaitForLeaders(p, 1, metadata::Clock::now() + kLeaderWait);
                if (!st.ok()) co_return st;
                co_return true;
              }(raw_, pk_path)).ok());
  leader_path_ = pk_path;
  auto codec = row::KvRowCodec::Make(*info.descriptor.schema.arrow_schema, row::KvFormat::kCompacted);
  ASSERT_TRUE(codec.ok());
  const int64_t writer = InitWriter();
  ASSERT_GE(writer, 0);
  auto kv_batch = [&](int32_t b, int32_t seq) {
    record::KvBatchBuilder builder;
    std::vector<Value> row{Value::Int(1), Value::Int(b)};
    std::string value;
    EXPECT_TRUE(codec->Encode(row.data(), &value).ok());
    EXPECT_TRUE(builder.AppendUpsert(std::string("\x01", 1), value).ok());  // CompactedKey of INT 1
    auto enc = builder.Finish(static_cast<int16_t>(info.schema_id), writer, seq);
    EXPECT_TRUE(enc.ok());
    return *enc;
  };
  auto put = [&](const std::shared_ptr<arrow::Buffer>& batch) {
    proto::PutKvRequest req;
    req.set_acks(-1);
    req.set_table_id(info.table_id);
    req.set_timeout_ms(30000);
    auto* b = req.add_buckets_req();
    b->set_bucket_id(0);
    b->set_records(batch->data(), static_cast<size_t>(batch->size()));
    return CallRetrying<proto::PutKvResponse>(ApiKey::PUT_KV, req);
  };
  auto first = kv_batch(10, 0);
  for (int send = 0; send < 2; ++send) {  // the same bytes twice, as after a lost response
    auto r = put(first);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_FALSE(r->buckets_resp(0).has_error_code()) << r->buckets_resp(0).error_message();
  }
  auto gap = put(kv_batch(30, 5));
  ASSERT_TRUE(gap.ok());
  EXPECT_EQ(gap->buckets_resp(0).error_code(), protocol::OUT_OF_ORDER_SEQUENCE_EXCEPTION);
  auto second = put(kv_batch(20, 1));
  ASSERT_TRUE(second.ok());
  ASSERT_FALSE(second->buckets_resp(0).has_error_code()) << second->buckets_resp(0).error_message();
  // The changelog: +I (1, 10) once, then -U/+U for the second batch; the resend added nothing.
  auto headers = Headers(info.table_id);
  int32_t records = 0;
  for (const auto& h : headers) records += h.record_count;
  EXPECT_EQ(records, 3);
  EXPECT_TRUE(AwaitStatus([&](auto cb) { admin_->DropTableAsync(pk_path, true, cb); }).ok());
}

}  // namespace
}  // namespace fluss

// Integration tests against a real cluster (FLUSS_BOOTSTRAP_SERVERS): the C++ API of
// primary-key tables. Upserts, deletes and partial updates read back by lookups, prefix
// lookups, the changelog and limit scans, with exact values.
#include <gtest/gtest.h>

#include <arrow/api.h>

#include <cstdlib>
#include <map>

#include "fluss/client.h"
#include "it_support.h"

namespace fluss {
namespace {

class PrimaryKeyIT : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(it::Connect(&conn_, &admin_));
    prefix_ = "pk_it_" + std::to_string(::getpid()) + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
  }
  void TearDown() override {
    for (const auto& p : created_) EXPECT_TRUE(AwaitStatus([&](auto cb) { admin_->DropTableAsync(p, true, cb); }).ok());
    if (conn_) EXPECT_TRUE(conn_->Close().ok());
  }

  std::shared_ptr<Table> Create(const std::string& suffix, std::shared_ptr<arrow::Schema> schema,
                                std::vector<std::string> pk, int32_t buckets, std::vector<std::string> bucket_keys = {},
                                std::map<std::string, std::string> props = {}) {
    TablePath path{"fluss", prefix_ + suffix};
    TableDescriptor d;
    d.schema.arrow_schema = std::move(schema);
    d.schema.primary_keys = std::move(pk);
    d.bucket_count = buckets;
    d.bucket_keys = std::move(bucket_keys);
    d.properties = std::move(props);
    return it::CreateTable(*admin_, *conn_, path, d, &created_);
  }

  /// The looked-up row as "v0|v1|..." (Arrow ToString of each value), or "none".
  static std::string Lookup(Lookuper& l, std::vector<Value> key) {
    auto r = Await<std::shared_ptr<arrow::RecordBatch>>([&](auto cb) { l.LookupAsync(key.data(), key.size(), cb); });
    if (!r.ok()) return "error: " + r.status().ToString();
    if (!*r) return "none";
    return RowText(**r, 0);
  }
  static std::string RowText(const arrow::RecordBatch& rb, int64_t row) {
    std::string out;
    for (int c = 0; c < rb.num_columns(); ++c) {
      auto s = rb.column(c)->GetScalar(row);
      out += (c ? "|" : "") + (s.ok() ? (*s)->ToString() : std::string("?"));
    }
    return out;
  }

  std::shared_ptr<Connection> conn_;
  std::shared_ptr<Admin> admin_;
  std::string prefix_;
  std::vector<TablePath> created_;
};

std::shared_ptr<arrow::Schema> PeopleSchema() {
  return arrow::schema({arrow::field("id", arrow::int32(), false), arrow::field("name", arrow::utf8()),
                        arrow::field("age", arrow::int64())});
}

TEST_F(PrimaryKeyIT, UpsertUpdateDeleteThenLookup) {
  for (const char* format : {"COMPACTED", "INDEXED"}) {
    auto table = Create(std::string("_") + format, PeopleSchema(), {"id"}, 3, {}, {{"table.kv.format", format}});
    ASSERT_TRUE(table);
    auto writer = table->NewUpsertWriter();
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    const std::vector<std::string> names = {"Alice", "Bob", "Carol", "Dave"};
    for (int i = 0; i < 4; ++i) {
      std::vector<Value> row{Value::Int(i), Value::Bytes(names[i]), Value::Int(20 + i)};
      ASSERT_TRUE((*writer)->Upsert(row.data(), row.size()).ok());
    }
    std::vector<Value> update{Value::Int(1), Value::Bytes("Bobby"), Value::Int(31)};
    ASSERT_TRUE((*writer)->Upsert(update.data(), update.size()).ok());
    std::vector<Value> gone{Value::Int(2), Value::Null(), Value::Null()};
    auto del = (*writer)->Delete(gone.data(), gone.size());
    ASSERT_TRUE(del.ok());
    Status flushed = AwaitStatus([&](auto cb) { (*writer)->FlushAsync(cb); });
    ASSERT_TRUE(flushed.ok()) << flushed.ToString();
    EXPECT_TRUE(del->Wait().ok());
    auto lookuper = table->NewLookuper();
    ASSERT_TRUE(lookuper.ok()) << lookuper.status().ToString();
    auto& l = **lookuper;
    EXPECT_EQ(Lookup(l, {Value::Int(0), Value::Null(), Value::Null()}), "0|Alice|20") << format;
    EXPECT_EQ(Lookup(l, {Value::Int(1), Value::Null(), Value::Null()}), "1|Bobby|31") << format;
    EXPECT_EQ(Lookup(l, {Value::Int(2), Value::Null(), Value::Null()}), "none") << format;
    EXPECT_EQ(Lookup(l, {Value::Int(3), Value::Null(), Value::Null()}), "3|Dave|23") << format;
    EXPECT_EQ(Lookup(l, {Value::Int(99), Value::Null(), Value::Null()}), "none") << format;

    // The changelog: +I x4, -U/+U for the update, -D for the delete, offsets increasing.
    auto scanner = table->NewLogScanner();
    ASSERT_TRUE(scanner.ok()) << scanner.status().ToString();
    for (int b = 0; b < 3; ++b) ASSERT_TRUE((*scanner)->Subscribe(b, kEarliestOffset).ok());
    auto batches = Await<std::vector<ScanBatch>>([&](auto cb) { (*scanner)->ReadBatchesAsync(cb); });
    ASSERT_TRUE(batches.ok()) << batches.status().ToString();
    std::map<std::string, int> kinds;
    std::vector<std::string> changes_of_1;
    for (const auto& sb : *batches) {
      ASSERT_EQ(static_cast<int64_t>(sb.change_types.size()), sb.batch->num_rows());
      for (int64_t r = 0; r < sb.batch->num_rows(); ++r) {
        const int8_t ct = sb.change_types[static_cast<size_t>(r)];
        const std::string k = ct == 1 ? "+I" : ct == 2 ? "-U" : ct == 3 ? "+U" : ct == 4 ? "-D" : "?";
        ++kinds[k];
        const std::string text = RowText(*sb.batch, r);
        if (text.rfind("1|", 0) == 0) changes_of_1.push_back(k + " " + text);
      }
    }
    EXPECT_EQ(kinds["+I"], 4) << format;
    EXPECT_EQ(kinds["-U"], 1) << format;
    EXPECT_EQ(kinds["+U"], 1) << format;
    EXPECT_EQ(kinds["-D"], 1) << format;
    EXPECT_EQ(changes_of_1, (std::vector<std::string>{"+I 1|Bob|21", "-U 1|Bob|21", "+U 1|Bobby|31"})) << format;
  }
}

TEST_F(PrimaryKeyIT, PartialUpdateKeepsOtherColumns) {
  auto table = Create("", PeopleSchema(), {"id"}, 2);
  ASSERT_TRUE(table);
  auto full = table->NewUpsertWriter();
  ASSERT_TRUE(full.ok());
  std::vector<Value> row{Value::Int(7), Value::Bytes("Grace"), Value::Int(40)};
  ASSERT_TRUE((*full)->Upsert(row.data(), row.size()).ok());
  ASSERT_TRUE(AwaitStatus([&](auto cb) { (*full)->FlushAsync(cb); }).ok());
  auto partial = table->NewUpsertWriter({0, 2});
  ASSERT_TRUE(partial.ok()) << partial.status().ToString();
  EXPECT_EQ((*partial)->target_columns(), (std::vector<int32_t>{0, 2}));
  std::vector<Value> age{Value::Int(7), Value::Null(), Value::Int(41)};
  ASSERT_TRUE((*partial)->Upsert(age.data(), age.size()).ok());
  // A value for a column the writer does not write is refused before sending.
  std::vector<Value> bad{Value::Int(7), Value::Bytes("x"), Value::Int(1)};
  auto refused = (*partial)->Upsert(bad.data(), bad.size());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("'name'"), std::string::npos) << refused.status().ToString();
  ASSERT_TRUE(AwaitStatus([&](auto cb) { (*partial)->FlushAsync(cb); }).ok());
  auto l = table->NewLookuper();
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(Lookup(**l, {Value::Int(7), Value::Null(), Value::Null()}), "7|Grace|41");
  // Target columns without the primary key are refused.
  auto no_pk = table->NewUpsertWriter({1, 2});
  ASSERT_FALSE(no_pk.ok());
  EXPECT_NE(no_pk.status().message().find("'id'"), std::string::npos) << no_pk.status().ToString();
}

TEST_F(PrimaryKeyIT, CompositeKeyPrefixLookupAndLimitScan) {
  // Key columns interleaved with a value column: (a, v, b), primary key (a, b), bucket key a.
  auto schema = arrow::schema({arrow::field("a", arrow::int64(), false), arrow::field("v", arrow::utf8()),
                               arrow::field("b", arrow::utf8(), false)});
  auto table = Create("", schema, {"a", "b"}, 4, {"a"});
  ASSERT_TRUE(table);
  auto writer = table->NewUpsertWriter();
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < a; ++b) {
      const std::string bs = "k" + std::to_string(b), vs = "v" + std::to_string(a * 10 + b);
      std::vector<Value> row{Value::Int(a), Value::Bytes(vs), Value::Bytes(bs)};
      ASSERT_TRUE((*writer)->Upsert(row.data(), row.size()).ok());
    }
  ASSERT_TRUE(AwaitStatus([&](auto cb) { (*writer)->FlushAsync(cb); }).ok());
  auto l = table->NewLookuper();
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(Lookup(**l, {Value::Int(3), Value::Null(), Value::Bytes("k1")}), "3|v31|k1");
  EXPECT_EQ(Lookup(**l, {Value::Int(3), Value::Null(), Value::Bytes("k3")}), "none");
  auto p = table->NewPrefixLookuper({"a"});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  for (int a = 0; a < 5; ++a) {
    std::vector<Value> key{Value::Int(a), Value::Null(), Value::Null()};
    auto rows = Await<std::shared_ptr<arrow::RecordBatch>>([&](auto cb) { (*p)->LookupAsync(key.data(), key.size(), cb); });
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    std::vector<std::string> got;
    for (int64_t r = 0; r < (*rows)->num_rows(); ++r) got.push_back(RowText(**rows, r));
    std::sort(got.begin(), got.end());
    std::vector<std::string> want;
    for (int b = 0; b < a; ++b) want.push_back(std::to_string(a) + "|v" + std::to_string(a * 10 + b) + "|k" + std::to_string(b));
    EXPECT_EQ(got, want) << "prefix a=" << a;
  }
  // Limit scan of every bucket: together they hold the 10 rows.
  int64_t total = 0;
  for (int b = 0; b < 4; ++b) {
    auto rb = Await<std::shared_ptr<arrow::RecordBatch>>([&](auto cb) { table->LimitScanAsync(b, 100, cb); });
    ASSERT_TRUE(rb.ok()) << rb.status().ToString();
    total += (*rb)->num_rows();
  }
  EXPECT_EQ(total, 10);
}

TEST_F(PrimaryKeyIT, ConcurrentLookupsAreBatched) {
  auto table = Create("", PeopleSchema(), {"id"}, 2);
  ASSERT_TRUE(table);
  auto writer = table->NewUpsertWriter();
  ASSERT_TRUE(writer.ok());
  const int n = 2000;
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) names.push_back("n" + std::to_string(i));
  for (int i = 0; i < n; ++i) {
    std::vector<Value> row{Value::Int(i), Value::Bytes(names[i]), Value::Int(i)};
    ASSERT_TRUE((*writer)->Upsert(row.data(), row.size()).ok());
  }
  ASSERT_TRUE(AwaitStatus([&](auto cb) { (*writer)->FlushAsync(cb); }).ok());
  auto l = table->NewLookuper();
  ASSERT_TRUE(l.ok());
  std::vector<std::promise<std::string>> answers(n);
  for (int i = 0; i < n; ++i) {
    std::vector<Value> key{Value::Int(i), Value::Null(), Value::Null()};
    (*l)->LookupAsync(key.data(), key.size(), [&answers, i](Result<std::shared_ptr<arrow::RecordBatch>> r) {
      answers[i].set_value(!r.ok() ? r.status().ToString() : *r ? RowText(**r, 0) : "none");
    });
  }
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(answers[i].get_future().get(), std::to_string(i) + "|n" + std::to_string(i) + "|" + std::to_string(i));
  // Batched per leader (up to 128 keys a request), not one request per key; the bound leaves
  // a wide margin for timing (a request goes out whenever none is in flight).
  EXPECT_LT((*l)->requests_sent(), n / 4);
  EXPECT_GE((*l)->requests_sent(), n / 128);
}

}  // namespace
}  // namespace fluss

// fluss::Connection and fluss::Table: the public handles over ConnectionImpl.
#include "fluss/client/connection_impl.h"
#include "fluss/lookup/lookuper_impl.h"
#include "fluss/scan/limit_scan.h"
#include "fluss/scan/log_scanner_impl.h"
#include "fluss/write/append_writer_impl.h"
#include "fluss/write/upsert_writer_impl.h"

namespace fluss {

Connection::Connection(std::shared_ptr<client::ConnectionImpl> impl) : impl_(std::move(impl)) {}

Connection::~Connection() {
  if (impl_) (void)impl_->Close();
}

void Connection::ConnectAsync(const std::map<std::string, std::string>& properties,
                              Callback<std::shared_ptr<Connection>> done) {
  auto impl = client::ConnectionImpl::Create(properties);
  if (!impl.ok()) {
    done(impl.status());
    return;
  }
  auto shared = *impl;
  shared->cluster()->Spawn<std::shared_ptr<Connection>>(
      [](std::shared_ptr<client::ConnectionImpl> c) -> asio::awaitable<Result<std::shared_ptr<Connection>>> {
        Status st = co_await c->cluster()->Bootstrap();
        if (!st.ok()) co_return st;
        co_return std::shared_ptr<Connection>(new Connection(c));
      }(shared),
      [shared, done = std::move(done)](Result<std::shared_ptr<Connection>> r) mutable {
        if (!r.ok()) (void)shared->Close();  // on the I/O thread: closes from another thread
        done(std::move(r));
      });
}

Result<std::shared_ptr<Connection>> Connection::Connect(const std::map<std::string, std::string>& properties) {
  return Await<std::shared_ptr<Connection>>(
      [&](Callback<std::shared_ptr<Connection>> cb) { ConnectAsync(properties, std::move(cb)); });
}

std::shared_ptr<Admin> Connection::GetAdmin() { return std::shared_ptr<Admin>(new Admin(impl_)); }

Status Connection::Close() { return impl_->Close(); }

const ClientOptions& Connection::options() const { return impl_->options(); }

ClientMetrics Connection::Metrics() const { return impl_->Metrics(); }

void Connection::GetTableAsync(const TablePath& path, Callback<std::shared_ptr<Table>> done) {
  impl_->cluster()->Spawn<std::shared_ptr<Table>>(
      [](std::shared_ptr<client::ConnectionImpl> c, TablePath p) -> asio::awaitable<Result<std::shared_ptr<Table>>> {
        auto info = co_await c->cluster()->FetchTableInfo(p);
        if (!info.ok()) co_return info.status();
        // Learn the bucket leaders now (as the Java client does), so the first write or read
        // does not wait for a metadata round trip. A table without leaders yet is not an
        // error here: writers and scanners wait for them.
        const std::vector<TablePath> tables{p};
        co_await c->cluster()->RefreshMetadata(tables);
        co_return std::shared_ptr<Table>(new Table(c, std::move(*info)));
      }(impl_, path),
      std::move(done));
}

Result<std::shared_ptr<AppendWriter>> Table::NewAppendWriter() {
  FLUSS_ASSIGN_OR_RETURN(auto w, write::AppendWriterImpl::Create(impl_->writer_client(), info_));
  return std::static_pointer_cast<AppendWriter>(w);
}

Result<std::shared_ptr<LogScanner>> Table::NewLogScanner(const std::vector<int32_t>& projection) {
  FLUSS_ASSIGN_OR_RETURN(auto s, scan::LogScannerImpl::Create(impl_->cluster(), info_, projection));
  return std::static_pointer_cast<LogScanner>(s);
}

Result<std::shared_ptr<UpsertWriter>> Table::NewUpsertWriter(const std::vector<int32_t>& target_columns) {
  FLUSS_ASSIGN_OR_RETURN(auto w, write::UpsertWriterImpl::Create(impl_->writer_client(), info_, target_columns));
  return std::static_pointer_cast<UpsertWriter>(w);
}

Result<std::shared_ptr<Lookuper>> Table::NewLookuper() {
  FLUSS_ASSIGN_OR_RETURN(auto l, lookup::LookuperImpl::Create(impl_->cluster(), *impl_->lookup_senders(), info_));
  return std::static_pointer_cast<Lookuper>(l);
}

Result<std::shared_ptr<PrefixLookuper>> Table::NewPrefixLookuper(const std::vector<std::string>& lookup_columns) {
  FLUSS_ASSIGN_OR_RETURN(auto l, lookup::PrefixLookuperImpl::Create(impl_->cluster(), *impl_->lookup_senders(), info_, lookup_columns));
  return std::static_pointer_cast<PrefixLookuper>(l);
}

namespace {
void SpawnLimitScan(const std::shared_ptr<metadata::Cluster>& cluster, const TableInfo& info,
                    std::optional<int64_t> partition_id, int32_t bucket, int32_t limit,
                    Callback<std::shared_ptr<arrow::RecordBatch>> done) {
  const metadata::TableBucket tb{info.table_id, partition_id, bucket};
  cluster->Spawn<std::shared_ptr<arrow::RecordBatch>>(scan::LimitScan(cluster, info, tb, limit), std::move(done));
}
}  // namespace

void Table::LimitScanAsync(int32_t bucket, int32_t limit, Callback<std::shared_ptr<arrow::RecordBatch>> done) {
  SpawnLimitScan(impl_->cluster(), info_, std::nullopt, bucket, limit, std::move(done));
}

void Table::LimitScanPartitionAsync(int64_t partition_id, int32_t bucket, int32_t limit,
                                    Callback<std::shared_ptr<arrow::RecordBatch>> done) {
  SpawnLimitScan(impl_->cluster(), info_, partition_id, bucket, limit, std::move(done));
}

}  // namespace fluss

#include "fluss/client/connection_impl.h"

#include <future>
#include <thread>

namespace fluss::client {

ConnectionImpl::ConnectionImpl(std::shared_ptr<metadata::Cluster> cluster)
    : cluster_(std::move(cluster)),
      writer_client_(std::make_shared<write::WriterClient>(cluster_)),
      lookup_senders_(std::make_shared<lookup::LookupSenders>(cluster_)) {}

Result<std::shared_ptr<ConnectionImpl>> ConnectionImpl::Create(const std::map<std::string, std::string>& properties) {
  FLUSS_ASSIGN_OR_RETURN(ClientOptions options, ParseClientOptions(properties));
  FLUSS_ASSIGN_OR_RETURN(auto cluster, metadata::Cluster::Create(std::move(options)));
  return std::shared_ptr<ConnectionImpl>(new ConnectionImpl(std::move(cluster)));
}

ConnectionImpl::~ConnectionImpl() { (void)Close(); }  // Connection::Close reports errors

namespace {

// The closing sequence; runs on any thread but the I/O thread.
Status CloseParts(const std::shared_ptr<metadata::Cluster>& cluster, const std::shared_ptr<write::WriterClient>& writers) {
  auto& io = cluster->io_thread();
  // Flush every writer, bounded by the request timeout.
  auto flushed = std::make_shared<std::promise<Status>>();
  auto future = flushed->get_future();
  writers->FlushAll([flushed](Status s) { flushed->set_value(std::move(s)); });
  Status first;
  if (future.wait_for(std::chrono::milliseconds(cluster->options().request_timeout_ms)) != std::future_status::ready)
    first = Status::Timeout("close: pending writes were not acknowledged within client.request-timeout");
  else
    first = future.get();
  io.MarkClosed();
  // Fail whatever is left, close the sockets and cancel every timer on the I/O thread. Then
  // let the I/O thread run out of work instead of stopping it: every operation still running
  // ends at once (its requests fail with kClosed, its sleeps return), so no coroutine frame is
  // left holding the connection's parts (with their resolver thread and file descriptors).
  std::promise<void> stopped;
  asio::post(io.io(), [&] {
    writers->Abort(Status::Closed("the connection was closed before the write was acknowledged"));
    cluster->CloseNetwork();
    stopped.set_value();
  });
  stopped.get_future().wait();
  io.Stop();
  return first;
}

}  // namespace

Status ConnectionImpl::Close() {
  std::lock_guard<std::mutex> lock(close_mu_);
  if (closed_) return Status::OK();
  closed_ = true;
  if (cluster_->io_thread().OnThread()) {
    // Called from a callback: closing waits for the I/O thread, so do it from another thread.
    std::thread([cluster = cluster_, writers = writer_client_] { (void)CloseParts(cluster, writers); }).detach();
    return Status::OK();
  }
  return CloseParts(cluster_, writer_client_);
}

ClientMetrics ConnectionImpl::Metrics() const {
  const util::MetricCounters& c = cluster_->metrics();
  auto get = [](const std::atomic<int64_t>& v) { return v.load(std::memory_order_relaxed); };
  ClientMetrics m;
  m.records_sent = get(c.records_sent);
  m.bytes_sent = get(c.bytes_sent);
  m.batches_sent = get(c.batches_sent);
  m.write_retries = get(c.write_retries);
  m.records_fetched = get(c.records_fetched);
  m.bytes_fetched = get(c.bytes_fetched);
  m.fetch_retries = get(c.fetch_retries);
  m.requests = get(c.requests);
  m.request_latency_avg_us = m.requests > 0 ? get(c.request_latency_us) / m.requests : 0;
  m.request_latency_max_us = get(c.request_latency_max_us);
  m.batches_in_flight = get(c.batches_in_flight);
  m.buffer_used_bytes = writer_client_->memory().used();
  m.buffer_limit_bytes = writer_client_->memory().limit();
  return m;
}

}  // namespace fluss::client

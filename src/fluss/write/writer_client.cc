#include "fluss/write/writer_client.h"

namespace fluss::write {

WriterClient::WriterClient(std::shared_ptr<metadata::Cluster> cluster)
    : cluster_(std::move(cluster)),
      memory_(std::make_shared<MemoryLimiter>(cluster_->options().writer_buffer_memory_size,
                                              cluster_->options().writer_buffer_wait_timeout_ms)),
      accumulator_(std::make_shared<RecordAccumulator>(*memory_, cluster_->options().writer_batch_size)),
      sender_(std::make_shared<Sender>(cluster_, memory_, accumulator_)) {}

std::shared_ptr<WriteTracker> WriterClient::NewTracker() {
  auto t = std::make_shared<WriteTracker>();
  std::lock_guard<std::mutex> lock(trackers_mu_);
  std::erase_if(trackers_, [](const std::weak_ptr<WriteTracker>& w) { return w.expired(); });
  trackers_.push_back(t);
  return t;
}

Result<RecordAccumulator::Appended> WriterClient::Append(const std::shared_ptr<WriteTracker>& tracker,
                                                         const PhysicalBucket& bucket,
                                                         const WriteRecord& record,
                                                         const RecordAccumulator::BatchFactory& make) {
  if (cluster_->closed()) return Status::Closed("the connection is closed");
  auto appended = accumulator_->Append(tracker, bucket, record, make);
  if (appended.ok() && appended->opened && !appended->batch_full) ScheduleLinger(tracker, bucket, *appended->opened);
  return appended;
}

Status WriterClient::AddClosed(const std::shared_ptr<WriteTracker>& tracker, std::unique_ptr<WriteBatch> batch,
                               std::shared_ptr<WriteResult::State> result, int64_t bytes) {
  if (cluster_->closed()) return Status::Closed("the connection is closed");
  FLUSS_RETURN_NOT_OK(accumulator_->AddClosed(tracker, std::move(batch), std::move(result), bytes));
  sender_->PostDrain();
  return Status::OK();
}

void WriterClient::ScheduleLinger(std::weak_ptr<WriteTracker> tracker, PhysicalBucket bucket, uint64_t id) {
  asio::post(cluster_->io(), [self = shared_from_this(), tracker = std::move(tracker), bucket, id] {
    if (self->cluster_->closed()) return;
    auto timer = self->cluster_->NewTimer();
    timer->expires_after(std::chrono::milliseconds(self->cluster_->options().writer_batch_timeout_ms));
    timer->async_wait([self, timer, tracker, bucket, id](const asio::error_code& ec) {
      if (ec) return;
      auto t = tracker.lock();
      if (t && self->accumulator_->CloseIfOpen(t.get(), bucket, id)) self->sender_->Drain();
    });
  });
}

void WriterClient::Flush(const std::shared_ptr<WriteTracker>& tracker, net::StatusCallback done) {
  accumulator_->CloseAll(tracker.get());
  tracker->Flush(std::move(done));
  if (!cluster_->closed()) sender_->PostDrain();  // after close, Abort answers the flush
}

void WriterClient::FlushAll(net::StatusCallback done) {
  std::vector<std::shared_ptr<WriteTracker>> live;
  {
    std::lock_guard<std::mutex> lock(trackers_mu_);
    for (auto& w : trackers_)
      if (auto t = w.lock()) live.push_back(std::move(t));
  }
  struct Join {
    std::mutex mu;
    size_t remaining;
    Status first;
    net::StatusCallback done;
  };
  auto join = std::make_shared<Join>();
  join->remaining = live.size() + 1;  // +1: released below, so `done` runs once every flush answered
  join->done = std::move(done);
  auto part = [join](Status st) {
    net::StatusCallback cb;
    Status first;
    {
      std::lock_guard<std::mutex> lock(join->mu);
      if (join->first.ok() && !st.ok()) join->first = st;
      if (--join->remaining > 0) return;
      cb = std::move(join->done);
      first = join->first;
    }
    cb(first);
  };
  for (auto& t : live) Flush(t, part);
  part(Status::OK());
}

void WriterClient::Abort(const Status& status) { sender_->Abort(status); }

}  // namespace fluss::write

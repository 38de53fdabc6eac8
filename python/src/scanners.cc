// Scanners: _Scanner (subscriptions, polls and bounded reads of a log table, blocking with the
// GIL released or awaitable) and _Polled (the batches of one poll, kept native so an undelivered
// poll goes back to the scanner without loss).
//
// Thread affinity: the calling thread, GIL held, except the waits of blocking reads (GIL
// released); read callbacks run on the I/O thread (PollState is guarded by its mutex).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <arrow/table.h>
#include <arrow/type.h>

#include "arrow_capsules.h"
#include "arrow_rows.h"
#include "bindings.h"
#include "bridge.h"
#include "scan_records.h"

namespace fluss::py {

using namespace nb::literals;

namespace {

/// Batches returned by one poll, kept native so an undelivered poll (cancelled, interrupted)
/// can be handed back to the scanner without loss.
struct PyPolled {
  std::vector<ScanBatch> batches;
  size_t Size() const { return batches.size(); }
  /// [(partition_id or None, bucket, base_offset, last_offset, commit_timestamp,
  ///   (schema_capsule, array_capsule), change_types bytes or None)]
  nb::list Items() const {
    nb::list out;
    for (const auto& b : batches) {
      nb::object ct = nb::none();
      if (!b.change_types.empty())
        ct = nb::bytes(reinterpret_cast<const char*>(b.change_types.data()), b.change_types.size());
      nb::object partition = nb::none();
      if (b.partition_id) partition = nb::int_(*b.partition_id);
      out.append(nb::make_tuple(partition, b.bucket, b.base_offset, b.last_offset, b.commit_timestamp,
                                ExportBatchCapsules(*b.batch), ct));
    }
    return out;
  }
  /// The (schema_capsule, array_capsule) of batch `i`.
  nb::object Capsules(size_t i) const {
    if (i >= batches.size()) throw nb::index_error();
    return ExportBatchCapsules(*batches[i].batch);
  }
};

struct PollState {
  std::mutex mu;
  std::condition_variable cv;
  bool abandoned = false;
  std::optional<Result<std::vector<ScanBatch>>> result;
};

struct PyScanner {
  std::shared_ptr<LogScanner> scanner;
  int64_t max_poll_records = 0;  // client.scanner.log.max-poll-records, for record scanners
  std::shared_ptr<ArrowRows> rows;  // record scanners: made on first use, for scanner->schema()
  int64_t MaxPollRecords() const { return max_poll_records; }

  const ArrowRows& Rows() {
    if (!rows) rows = std::make_shared<ArrowRows>(*scanner->schema());
    return *rows;
  }
  /// Indexes of the columns whose values `records` takes from `fallback_of` (pyarrow's).
  std::vector<int> FallbackColumns() { return Rows().fallback_columns(); }
  /// The ScanRecords of `polled` (scan_records.h).
  nb::list Records(const PyPolled& polled, nb::handle record_type, nb::handle bucket_of, nb::handle change_types,
                   nb::handle fallback_of) {
    return MakeScanRecords(polled.batches, Rows(), record_type, bucket_of, change_types, fallback_of);
  }

  void Subscribe(int32_t bucket, int64_t offset) { ThrowIfError(scanner->Subscribe(bucket, offset)); }
  void Unsubscribe(int32_t bucket) { ThrowIfError(scanner->Unsubscribe(bucket)); }
  void SubscribePartition(int64_t partition_id, int32_t bucket, int64_t offset) {
    ThrowIfError(scanner->SubscribePartition(partition_id, bucket, offset));
  }
  void UnsubscribePartition(int64_t partition_id, int32_t bucket) {
    ThrowIfError(scanner->UnsubscribePartition(partition_id, bucket));
  }
  std::vector<int64_t> TakeDroppedPartitions() { return scanner->TakeDroppedPartitions(); }
  nb::object Schema() const { return ExportSchemaCapsule(*scanner->schema()); }
  void Requeue(PyPolled& polled) { scanner->Requeue(std::move(polled.batches)); }
  /// Requeue of the batches of `polled` from index `start` on (those a reader did not hand out).
  void RequeueFrom(PyPolled& polled, size_t start) {
    if (start >= polled.batches.size()) return;
    std::vector<ScanBatch> rest(std::make_move_iterator(polled.batches.begin() + static_cast<ptrdiff_t>(start)),
                                std::make_move_iterator(polled.batches.end()));
    polled.batches.resize(start);
    scanner->Requeue(std::move(rest));
  }

  /// Runs a read started by `start(callback)` and blocks (GIL released) until it delivers.
  /// Ctrl-C raises KeyboardInterrupt within 100 ms; the batches the abandoned read still
  /// delivers are requeued for the next poll or read, so nothing is lost.
  std::vector<ScanBatch> BlockingRead(const std::function<void(Callback<std::vector<ScanBatch>>)>& start) {
    auto state = std::make_shared<PollState>();
    auto s = scanner;
    start([state, s](Result<std::vector<ScanBatch>> r) {
      std::lock_guard<std::mutex> lock(state->mu);
      if (state->abandoned) {
        if (r.ok()) s->Requeue(std::move(*r));
        return;
      }
      state->result.emplace(std::move(r));
      state->cv.notify_all();
    });
    while (true) {
      {
        nb::gil_scoped_release release;
        std::unique_lock<std::mutex> lock(state->mu);
        if (state->cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return state->result.has_value(); })) break;
      }
      try {
        CheckInterrupt();
      } catch (nb::python_error&) {
        std::lock_guard<std::mutex> lock(state->mu);
        if (!state->result) {
          state->abandoned = true;
          scanner->Wakeup();
        } else if (state->result->ok()) {
          scanner->Requeue(std::move(**state->result));
        }
        throw;
      }
    }
    return ValueOrThrow(std::move(*state->result));
  }

  /// The batches buffered now (LogScanner::TryPoll), or None: then a poll must wait.
  nb::object TryPoll(int64_t max_records) {
    auto got = scanner->TryPoll(max_records);
    if (!got) return nb::none();
    return nb::cast(PyPolled{std::move(*got)});
  }

  /// Blocking poll (GIL released, Ctrl-C answered without losing batches).
  PyPolled PollBlocking(int64_t timeout_ms, int64_t max_records) {
    auto s = scanner;
    return PyPolled{BlockingRead([s, timeout_ms, max_records](Callback<std::vector<ScanBatch>> cb) {
      s->PollAsync(timeout_ms, max_records, std::move(cb));
    })};
  }

  /// Awaitable read started by `start`; if the awaiting task is cancelled after the read
  /// completed, its batches go back to the scanner for the next poll or read.
  nb::object AwaitRead(std::function<void(Callback<std::vector<ScanBatch>>)> start_read, bool wake_on_cancel) {
    auto s = scanner;
    auto start = nb::cpp_function([start_read](nb::object done) {
      start_read(MakeCallback<std::vector<ScanBatch>>(std::move(done), [](std::vector<ScanBatch> v) {
        return nb::cast(PyPolled{std::move(v)});
      }));
    });
    auto lost = nb::cpp_function([s](PyPolled& p) { s->Requeue(std::move(p.batches)); });
    nb::object fut = FutureFactory()(start, lost);
    if (wake_on_cancel) {
      // A cancelled await ends the native poll early (its batches come back through `lost`).
      fut.attr("add_done_callback")(nb::cpp_function([s](nb::handle f) {
        if (nb::cast<bool>(f.attr("cancelled")())) s->Wakeup();
      }));
    }
    return fut;
  }

  nb::object PollAsync(int64_t timeout_ms, int64_t max_records) {
    auto s = scanner;
    return AwaitRead([s, timeout_ms, max_records](Callback<std::vector<ScanBatch>> cb) {
      s->PollAsync(timeout_ms, max_records, std::move(cb));
    }, true);
  }

  /// Blocking read to the end (GIL released, Ctrl-C answered without losing what was read).
  PyPolled ToArrowBlocking() {
    auto s = scanner;
    return PyPolled{BlockingRead([s](Callback<std::vector<ScanBatch>> cb) { s->ReadBatchesAsync(std::move(cb)); })};
  }

  /// Awaitable read to the end; a cancelled await hands what was read back to the scanner.
  nb::object ToArrowAsync() {
    auto s = scanner;
    return AwaitRead([s](Callback<std::vector<ScanBatch>> cb) { s->ReadBatchesAsync(std::move(cb)); }, false);
  }

  /// The next part (about `max_bytes` bytes) of a bounded read in parts (LogScanner::
  /// ReadPartAsync), blocking with the GIL released; empty once the read is complete.
  PyPolled ReadPartBlocking(bool start, int64_t max_bytes) {
    auto s = scanner;
    return PyPolled{BlockingRead([s, start, max_bytes](Callback<std::vector<ScanBatch>> cb) {
      s->ReadPartAsync(start, max_bytes, std::move(cb));
    })};
  }

  /// The batches of a read as one "arrow_array_stream" capsule with the scanner's schema.
  nb::object TableCapsule(PyPolled& polled) {
    std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
    batches.reserve(polled.batches.size());
    for (auto& b : polled.batches) batches.push_back(b.batch);
    auto table = arrow::Table::FromRecordBatches(scanner->schema(), batches);
    if (!table.ok()) ThrowIfError(Status::Internal("assembling the result table: " + table.status().ToString()));
    return ExportTableCapsule(*table);
  }
};

}  // namespace

nb::object NewPyScanner(std::shared_ptr<LogScanner> scanner, int64_t max_poll_records) {
  return nb::cast(PyScanner{std::move(scanner), max_poll_records, nullptr});
}

void BindScanners(nb::module_& m) {
  nb::class_<PyPolled>(m, "_Polled")
      .def("__len__", &PyPolled::Size)
      .def("items", &PyPolled::Items)
      .def("capsules", &PyPolled::Capsules, "index"_a);

  nb::class_<PyScanner>(m, "_Scanner")
      .def("subscribe", &PyScanner::Subscribe, "bucket_id"_a, "start_offset"_a)
      .def("unsubscribe", &PyScanner::Unsubscribe, "bucket_id"_a)
      .def("subscribe_partition", &PyScanner::SubscribePartition, "partition_id"_a, "bucket_id"_a, "start_offset"_a)
      .def("unsubscribe_partition", &PyScanner::UnsubscribePartition, "partition_id"_a, "bucket_id"_a)
      .def("take_dropped_partitions", &PyScanner::TakeDroppedPartitions)
      .def("schema_capsule", &PyScanner::Schema)
      .def("requeue", &PyScanner::Requeue, "polled"_a)
      .def("requeue_from", &PyScanner::RequeueFrom, "polled"_a, "start"_a)
      .def("fallback_columns", &PyScanner::FallbackColumns)
      .def("records", &PyScanner::Records, "polled"_a, "record_type"_a, "bucket_of"_a, "change_types"_a,
           "fallback_of"_a)
      .def_prop_ro("max_poll_records", &PyScanner::MaxPollRecords)
      .def("try_poll", &PyScanner::TryPoll, "max_records"_a)
      .def("poll_blocking", &PyScanner::PollBlocking, "timeout_ms"_a, "max_records"_a)
      .def("poll_async", &PyScanner::PollAsync, "timeout_ms"_a, "max_records"_a)
      .def("to_arrow_blocking", &PyScanner::ToArrowBlocking)
      .def("to_arrow_async", &PyScanner::ToArrowAsync)
      .def("read_part_blocking", &PyScanner::ReadPartBlocking, "start"_a, "max_bytes"_a)
      .def("table_capsule", &PyScanner::TableCapsule, "polled"_a);
}

}  // namespace fluss::py

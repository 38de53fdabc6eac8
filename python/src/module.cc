// The native module fluss._fluss: thin nanobind classes over the public C++ API
// (include/fluss/). The Python package (python/fluss) builds the seed's API on top.
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <optional>

#include <arrow/table.h>
#include <arrow/type.h>

#include "bridge.h"
#include "convert.h"
#include "fluss/client.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace fluss::py {

void SetErrorFactory(nb::object f);

namespace {

nb::object& FutureFactory() {
  static nb::object* f = new nb::object();
  return *f;
}

nb::object& AsCoroutine() {
  static nb::object* f = new nb::object();
  return *f;
}

nb::object& CancelRequested() {
  static nb::object* f = new nb::object();
  return *f;
}

/// Checks for Ctrl-C (GIL held): a pending signal raises KeyboardInterrupt through the signal
/// handler; inside asyncio.run, whose SIGINT handler cancels the main task instead, a pending
/// cancellation of the current task raises asyncio.CancelledError. Returns normally otherwise.
void CheckInterrupt() {
  if (PyErr_CheckSignals() != 0) throw nb::python_error();
  if (nb::cast<bool>(CancelRequested()())) {
    nb::object cancelled = nb::module_::import_("asyncio").attr("CancelledError");
    PyErr_SetNone(cancelled.ptr());
    throw nb::python_error();
  }
}

/// Returns an awaitable (made by the Python helper) that `start(done)` resolves.
template <typename F>
nb::object Awaitable(F start) {
  return FutureFactory()(nb::cpp_function(std::move(start)));
}

/// Blocks on `fut` with the GIL released, answering Ctrl-C (KeyboardInterrupt) within 100 ms.
template <typename T>
T WaitInterruptible(std::future<T>& fut) {
  while (true) {
    {
      nb::gil_scoped_release release;
      if (fut.wait_for(std::chrono::milliseconds(100)) == std::future_status::ready) break;
    }
    CheckInterrupt();
  }
  return fut.get();
}

nb::dict TableInfoToDict(const TableInfo& info) {
  nb::dict d;
  const auto& desc = info.descriptor;
  d["database_name"] = info.table_path.database_name;
  d["table_name"] = info.table_path.table_name;
  d["table_id"] = info.table_id;
  d["schema_id"] = info.schema_id;
  d["created_time"] = info.created_time;
  d["modified_time"] = info.modified_time;
  d["num_buckets"] = info.num_buckets;
  d["schema"] = ExportSchemaCapsule(*desc.schema.arrow_schema);
  d["primary_keys"] = desc.schema.primary_keys;
  d["partition_keys"] = desc.partition_keys;
  d["bucket_keys"] = desc.bucket_keys;
  d["bucket_count"] = desc.bucket_count;
  d["comment"] = desc.comment;
  d["properties"] = desc.properties;
  d["custom_properties"] = desc.custom_properties;
  return d;
}

TablePath MakePath(const std::string& db, const std::string& table) { return TablePath{db, table}; }

// ------------------------------------------------------------------ classes

struct PyWriteResult {
  WriteResult result;
  nb::object Wait() const {
    auto r = result;
    // A coroutine, so asyncio.create_task(handle.wait()) works like any async API.
    return AsCoroutine()(Awaitable([r](nb::object done) { r.OnComplete(MakeStatusCallback(std::move(done))); }));
  }
  bool Done() const { return result.done(); }
};

/// True when the calling thread is running an asyncio event loop (GIL held).
bool InRunningEventLoop() {
  static PyObject* get_running_loop = [] {
    nb::object f = nb::module_::import_("asyncio").attr("_get_running_loop");
    return f.release().ptr();  // leaked on purpose, like the other helpers
  }();
  nb::object loop = nb::steal(PyObject_CallNoArgs(get_running_loop));
  if (!loop.is_valid()) throw nb::python_error();
  return !loop.is_none();
}

struct PyAppendWriter {
  std::shared_ptr<AppendWriter> writer;
  RowConverter converter;
  std::vector<Value> values;
  std::string table_path;
  int64_t buffer_memory_size = 0;      // client.writer.buffer.memory-size
  int64_t buffer_wait_timeout_ms = 0;  // client.writer.buffer.wait-timeout

  PyAppendWriter(std::shared_ptr<AppendWriter> w, std::string path, const ClientOptions& o)
      : writer(std::move(w)),
        converter(writer->schema()),
        table_path(std::move(path)),
        buffer_memory_size(o.writer_buffer_memory_size),
        buffer_wait_timeout_ms(o.writer_buffer_wait_timeout_ms) {}

  bool BufferFull() { return writer->BufferFull(); }

  /// The retriable error of an append that would have to wait on an event-loop thread.
  Status BufferFullOnLoop() const {
    return Status::Timeout("table " + table_path + ": the writer buffer (client.writer.buffer.memory-size = " +
                           std::to_string(buffer_memory_size) +
                           " bytes) is full; append() does not wait on a thread running an asyncio event loop "
                           "(it would block the loop): await writer.wait_for_capacity(), then append again");
  }

  PyWriteResult Append(nb::handle row) {
    ThrowIfError(converter.Convert(row.ptr(), &values));
    auto* impl = static_cast<AppendWriter*>(writer.get());
    // Wait for buffer memory without the GIL (the I/O thread may need it to make progress).
    Result<WriteResult> r = AppendRow(impl);
    return PyWriteResult{ValueOrThrow(std::move(r))};
  }

  Result<WriteResult> AppendRow(AppendWriter* impl);

  PyWriteResult WriteArrowBatch(nb::handle batch) {
    auto rb = ImportRecordBatch(batch);
    return PyWriteResult{ValueOrThrow(writer->WriteArrowBatch(rb))};
  }

  nb::object Flush() {
    auto w = writer;
    return Awaitable([w](nb::object done) { w->FlushAsync(MakeStatusCallback(std::move(done))); });
  }

  void FlushBlocking() {
    auto p = std::make_shared<std::promise<Status>>();
    auto f = p->get_future();
    writer->FlushAsync([p](Status s) { p->set_value(std::move(s)); });
    ThrowIfError(WaitInterruptible(f));
  }
};

}  // namespace

// The append hot path: Append() blocks only when the writer buffer is full; release the GIL
// for that case only.
Result<WriteResult> PyAppendWriter::AppendRow(AppendWriter* impl) {
  if (impl->BufferFull()) {
    // On an event-loop thread waiting would freeze every task of the loop (for up to
    // client.writer.buffer.wait-timeout, by default without limit): fail at once, retriably;
    // the caller awaits wait_for_capacity(). Elsewhere wait as the Java client does.
    if (InRunningEventLoop()) return BufferFullOnLoop();
    Status st;
    {
      nb::gil_scoped_release release;
      st = impl->WaitForBufferSpace();
    }
    if (!st.ok()) return st;
  }
  return impl->AppendNoWait(values.data(), values.size());
}

namespace {

/// Batches returned by one poll, kept native so an undelivered poll (cancelled, interrupted)
/// can be handed back to the scanner without loss.
struct PyPolled {
  std::vector<ScanBatch> batches;
  size_t Size() const { return batches.size(); }
  /// [(bucket, base_offset, last_offset, commit_timestamp, (schema_capsule, array_capsule),
  ///   change_types bytes or None)]
  nb::list Items() const {
    nb::list out;
    for (const auto& b : batches) {
      nb::object ct = nb::none();
      if (!b.change_types.empty())
        ct = nb::bytes(reinterpret_cast<const char*>(b.change_types.data()), b.change_types.size());
      out.append(nb::make_tuple(b.bucket, b.base_offset, b.last_offset, b.commit_timestamp,
                                ExportBatchCapsules(*b.batch), ct));
    }
    return out;
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
  int64_t MaxPollRecords() const { return max_poll_records; }

  void Subscribe(int32_t bucket, int64_t offset) { ThrowIfError(scanner->Subscribe(bucket, offset)); }
  void Unsubscribe(int32_t bucket) { ThrowIfError(scanner->Unsubscribe(bucket)); }
  nb::object Schema() const { return ExportSchemaCapsule(*scanner->schema()); }
  void Requeue(PyPolled& polled) { scanner->Requeue(std::move(polled.batches)); }

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

struct PyTable {
  std::shared_ptr<Table> table;
  nb::dict Info() const { return TableInfoToDict(table->info()); }
  PyAppendWriter NewAppendWriter() {
    return PyAppendWriter(ValueOrThrow(table->NewAppendWriter()), table->info().table_path.ToString(), options);
  }
  PyScanner NewScanner(const std::vector<int32_t>& projection) {
    return PyScanner{ValueOrThrow(table->NewLogScanner(projection)), options.max_poll_records};
  }
  ClientOptions options;  // of the connection the table came from
};

struct PyAdmin {
  std::shared_ptr<Admin> admin;

  nb::object CreateDatabase(std::string name, std::optional<std::string> comment,
                            std::map<std::string, std::string> custom, bool ignore) {
    DatabaseDescriptor d{std::move(comment), std::move(custom)};
    auto a = admin;
    return Awaitable([a, name, d, ignore](nb::object done) {
      a->CreateDatabaseAsync(name, d, ignore, MakeStatusCallback(std::move(done)));
    });
  }
  nb::object DropDatabase(std::string name, bool ignore, bool cascade) {
    auto a = admin;
    return Awaitable([a, name, ignore, cascade](nb::object done) {
      a->DropDatabaseAsync(name, ignore, cascade, MakeStatusCallback(std::move(done)));
    });
  }
  nb::object ListDatabases() {
    auto a = admin;
    return Awaitable([a](nb::object done) {
      a->ListDatabasesAsync(MakeCallback<std::vector<std::string>>(
          std::move(done), [](std::vector<std::string> v) { return nb::cast(v); }));
    });
  }
  nb::object DatabaseExists(std::string name) {
    auto a = admin;
    return Awaitable([a, name](nb::object done) {
      a->DatabaseExistsAsync(name, MakeCallback<bool>(std::move(done), [](bool b) { return nb::cast(b); }));
    });
  }
  nb::object GetDatabaseInfo(std::string name) {
    auto a = admin;
    return Awaitable([a, name](nb::object done) {
      a->GetDatabaseInfoAsync(name, MakeCallback<DatabaseInfo>(std::move(done), [](DatabaseInfo i) {
        nb::dict d;
        d["database_name"] = i.database_name;
        d["comment"] = i.descriptor.comment;
        d["custom_properties"] = i.descriptor.custom_properties;
        d["created_time"] = i.created_time;
        d["modified_time"] = i.modified_time;
        return nb::object(d);
      }));
    });
  }
  nb::object CreateTable(std::string db, std::string table, nb::handle schema, std::vector<std::string> primary_keys,
                         std::vector<std::string> partition_keys, std::optional<int32_t> bucket_count,
                         std::vector<std::string> bucket_keys, std::optional<std::string> comment,
                         std::map<std::string, std::string> properties,
                         std::map<std::string, std::string> custom_properties, bool ignore) {
    TableDescriptor d;
    d.schema.arrow_schema = ImportSchema(schema);
    d.schema.primary_keys = std::move(primary_keys);
    d.partition_keys = std::move(partition_keys);
    d.bucket_count = bucket_count;
    d.bucket_keys = std::move(bucket_keys);
    d.comment = std::move(comment);
    d.properties = std::move(properties);
    d.custom_properties = std::move(custom_properties);
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, d, ignore](nb::object done) {
      a->CreateTableAsync(path, d, ignore, MakeStatusCallback(std::move(done)));
    });
  }
  nb::object DropTable(std::string db, std::string table, bool ignore) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, ignore](nb::object done) {
      a->DropTableAsync(path, ignore, MakeStatusCallback(std::move(done)));
    });
  }
  nb::object GetTableInfo(std::string db, std::string table) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path](nb::object done) {
      a->GetTableInfoAsync(path, MakeCallback<TableInfo>(std::move(done),
                                                         [](TableInfo i) { return nb::object(TableInfoToDict(i)); }));
    });
  }
  nb::object ListTables(std::string db) {
    auto a = admin;
    return Awaitable([a, db](nb::object done) {
      a->ListTablesAsync(db, MakeCallback<std::vector<std::string>>(
                                 std::move(done), [](std::vector<std::string> v) { return nb::cast(v); }));
    });
  }
  nb::object TableExists(std::string db, std::string table) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path](nb::object done) {
      a->TableExistsAsync(path, MakeCallback<bool>(std::move(done), [](bool b) { return nb::cast(b); }));
    });
  }
  nb::object ListPartitionOffsets(std::string db, std::string table, std::string partition,
                                  std::vector<int32_t> buckets, int32_t type, std::optional<int64_t> timestamp) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, partition, buckets, type, timestamp](nb::object done) {
      a->ListPartitionOffsetsAsync(path, partition, buckets, static_cast<OffsetType>(type), timestamp,
                                   MakeCallback<std::map<int32_t, int64_t>>(
                                       std::move(done), [](std::map<int32_t, int64_t> m) { return nb::cast(m); }));
    });
  }
  nb::object CreatePartition(std::string db, std::string table, std::map<std::string, std::string> spec, bool ignore) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, spec, ignore](nb::object done) {
      a->CreatePartitionAsync(path, spec, ignore, MakeStatusCallback(std::move(done)));
    });
  }
  nb::object DropPartition(std::string db, std::string table, std::map<std::string, std::string> spec, bool ignore) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, spec, ignore](nb::object done) {
      a->DropPartitionAsync(path, spec, ignore, MakeStatusCallback(std::move(done)));
    });
  }
  nb::object ListPartitionInfos(std::string db, std::string table) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path](nb::object done) {
      a->ListPartitionInfosAsync(path, MakeCallback<std::vector<PartitionInfo>>(std::move(done), [](std::vector<PartitionInfo> v) {
        nb::list out;
        for (auto& p : v) out.append(nb::make_tuple(p.partition_id, p.partition_name, nb::cast(p.spec)));
        return nb::object(out);
      }));
    });
  }
  nb::object ListOffsets(std::string db, std::string table, std::vector<int32_t> buckets, int32_t type,
                         std::optional<int64_t> timestamp) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path, buckets, type, timestamp](nb::object done) {
      a->ListOffsetsAsync(path, buckets, static_cast<OffsetType>(type), timestamp,
                          MakeCallback<std::map<int32_t, int64_t>>(
                              std::move(done), [](std::map<int32_t, int64_t> m) { return nb::cast(m); }));
    });
  }

  nb::object BucketLeaders(std::string db, std::string table) {
    auto a = admin;
    TablePath path = MakePath(db, table);
    return Awaitable([a, path](nb::object done) {
      a->ListBucketLeadersAsync(path, MakeCallback<std::map<int32_t, int32_t>>(
                                          std::move(done), [](std::map<int32_t, int32_t> m) { return nb::cast(m); }));
    });
  }
};

struct PyConnection {
  std::shared_ptr<Connection> conn;

  PyConnection(std::shared_ptr<Connection> c) : conn(std::move(c)) {}
  PyConnection(PyConnection&&) = default;
  // Dropping the last reference closes the connection, which waits for the I/O thread: never
  // with the GIL held (the I/O thread may be waiting for it).
  ~PyConnection() {
    if (conn && PyGILState_Check()) {
      nb::gil_scoped_release release;
      conn.reset();
    }
  }

  static nb::object Connect(std::map<std::string, std::string> props) {
    return Awaitable([props](nb::object done) {
      Connection::ConnectAsync(props, MakeCallback<std::shared_ptr<Connection>>(
                                          std::move(done), [](std::shared_ptr<Connection> c) {
                                            return nb::cast(PyConnection(std::move(c)));
                                          }));
    });
  }
  PyAdmin GetAdmin() { return PyAdmin{conn->GetAdmin()}; }
  nb::object GetTable(std::string db, std::string table) {
    auto c = conn;
    TablePath path = MakePath(db, table);
    return Awaitable([c, path](nb::object done) {
      const ClientOptions options = c->options();
      c->GetTableAsync(path, MakeCallback<std::shared_ptr<Table>>(std::move(done), [options](std::shared_ptr<Table> t) {
        return nb::cast(PyTable{std::move(t), options});
      }));
    });
  }
  void Close() {
    Status st;
    {
      nb::gil_scoped_release release;
      st = conn->Close();
    }
    ThrowIfError(st);
  }
  int64_t RequestTimeoutMs() const { return conn->options().request_timeout_ms; }
};

}  // namespace
}  // namespace fluss::py

NB_MODULE(_fluss, m) {
  using namespace fluss::py;
  m.doc() = "Native core of the fluss package (C++ libfluss bindings). Use the `fluss` package, not this module.";

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const StatusError& e) {
      nb::object err = MakeError(e.status);
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(err.ptr())), err.ptr());
    }
  });

  m.def("_validate_config", [](const std::map<std::string, std::string>& props) {
    ThrowIfError(fluss::ParseClientOptions(props).status());
  });

  m.def("_set_helpers", [](nb::object error_factory, nb::object future_factory, nb::object cancel_requested,
                           nb::object as_coroutine) {
    SetErrorFactory(std::move(error_factory));
    FutureFactory() = std::move(future_factory);
    CancelRequested() = std::move(cancel_requested);
    AsCoroutine() = std::move(as_coroutine);
  });

  nb::class_<PyWriteResult>(m, "WriteResultHandle",
                            "Acknowledgement of one write. `await handle.wait()` resolves when the server has "
                            "acknowledged the batch holding the write (raises FlussError if it failed).")
      .def("wait", &PyWriteResult::Wait,
           "Returns an awaitable that resolves to None once the write is acknowledged; raises FlussError "
           "with the server's error code if the write failed. May be awaited any number of times.")
      .def_prop_ro("done", &PyWriteResult::Done, "True once the outcome of the write is known.");

  nb::class_<PyAppendWriter>(m, "_AppendWriter")
      .def("append", &PyAppendWriter::Append, "row"_a.none())
      .def("write_arrow_batch", &PyAppendWriter::WriteArrowBatch, "batch"_a)
      .def("flush", &PyAppendWriter::Flush)
      .def("flush_blocking", &PyAppendWriter::FlushBlocking)
      .def_prop_ro("buffer_full", &PyAppendWriter::BufferFull)
      .def_ro("buffer_memory_size", &PyAppendWriter::buffer_memory_size)
      .def_ro("buffer_wait_timeout_ms", &PyAppendWriter::buffer_wait_timeout_ms)
      .def_ro("table_path", &PyAppendWriter::table_path);

  nb::class_<PyPolled>(m, "_Polled")
      .def("__len__", &PyPolled::Size)
      .def("items", &PyPolled::Items);

  nb::class_<PyScanner>(m, "_Scanner")
      .def("subscribe", &PyScanner::Subscribe, "bucket_id"_a, "start_offset"_a)
      .def("unsubscribe", &PyScanner::Unsubscribe, "bucket_id"_a)
      .def("schema_capsule", &PyScanner::Schema)
      .def("requeue", &PyScanner::Requeue, "polled"_a)
      .def_prop_ro("max_poll_records", &PyScanner::MaxPollRecords)
      .def("poll_blocking", &PyScanner::PollBlocking, "timeout_ms"_a, "max_records"_a)
      .def("poll_async", &PyScanner::PollAsync, "timeout_ms"_a, "max_records"_a)
      .def("to_arrow_blocking", &PyScanner::ToArrowBlocking)
      .def("to_arrow_async", &PyScanner::ToArrowAsync)
      .def("table_capsule", &PyScanner::TableCapsule, "polled"_a);

  nb::class_<PyTable>(m, "_Table")
      .def("info", &PyTable::Info)
      .def("new_append_writer", &PyTable::NewAppendWriter)
      .def("new_scanner", &PyTable::NewScanner, "projection"_a);

  nb::class_<PyAdmin>(m, "_Admin")
      .def("create_database", &PyAdmin::CreateDatabase, "name"_a, "comment"_a.none(), "custom_properties"_a, "ignore_if_exists"_a)
      .def("drop_database", &PyAdmin::DropDatabase)
      .def("list_databases", &PyAdmin::ListDatabases)
      .def("database_exists", &PyAdmin::DatabaseExists)
      .def("get_database_info", &PyAdmin::GetDatabaseInfo)
      .def("create_table", &PyAdmin::CreateTable, "database"_a, "table"_a, "schema"_a, "primary_keys"_a,
           "partition_keys"_a, "bucket_count"_a.none(), "bucket_keys"_a, "comment"_a.none(), "properties"_a,
           "custom_properties"_a, "ignore_if_exists"_a)
      .def("drop_table", &PyAdmin::DropTable)
      .def("get_table_info", &PyAdmin::GetTableInfo)
      .def("list_tables", &PyAdmin::ListTables)
      .def("table_exists", &PyAdmin::TableExists)
      .def("list_offsets", &PyAdmin::ListOffsets, "database"_a, "table"_a, "bucket_ids"_a, "offset_type"_a,
           "timestamp"_a.none())
      .def("list_partition_offsets", &PyAdmin::ListPartitionOffsets, "database"_a, "table"_a, "partition_name"_a,
           "bucket_ids"_a, "offset_type"_a, "timestamp"_a.none())
      .def("create_partition", &PyAdmin::CreatePartition)
      .def("drop_partition", &PyAdmin::DropPartition)
      .def("list_partition_infos", &PyAdmin::ListPartitionInfos)
      .def("bucket_leaders", &PyAdmin::BucketLeaders, "database"_a, "table"_a);

  nb::class_<PyConnection>(m, "_Connection")
      .def_static("connect", &PyConnection::Connect)
      .def("get_admin", &PyConnection::GetAdmin)
      .def("get_table", &PyConnection::GetTable)
      .def("close", &PyConnection::Close)
      .def_prop_ro("request_timeout_ms", &PyConnection::RequestTimeoutMs);
}

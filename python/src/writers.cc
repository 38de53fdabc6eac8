// Writers: _AppendWriter (rows, converted per column without a Python frame per value, and
// Arrow batches to a log table) and WriteResultHandle (the acknowledgement of one write).
//
// Thread affinity: the calling thread, GIL held; a wait for writer-buffer space and a blocking
// flush release the GIL. Completions arrive on the I/O thread through the bridge (bridge.h).
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "arrow_capsules.h"
#include "bindings.h"
#include "bridge.h"
#include "row_converter.h"

namespace fluss::py {

using namespace nb::literals;

namespace {

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

nb::object NewPyAppendWriter(std::shared_ptr<AppendWriter> writer, std::string table_path,
                             const ClientOptions& options) {
  return nb::cast(PyAppendWriter(std::move(writer), std::move(table_path), options));
}

void BindWriters(nb::module_& m) {
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
}

}  // namespace fluss::py

// What the writers of the binding share (writers.cc: _AppendWriter, upsert.cc: _UpsertWriter):
// the WriteResultHandle of one write, the writer-buffer wait that never stalls an event loop,
// and flush.
//
// Thread affinity: the calling thread, GIL held; WriteWhenRoom releases the GIL while it waits
// for buffer memory. Completions arrive on the I/O thread through the bridge (bridge.h).
#pragma once

#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <utility>

#include "bindings.h"
#include "bridge.h"

namespace fluss::py {

/// The acknowledgement of one write, bound as fluss.WriteResultHandle (writers.cc).
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
bool InRunningEventLoop();

/// The part of a Python writer that does not depend on the table kind: the core writer `W`
/// (AppendWriter or UpsertWriter: both have BufferFull, WaitForBufferSpace, FlushAsync) and
/// the writer-buffer options of the connection.
template <typename W>
struct PyWriterBase {
  std::shared_ptr<W> writer;
  std::string table_path;
  int64_t buffer_memory_size = 0;      // client.writer.buffer.memory-size
  int64_t buffer_wait_timeout_ms = 0;  // client.writer.buffer.wait-timeout

  PyWriterBase(std::shared_ptr<W> w, std::string path, const ClientOptions& o)
      : writer(std::move(w)),
        table_path(std::move(path)),
        buffer_memory_size(o.writer_buffer_memory_size),
        buffer_wait_timeout_ms(o.writer_buffer_wait_timeout_ms) {}

  bool BufferFull() { return writer->BufferFull(); }

  /// Runs `convert()` (the Python row into the writer's value buffers), then, once the writer
  /// buffer has room, `write_no_wait()` (the core's *NoWait write). On a thread running an
  /// asyncio event loop waiting would freeze every task of the loop (for up to
  /// client.writer.buffer.wait-timeout, by default without limit): a full buffer fails at
  /// once, retriably, and the caller awaits wait_for_capacity(). Elsewhere it waits as the
  /// Java client does, with the GIL released (the I/O thread may need it to make progress),
  /// and converts again afterwards: another thread may have used the value buffers meanwhile.
  /// A bad row is rejected before any wait.
  template <typename Convert, typename Write>
  Result<WriteResult> WriteWhenRoom(const char* method, Convert&& convert, Write&& write_no_wait) {
    FLUSS_RETURN_NOT_OK(convert());
    if (writer->BufferFull()) {
      if (InRunningEventLoop()) {
        return Status::Timeout("table " + table_path + ": the writer buffer (client.writer.buffer.memory-size = " +
                               std::to_string(buffer_memory_size) + " bytes) is full; " + method +
                               "() does not wait on a thread running an asyncio event loop (it would block the "
                               "loop): await writer.wait_for_capacity(), then " + method + " again");
      }
      Status st;
      {
        nb::gil_scoped_release release;
        st = writer->WaitForBufferSpace();
      }
      if (!st.ok()) return st;
      FLUSS_RETURN_NOT_OK(convert());
    }
    return write_no_wait();
  }

  /// An awaitable resolved when every write made before is complete (FlushAsync).
  nb::object Flush() {
    auto w = writer;
    return Awaitable([w](nb::object done) { w->FlushAsync(MakeStatusCallback(std::move(done))); });
  }

  /// Flush, blocking the calling thread (GIL released, Ctrl-C answered).
  void FlushBlocking() {
    auto p = std::make_shared<std::promise<Status>>();
    auto f = p->get_future();
    writer->FlushAsync([p](Status s) { p->set_value(std::move(s)); });
    ThrowIfError(WaitInterruptible(f));
  }
};

/// Adds the members every native writer class shows Python (flush, flush_blocking,
/// buffer_full, buffer_memory_size, buffer_wait_timeout_ms, table_path) to `cls`, whose type
/// T derives from PyWriterBase<W>.
template <typename T>
nb::class_<T>& DefWriterBase(nb::class_<T>& cls) {
  return cls.def("flush", [](T& w) { return w.Flush(); })
      .def("flush_blocking", [](T& w) { w.FlushBlocking(); })
      .def_prop_ro("buffer_full", [](T& w) { return w.BufferFull(); })
      .def_prop_ro("buffer_memory_size", [](const T& w) { return w.buffer_memory_size; })
      .def_prop_ro("buffer_wait_timeout_ms", [](const T& w) { return w.buffer_wait_timeout_ms; })
      .def_prop_ro("table_path", [](const T& w) { return w.table_path; });
}

}  // namespace fluss::py

// Connections: _Connection (connect, the admin, table handles, close). Closing waits for the
// I/O thread, always with the GIL released (the I/O thread may be waiting for it).
//
// Thread affinity: the calling thread, GIL held; callbacks run on the I/O thread and take the GIL.
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "bindings.h"
#include "bridge.h"
#include "python_gate.h"

namespace fluss::py {

namespace {

// Every connection made, so that all can be closed before the interpreter finalizes
// (_close_all_connections, at exit): one whose Python object is only freed by the final garbage
// collection would otherwise still run its I/O thread, whose callbacks take the GIL, while the
// interpreter is being torn down (a fatal error in CPython).
std::mutex g_connections_mu;
std::vector<std::weak_ptr<Connection>> g_connections;

void Register(const std::shared_ptr<Connection>& c) {
  std::lock_guard<std::mutex> lock(g_connections_mu);
  std::erase_if(g_connections, [](const std::weak_ptr<Connection>& w) { return w.expired(); });
  g_connections.push_back(c);
}

/// Closes every connection still open (GIL released while they close); errors are dropped:
/// at exit nobody is left to hear them. Then closes the way into Python for native threads
/// (ClosePythonGate): called once, at exit.
void CloseAllConnections() {
  std::vector<std::shared_ptr<Connection>> live;
  {
    std::lock_guard<std::mutex> lock(g_connections_mu);
    for (auto& w : g_connections)
      if (auto c = w.lock()) live.push_back(std::move(c));
    g_connections.clear();
  }
  nb::gil_scoped_release release;
  for (auto& c : live) (void)c->Close();
  // The last references may go here, without the GIL: nothing of Python is left in them.
  live.clear();
  // Threads still running (e.g. of a connect that failed, closing on a thread of its own) do
  // not take the GIL from here on.
  ClosePythonGate();
}

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
                                            Register(c);
                                            return nb::cast(PyConnection(std::move(c)));
                                          }));
    });
  }
  nb::object GetAdmin() { return NewPyAdmin(conn->GetAdmin()); }
  nb::object GetTable(std::string db, std::string table) {
    auto c = conn;
    TablePath path = MakePath(db, table);
    return Awaitable([c, path](nb::object done) {
      const ClientOptions options = c->options();
      c->GetTableAsync(path, MakeCallback<std::shared_ptr<Table>>(std::move(done), [options](std::shared_ptr<Table> t) {
        return NewPyTable(std::move(t), options);
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
  std::map<std::string, int64_t> Metrics() const {
    const ClientMetrics m = conn->Metrics();
    return {{"records_sent", m.records_sent},
            {"bytes_sent", m.bytes_sent},
            {"batches_sent", m.batches_sent},
            {"write_retries", m.write_retries},
            {"records_fetched", m.records_fetched},
            {"bytes_fetched", m.bytes_fetched},
            {"fetch_retries", m.fetch_retries},
            {"requests", m.requests},
            {"request_latency_avg_us", m.request_latency_avg_us},
            {"request_latency_max_us", m.request_latency_max_us},
            {"batches_in_flight", m.batches_in_flight},
            {"buffer_used_bytes", m.buffer_used_bytes},
            {"buffer_limit_bytes", m.buffer_limit_bytes}};
  }
};

}  // namespace

void BindConnection(nb::module_& m) {
  nb::class_<PyConnection>(m, "_Connection")
      .def_static("connect", &PyConnection::Connect)
      .def("get_admin", &PyConnection::GetAdmin)
      .def("get_table", &PyConnection::GetTable)
      .def("close", &PyConnection::Close)
      .def_prop_ro("request_timeout_ms", &PyConnection::RequestTimeoutMs)
      .def("metrics", &PyConnection::Metrics);
  m.def("_close_all_connections", &CloseAllConnections,
        "Closes every connection this process opened that is still open, then keeps native threads out of "
        "Python (at exit, before finalization; once).");
}

}  // namespace fluss::py

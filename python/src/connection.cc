// Connections: _Connection (connect, the admin, table handles, close). Closing waits for the
// I/O thread, always with the GIL released (the I/O thread may be waiting for it).
//
// Thread affinity: the calling thread, GIL held; callbacks run on the I/O thread and take the GIL.
#include <map>
#include <memory>
#include <string>

#include "bindings.h"
#include "bridge.h"

namespace fluss::py {

namespace {

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
};

}  // namespace

void BindConnection(nb::module_& m) {
  nb::class_<PyConnection>(m, "_Connection")
      .def_static("connect", &PyConnection::Connect)
      .def("get_admin", &PyConnection::GetAdmin)
      .def("get_table", &PyConnection::GetTable)
      .def("close", &PyConnection::Close)
      .def_prop_ro("request_timeout_ms", &PyConnection::RequestTimeoutMs);
}

}  // namespace fluss::py

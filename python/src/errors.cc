// Statuses as Python exceptions: the fluss.FlussError factory the package sets and the translator
// of StatusError (bridge.h).
//
// Thread affinity: the calling thread, GIL held.
#include "bindings.h"
#include "bridge.h"

namespace fluss::py {

namespace {

nb::object& ErrorFactory() {
  static nb::object* f = new nb::object();  // leaked on purpose: outlives interpreter teardown
  return *f;
}

}  // namespace

void SetErrorFactory(nb::object f) { ErrorFactory() = std::move(f); }

nb::object MakeError(const Status& st) {
  return ErrorFactory()(st.message(), st.error_code(), st.IsRetriable(), static_cast<int>(st.code()));
}

void BindErrors(nb::module_& m) {
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const StatusError& e) {
      nb::object err = MakeError(e.status);
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(err.ptr())), err.ptr());
    }
  });
}

}  // namespace fluss::py

// Statuses as Python exceptions: the fluss.FlussError factory the package sets, the translator
// of StatusError (bridge.h), and the core's table of Fluss error codes behind fluss.ErrorCode.
//
// Thread affinity: the calling thread, GIL held.
#include "fluss/error_codes.h"

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

void SetPythonError(const Status& st) {
  nb::object err = MakeError(st);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(err.ptr())), err.ptr());
}

void BindErrors(nb::module_& m) {
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const StatusError& e) {
      SetPythonError(e.status);
    }
  });

  m.def(
      "_error_codes",
      [] {
        // The core's one table (include/fluss/error_codes.h); server codes only, so -2
        // (CLIENT_ERROR, the client's own code) is not among them.
        nb::dict codes;
        for (const auto& [code, name] : fluss::AllErrorCodes()) codes[name] = code;
        return codes;
      },
      "{name: code} of the Fluss server error codes the core knows, names as in the Java `Errors` enum "
      "(fluss.ErrorCode is built from it).");
}

}  // namespace fluss::py

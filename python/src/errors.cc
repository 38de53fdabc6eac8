// Statuses as Python exceptions: the fluss.FlussError factory the package sets, the translator
// of StatusError (bridge.h), and the core's table of Fluss error codes behind fluss.ErrorCode.
//
// Thread affinity: the calling thread, GIL held.
#include <cstring>

#include "bindings.h"
#include "bridge.h"

namespace fluss::py {

namespace {

nb::object& ErrorFactory() {
  static nb::object* f = new nb::object();  // leaked on purpose: outlives interpreter teardown
  return *f;
}

// The core names the codes through the public fluss::ErrorName ("UNKNOWN" for a code it does not
// know) but publishes no list. Fluss codes are small consecutive ints (-1 .. 63 for 0.9.1), so
// scanning a range well past the highest one reads the whole table while it stays the one source
// of names and numbers. -2 (CLIENT_ERROR) is the client's own code, not a server one: excluded.
constexpr int32_t kLowestServerCode = -1;  // UNKNOWN_SERVER_ERROR
constexpr int32_t kHighestCodeScanned = 1023;

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

  m.def(
      "_error_codes",
      [] {
        nb::dict codes;
        for (int32_t code = kLowestServerCode; code <= kHighestCodeScanned; ++code) {
          const char* name = fluss::ErrorName(code);
          if (std::strcmp(name, "UNKNOWN") != 0) codes[name] = code;
        }
        return codes;
      },
      "{name: code} of the Fluss server error codes the core knows, names as in the Java `Errors` enum "
      "(fluss.ErrorCode is built from it).");
}

}  // namespace fluss::py

// The completion bridge (see bridge.h): Python references owned by C++ callbacks, callbacks
// that deliver native completions to Python, the helpers the package sets, Ctrl-C checks.
#include "bridge.h"

#include <Python.h>

#include "bindings.h"

namespace fluss::py {

PyRef::~PyRef() {
  if (!obj_) return;
  if (!Py_IsInitialized() || _Py_IsFinalizing()) return;  // leak rather than touch a dying interpreter
  PyGILState_STATE s = PyGILState_Ensure();
  Py_DECREF(obj_);
  PyGILState_Release(s);
}

void ReportUnraisable(const char* what) {
  PyErr_SetString(PyExc_RuntimeError, what);
  PyErr_WriteUnraisable(nullptr);
}

void CallDone(const std::shared_ptr<PyRef>& done, nb::handle error, nb::handle value) {
  try {
    done->get()(error, value);
  } catch (nb::python_error& e) {
    e.discard_as_unraisable(done->get());
  }
}

StatusCallback MakeStatusCallback(nb::object done) {
  auto ref = std::make_shared<PyRef>(std::move(done));
  return [ref](Status st) {
    nb::gil_scoped_acquire gil;
    try {
      if (st.ok()) CallDone(ref, nb::none(), nb::none());
      else CallDone(ref, MakeError(st), nb::none());
    } catch (nb::python_error& e) {
      e.discard_as_unraisable(ref->get());
    } catch (const std::exception& e) {
      ReportUnraisable(e.what());
    }
  };
}

nb::object& FutureFactory() {
  static nb::object* f = new nb::object();  // leaked on purpose: outlives interpreter teardown
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

void CheckInterrupt() {
  if (PyErr_CheckSignals() != 0) throw nb::python_error();
  if (nb::cast<bool>(CancelRequested()())) {
    nb::object cancelled = nb::module_::import_("asyncio").attr("CancelledError");
    PyErr_SetNone(cancelled.ptr());
    throw nb::python_error();
  }
}

void BindBridge(nb::module_& m) {
  m.def("_set_helpers", [](nb::object error_factory, nb::object future_factory, nb::object cancel_requested,
                           nb::object as_coroutine) {
    SetErrorFactory(std::move(error_factory));
    FutureFactory() = std::move(future_factory);
    CancelRequested() = std::move(cancel_requested);
    AsCoroutine() = std::move(as_coroutine);
  });
}

}  // namespace fluss::py

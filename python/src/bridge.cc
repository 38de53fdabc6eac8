// The completion bridge (see bridge.h): Python references owned by C++ callbacks, callbacks
// that deliver native completions to Python, the helpers the package sets, Ctrl-C checks.
#include "bridge.h"

#include <Python.h>

#include "bindings.h"
#include "python_gate.h"

namespace fluss::py {

PyRef::~PyRef() {
  if (!obj_) return;
  PythonScope py;
  if (py.admitted()) Py_DECREF(obj_);  // otherwise leaked rather than touch a dying interpreter
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
  auto target = Completion::Of(std::move(done));
  return [target](Status st) mutable {
    target.Deliver([st = std::move(st)](const std::shared_ptr<PyRef>& ref) {
      try {
        if (st.ok()) CallDone(ref, nb::none(), nb::none());
        else CallDone(ref, MakeError(st), nb::none());
      } catch (nb::python_error& e) {
        e.discard_as_unraisable(ref->get());
      } catch (const std::exception& e) {
        ReportUnraisable(e.what());
      }
    });
  };
}

namespace {

/// fluss._fluss._CompletionInbox: the Python handle of one loop's CompletionInbox (held by
/// shared_ptr, since posted callbacks may outlive the Python object).
struct PyCompletionInbox {
  std::shared_ptr<CompletionInbox> inbox;

  /// Runs every settlement posted since the last drain, in arrival order (loop thread, GIL
  /// held). One failing settlement does not strand the others.
  void Drain() {
    for (auto& s : inbox->Take()) {
      try {
        s->Run();
      } catch (nb::python_error& e) {
        e.discard_as_unraisable(nb::none());
      } catch (const std::exception& e) {
        ReportUnraisable(e.what());
      }
      s.reset();  // here, GIL held: a settlement owns Python references
    }
  }
};

}  // namespace

Completion Completion::Of(nb::object done) {
  Completion c;
  if (nb::isinstance<Completion>(done)) {
    c = nb::cast<const Completion&>(done);
  } else {
    c.fn = std::make_shared<PyRef>(std::move(done));
  }
  return c;
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

  nb::class_<PyCompletionInbox>(m, "_CompletionInbox",
                                "Completions bound for one event loop, settled in batches (bridge.h).")
      .def("__init__",
           [](PyCompletionInbox* self, nb::object wake) {
             new (self) PyCompletionInbox{std::make_shared<CompletionInbox>(std::move(wake))};
           },
           nb::arg("wake"),
           "`wake()`: schedules `drain()` on the loop's thread thread-safely; called (GIL held, "
           "any thread) by the first completion after a drain; raises RuntimeError once the loop "
           "is closed.")
      .def("drain", &PyCompletionInbox::Drain,
           "Settles every completion posted since the last drain, in arrival order (loop thread).")
      .def_prop_ro("pending", [](const PyCompletionInbox& i) { return i.inbox->pending(); },
                   "Completions waiting for a drain.")
      .def_prop_ro("wakes", [](const PyCompletionInbox& i) { return i.inbox->wakes(); },
                   "How many times a completion has woken the loop (one per batch).");

  nb::class_<Completion>(m, "_Completion",
                         "The `done` of one awaited operation: `fn(error, value)` runs on its loop's "
                         "thread, posted through `inbox`.")
      .def("__init__",
           [](Completion* self, const PyCompletionInbox& inbox, nb::object fn) {
             new (self) Completion{inbox.inbox, std::make_shared<PyRef>(std::move(fn))};
           },
           nb::arg("inbox"), nb::arg("fn"))
      .def("__call__",
           [](const Completion& c, nb::object err, nb::object value) {
             // From Python (e.g. a test standing in for the I/O thread): post the outcome too.
             auto target = c;
             auto e = std::make_shared<PyRef>(std::move(err));
             auto v = std::make_shared<PyRef>(std::move(value));
             target.Deliver([e, v](const std::shared_ptr<PyRef>& ref) { CallDone(ref, e->get(), v->get()); });
           },
           nb::arg("err").none(), nb::arg("value").none(),
           "Posts the outcome `(err, value)`, as the I/O thread does (any thread, GIL held).");
}

}  // namespace fluss::py

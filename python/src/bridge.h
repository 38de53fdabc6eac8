// The completion bridge shared by the binding: statuses as Python exceptions, Python references
// owned by C++ callbacks, native completions delivered to asyncio futures, and blocking waits
// that answer Ctrl-C.
//
// Thread affinity: PyRef and the callbacks of MakeCallback / MakeStatusCallback may be
// destroyed or called on the I/O thread; they take the GIL themselves. Everything else runs on
// the calling thread with the GIL held.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <chrono>
#include <future>
#include <memory>

#include "fluss/client.h"

namespace fluss::py {

namespace nb = nanobind;

/// A C++ exception carrying a Status; translated into fluss.FlussError.
struct StatusError {
  Status status;
};

[[noreturn]] inline void Throw(const Status& st) { throw StatusError{st}; }
inline void ThrowIfError(const Status& st) {
  if (!st.ok()) Throw(st);
}
template <typename T>
T ValueOrThrow(Result<T> r) {
  if (!r.ok()) Throw(r.status());
  return std::move(*r);
}

/// Builds a fluss.FlussError instance for `st` (GIL held), with the factory the package set.
nb::object MakeError(const Status& st);
/// Sets the Python factory MakeError calls: f(message, error_code, retriable, category).
void SetErrorFactory(nb::object f);
/// Raises `st` as fluss.FlussError: sets the Python error indicator (GIL held). For the few
/// hot paths that are plain CPython functions, outside nanobind's exception translation.
void SetPythonError(const Status& st);

/// Owns a Python object from C++ code that may run without the GIL; releases it under the GIL
/// (and leaks it if the interpreter is already finalising).
class PyRef {
 public:
  explicit PyRef(nb::object o) : obj_(o.release().ptr()) {}
  ~PyRef();
  PyRef(const PyRef&) = delete;
  PyRef& operator=(const PyRef&) = delete;
  nb::handle get() const { return obj_; }

 private:
  PyObject* obj_;
};

/// Prints an error that cannot be raised (GIL held), like an unraisable exception.
void ReportUnraisable(const char* what);

/// Calls Python `done(error_or_None, value_or_None)` under the GIL; Python exceptions raised by
/// `done` are reported as unraisable (they cannot propagate into the I/O thread).
void CallDone(const std::shared_ptr<PyRef>& done, nb::handle error, nb::handle value);

/// A C++ callback for a Result<T> that converts the value with `convert` (GIL held) and calls
/// the Python `done`.
template <typename T, typename Convert>
Callback<T> MakeCallback(nb::object done, Convert convert) {
  auto ref = std::make_shared<PyRef>(std::move(done));
  return [ref, convert](Result<T> r) {
    nb::gil_scoped_acquire gil;
    if (!r.ok()) {
      try {
        CallDone(ref, MakeError(r.status()), nb::none());
      } catch (nb::python_error& e) {
        e.discard_as_unraisable(ref->get());
      } catch (const std::exception& e) {
        ReportUnraisable(e.what());
      }
      return;
    }
    nb::object v;
    try {
      v = convert(std::move(*r));
    } catch (const StatusError& e) {
      CallDone(ref, MakeError(e.status), nb::none());
      return;
    } catch (nb::python_error& e) {
      e.discard_as_unraisable(ref->get());
      return;
    } catch (const std::exception& e) {
      ReportUnraisable(e.what());
      return;
    }
    CallDone(ref, nb::none(), v);
  };
}
StatusCallback MakeStatusCallback(nb::object done);

/// The Python helpers the package sets through `_set_helpers` (python/fluss/_async.py):
/// future_from(start, lost=None), as_coroutine(awaitable) and cancel_requested().
nb::object& FutureFactory();
nb::object& AsCoroutine();
nb::object& CancelRequested();

/// Returns an awaitable (made by the Python helper) that `start(done)` resolves.
template <typename F>
nb::object Awaitable(F start) {
  return FutureFactory()(nb::cpp_function(std::move(start)));
}

/// Checks for Ctrl-C (GIL held): a pending signal raises KeyboardInterrupt through the signal
/// handler; inside asyncio.run, whose SIGINT handler cancels the main task instead, a pending
/// cancellation of the current task raises asyncio.CancelledError. Returns normally otherwise.
void CheckInterrupt();

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

}  // namespace fluss::py

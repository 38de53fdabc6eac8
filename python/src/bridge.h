// The completion bridge shared by the binding: statuses as Python exceptions, Python references
// owned by C++ callbacks, native completions delivered to asyncio futures, and blocking waits
// that answer Ctrl-C.
//
// Thread affinity: PyRef and the callbacks of MakeCallback / MakeStatusCallback may be
// destroyed or called on the I/O thread; they take the GIL themselves (a callback bound to a
// CompletionInbox only to wake the loop, once per batch). Everything else runs on
// the calling thread with the GIL held.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <chrono>
#include <future>
#include <memory>

#include "fluss/client.h"
#include "loop_queue.h"
#include "python_gate.h"

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

/// Calls Python `done(error_or_None, value_or_None)` (GIL held); Python exceptions raised by
/// `done` are reported as unraisable (they cannot propagate into the I/O thread).
void CallDone(const std::shared_ptr<PyRef>& done, nb::handle error, nb::handle value);

/// One completed operation waiting for its event loop: Run converts its outcome and calls its
/// Python `done` (loop thread, GIL held).
struct Settlement {
  virtual ~Settlement() = default;
  virtual void Run() = 0;
};
template <typename F>
struct SettlementOf final : Settlement {
  explicit SettlementOf(F fn) : f(std::move(fn)) {}
  void Run() override { f(); }
  F f;
};

/// The completions bound for one event loop (fluss._async._Inbox holds one per loop, bound as
/// fluss._fluss._CompletionInbox): the I/O thread posts settlements without the GIL, and one
/// `drain()` on the loop's thread runs every settlement posted by then. So the GIL is taken
/// and the loop woken once per batch of completions (e.g. the write handles of one acknowledged
/// batch), not once per operation.
using CompletionInbox = LoopQueue<std::unique_ptr<Settlement>>;

/// The `done` that fluss._async.future_from passes to a native `start(done)`, bound as
/// fluss._fluss._Completion: the Python `fn(error_or_None, value_or_None)` that settles one
/// asyncio future, and the inbox of that future's loop. MakeCallback / MakeStatusCallback post
/// its outcome to the inbox; any other callable `done` is called on the I/O thread under the
/// GIL instead.
struct Completion {
  std::shared_ptr<CompletionInbox> inbox;  // null: call `fn` directly
  std::shared_ptr<PyRef> fn;

  /// The target of `done` (GIL held): a _Completion's inbox and function, or `done` itself.
  static Completion Of(nb::object done);
  /// Runs `settle(fn)` with the GIL held: posted to the inbox (the loop thread runs it), or
  /// at once on this thread. Any thread; call once.
  template <typename F>
  void Deliver(F settle) {
    if (inbox) {
      auto ref = std::move(fn);
      auto run = [ref, settle = std::move(settle)]() mutable { settle(ref); };
      inbox->Push(std::make_unique<SettlementOf<decltype(run)>>(std::move(run)));
      return;
    }
    PythonScope py;
    if (py.admitted()) settle(fn);  // otherwise the interpreter is going away: nobody waits
  }
};

/// A C++ callback for a Result<T> that converts the value with `convert` (GIL held) and calls
/// the Python `done` (see Completion for where and when).
template <typename T, typename Convert>
Callback<T> MakeCallback(nb::object done, Convert convert) {
  auto target = Completion::Of(std::move(done));
  return [target, convert](Result<T> r) mutable {
    target.Deliver([r = std::move(r), convert](const std::shared_ptr<PyRef>& ref) mutable {
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
    });
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

// The way into Python for threads the interpreter did not start (the client's I/O thread and
// its closing threads): a PythonScope holds the GIL, or is refused once the interpreter is
// going away. At exit, before finalization, ClosePythonGate refuses new scopes and waits for
// the open ones, so no native thread ever takes the GIL while CPython tears down (a fatal
// error: "PyGILState_Release: ... must be current when releasing" or a thread killed inside
// PyGILState_Ensure). A check of _Py_IsFinalizing alone races with finalization starting right
// after it.
//
// Thread affinity: PythonScope on any thread, with or without the GIL (nested scopes are fine);
// ClosePythonGate on the exiting thread with the GIL released.
#pragma once

#include <Python.h>

namespace fluss::py {

/// Takes the GIL for its lifetime if Python may still be entered (admitted()); otherwise takes
/// nothing, and the caller must leave every Python object alone (leak it).
class PythonScope {
 public:
  PythonScope();
  ~PythonScope();
  PythonScope(const PythonScope&) = delete;
  PythonScope& operator=(const PythonScope&) = delete;

  bool admitted() const { return admitted_; }

 private:
  bool admitted_ = false;
  PyGILState_STATE gil_{};
};

/// Refuses every later PythonScope and waits until the open ones have ended (at most 10 s, so
/// a callback stuck in user code cannot hang the exit). Idempotent. Called at interpreter exit
/// (fluss._connection._close_all, an atexit handler, which runs before finalization starts),
/// with the GIL released: the open scopes may be waiting for it.
void ClosePythonGate();

}  // namespace fluss::py

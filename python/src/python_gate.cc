// The gate of python_gate.h: a count of open scopes and a closed flag under one mutex.
#include "python_gate.h"

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace fluss::py {

namespace {

struct Gate {
  std::mutex mu;
  std::condition_variable idle;
  int open = 0;         // guarded by mu: scopes admitted and not ended
  bool closed = false;  // guarded by mu
};

// Leaked on purpose: threads may still consult it while static destructors run.
Gate& TheGate() {
  static Gate* g = new Gate();
  return *g;
}

}  // namespace

PythonScope::PythonScope() {
  Gate& g = TheGate();
  {
    std::lock_guard<std::mutex> lock(g.mu);
    if (g.closed || !Py_IsInitialized() || _Py_IsFinalizing()) return;
    ++g.open;
  }
  admitted_ = true;
  gil_ = PyGILState_Ensure();
}

PythonScope::~PythonScope() {
  if (!admitted_) return;
  PyGILState_Release(gil_);
  Gate& g = TheGate();
  std::lock_guard<std::mutex> lock(g.mu);
  if (--g.open == 0) g.idle.notify_all();
}

void ClosePythonGate() {
  Gate& g = TheGate();
  std::unique_lock<std::mutex> lock(g.mu);
  g.closed = true;
  g.idle.wait_for(lock, std::chrono::seconds(10), [&] { return g.open == 0; });
}

}  // namespace fluss::py

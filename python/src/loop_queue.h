// LoopQueue: hands items from the client's I/O thread to one asyncio event loop in batches, with
// one GIL acquisition and one loop wake-up per batch, not per item. Used for awaited operations
// (CompletionInbox, bridge.h) and for lookups (lookups.cc).
//
// Thread affinity: Push runs on any thread, with or without the GIL (it takes the GIL only to
// wake the loop); Take runs on the loop's thread with the GIL held.
#pragma once

#include <nanobind/nanobind.h>

#include <Python.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "python_gate.h"

namespace fluss::py {

namespace nb = nanobind;

template <typename Item>
class LoopQueue {
 public:
  /// `wake`: a Python callable (called with the GIL held, from any thread) that schedules a
  /// Take on the loop's thread thread-safely, e.g. through loop.call_soon_threadsafe. It raises
  /// RuntimeError once the loop is closed: the items waiting then are dropped, since nobody
  /// waits for them any more.
  explicit LoopQueue(nb::object wake) : wake_(wake.release().ptr()) {}
  ~LoopQueue() {
    // Leaked when the interpreter is going away (python_gate.h).
    PythonScope py;
    if (!py.admitted()) return;
    items_.clear();
    Py_DECREF(wake_);
  }
  LoopQueue(const LoopQueue&) = delete;
  LoopQueue& operator=(const LoopQueue&) = delete;

  /// Queues `item`; the first Push after a Take wakes the loop. Any thread.
  void Push(Item item) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      items_.push_back(std::move(item));
      if (scheduled_) return;
      scheduled_ = true;
      ++wakes_;
    }
    PythonScope py;
    if (!py.admitted()) return;  // the interpreter is going away: nobody will take them
    if (PyObject* r = PyObject_CallNoArgs(wake_)) {
      Py_DECREF(r);
      return;
    }
    // RuntimeError: the loop is closed. Anything else is a bug in `wake`: report it.
    if (!PyErr_ExceptionMatches(PyExc_RuntimeError)) PyErr_WriteUnraisable(wake_);
    PyErr_Clear();
    std::vector<Item> dropped;
    {
      std::lock_guard<std::mutex> lock(mu_);
      dropped.swap(items_);
      scheduled_ = false;
    }
    // `dropped` is destroyed here, GIL held: items may own Python references.
  }

  /// The items pushed since the previous Take, in push order. The flag is reset in the same
  /// critical section that empties the queue, so an item pushed after it schedules the next
  /// Take: none is left behind. Loop thread, GIL held.
  std::vector<Item> Take() {
    std::vector<Item> items;
    std::lock_guard<std::mutex> lock(mu_);
    items.swap(items_);
    scheduled_ = false;
    return items;
  }

  /// Items waiting for a Take (for tests and repr). Any thread.
  size_t pending() const {
    std::lock_guard<std::mutex> lock(mu_);
    return items_.size();
  }
  /// How many times Push has woken the loop (one per batch). Any thread.
  uint64_t wakes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return wakes_;
  }

 private:
  PyObject* wake_;  // owned reference
  mutable std::mutex mu_;
  std::vector<Item> items_;  // guarded by mu_
  bool scheduled_ = false;   // guarded by mu_: a Take is scheduled and has not run yet
  uint64_t wakes_ = 0;       // guarded by mu_
};

}  // namespace fluss::py

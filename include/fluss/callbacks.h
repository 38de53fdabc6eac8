// Callback types of the asynchronous API and the blocking helpers over it.
//
// Threading: every object of the API is thread-safe. Methods ending in `Async` never block; they
// call their callback exactly once, on the connection's I/O thread, so callbacks must be quick
// and must not call blocking methods of this API. Blocking helpers (`Wait`, `Await`) must not
// be called from a callback.
#pragma once

#include <functional>
#include "fluss/status.h"

namespace fluss {

template <typename T>
using Callback = std::function<void(Result<T>)>;
using StatusCallback = std::function<void(Status)>;

/// Runs `start(callback)` and blocks the calling thread until the callback delivers a result.
template <typename T, typename Start>
Result<T> Await(Start&& start);
/// Same for operations that deliver only a Status.
template <typename Start>
Status AwaitStatus(Start&& start);

}  // namespace fluss

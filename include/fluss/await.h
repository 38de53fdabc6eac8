// Blocking helpers over the callback API (see client.h).
#pragma once

#include <future>
#include <memory>

#include "fluss/status.h"

namespace fluss {

template <typename T, typename Start>
Result<T> Await(Start&& start) {
  auto promise = std::make_shared<std::promise<Result<T>>>();
  auto future = promise->get_future();
  start([promise](Result<T> r) { promise->set_value(std::move(r)); });
  return future.get();
}

template <typename Start>
Status AwaitStatus(Start&& start) {
  auto promise = std::make_shared<std::promise<Status>>();
  auto future = promise->get_future();
  start([promise](Status s) { promise->set_value(std::move(s)); });
  return future.get();
}

}  // namespace fluss

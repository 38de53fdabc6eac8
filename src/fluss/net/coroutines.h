// Coroutine helpers on an io_context: run several operations concurrently and join them, or
// start one now and join it later.
//
// Thread affinity: I/O thread only (the io_context's thread).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <asio.hpp>

#include "fluss/status.h"

namespace fluss::net {

template <typename T>
struct GatherState {
  explicit GatherState(asio::io_context& io, size_t n) : timer(io), results(n), remaining(n) {}
  asio::steady_timer timer;
  std::vector<std::optional<Result<T>>> results;
  size_t remaining;
};

template <typename T>
asio::awaitable<void> GatherOne(asio::awaitable<Result<T>> op, std::shared_ptr<GatherState<T>> st, size_t i) {
  try {
    st->results[i].emplace(co_await std::move(op));
  } catch (const std::exception& e) {
    st->results[i].emplace(Status::Internal(std::string("unexpected exception in the client: ") + e.what()));
  }
  if (--st->remaining == 0) st->timer.cancel();
}

/// An operation started now and joined later (e.g. the next fetch while this one is decoded).
template <typename T>
struct Deferred {
  std::shared_ptr<GatherState<T>> state;
};

template <typename T>
Deferred<T> StartDeferred(asio::io_context& io, asio::awaitable<Result<T>> op) {
  auto st = std::make_shared<GatherState<T>>(io, 1);
  asio::co_spawn(io, GatherOne<T>(std::move(op), st, 0), asio::detached);
  return Deferred<T>{st};
}

template <typename T>
asio::awaitable<Result<T>> Join(Deferred<T> d) {
  while (d.state->remaining > 0) {
    asio::error_code ec;
    d.state->timer.expires_at(asio::steady_timer::time_point::max());
    co_await d.state->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  }
  co_return std::move(*d.state->results[0]);
}

/// Runs `ops` concurrently on `io` and returns their results in order once all are done.
template <typename T>
asio::awaitable<std::vector<Result<T>>> WhenAll(asio::io_context& io, std::vector<asio::awaitable<Result<T>>> ops) {
  auto st = std::make_shared<GatherState<T>>(io, ops.size());
  st->timer.expires_at(asio::steady_timer::time_point::max());
  for (size_t i = 0; i < ops.size(); ++i) asio::co_spawn(io, GatherOne<T>(std::move(ops[i]), st, i), asio::detached);
  // co_spawn may run an op inline; the loop re-checks before every wait (one thread, no race).
  while (st->remaining > 0) {
    asio::error_code ec;
    st->timer.expires_at(asio::steady_timer::time_point::max());
    co_await st->timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  }
  std::vector<Result<T>> out;
  for (auto& r : st->results) out.push_back(std::move(*r));
  co_return out;
}

}  // namespace fluss::net

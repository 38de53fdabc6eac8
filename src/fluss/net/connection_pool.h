// The server connections of one client connection, keyed by role and id ("cs-1", "ts-3",
// "bootstrap-0": coordinator and tablet server ids may collide, so the role is part of the key).
//
// Thread affinity: I/O thread only.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "fluss/net/server_connection.h"
#include "fluss/util/metric_counters.h"

namespace fluss::net {

class ConnectionPool {
 public:
  /// Every connection made is bounded by the two timeouts (ServerConnection) and authenticates
  /// as `auth` says; `metrics` (may be null) counts their requests.
  ConnectionPool(asio::io_context& io, int64_t connect_timeout_ms, int64_t handshake_timeout_ms,
                 std::shared_ptr<const Authentication> auth, std::shared_ptr<util::MetricCounters> metrics = nullptr)
      : io_(io),
        connect_timeout_ms_(connect_timeout_ms),
        handshake_timeout_ms_(handshake_timeout_ms),
        auth_(std::move(auth)),
        metrics_(std::move(metrics)) {}

  /// The connection for `key`, made on first use; replaced when the server moved to another
  /// address. After CloseAll, a new closed connection (its requests fail with kClosed).
  std::shared_ptr<ServerConnection> Get(const std::string& key, const ServerEndpoint& ep);
  /// Closes every connection (pending requests fail with kClosed); later Gets return closed ones.
  void CloseAll();

 private:
  asio::io_context& io_;
  const int64_t connect_timeout_ms_;
  const int64_t handshake_timeout_ms_;
  const std::shared_ptr<const Authentication> auth_;
  const std::shared_ptr<util::MetricCounters> metrics_;
  bool closed_ = false;
  std::map<std::string, std::shared_ptr<ServerConnection>> connections_;
};

}  // namespace fluss::net

#include "fluss/net/connection_pool.h"

namespace fluss::net {

std::shared_ptr<ServerConnection> ConnectionPool::Get(const std::string& key, const ServerEndpoint& ep) {
  auto it = connections_.find(key);
  if (it != connections_.end()) {
    const auto& cur = it->second->endpoint();
    if (cur.host == ep.host && cur.port == ep.port) return it->second;
    it->second->Close();
  }
  auto conn = std::make_shared<ServerConnection>(io_, ep, connect_timeout_ms_, handshake_timeout_ms_, auth_, metrics_);
  if (closed_) {
    conn->Close();  // closing: requests on it fail at once with kClosed
    return conn;
  }
  connections_[key] = conn;
  return conn;
}

void ConnectionPool::CloseAll() {
  closed_ = true;
  for (auto& [k, c] : connections_) c->Close();
  connections_.clear();
}

}  // namespace fluss::net

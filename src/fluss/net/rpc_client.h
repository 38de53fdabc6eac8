// Typed request/response calls over server connections, bounded by client.request-timeout.
//
// Thread affinity: I/O thread only (every method returns an awaitable run there).
#pragma once

#include <memory>
#include <string>

#include <asio.hpp>
#include <google/protobuf/message_lite.h>

#include "fluss/net/server_connection.h"
#include "fluss/protocol/api_keys.h"
#include "fluss/protocol/frame.h"

namespace fluss::net {

class RpcClient {
 public:
  /// `request_timeout_ms`: client.request-timeout, the bound of every call.
  explicit RpcClient(int64_t request_timeout_ms) : request_timeout_ms_(request_timeout_ms) {}

  /// Sends `req` as `key` on `conn` and parses the response as Resp. Fails as
  /// ServerConnection::Send does, or with kProtocol naming the server for an unparsable response
  /// (the connection stays: its frames are intact). `timeout_ms` > 0 bounds this call instead of
  /// client.request-timeout (a fetch the server may hold for its max_wait_ms takes longer).
  template <typename Resp>
  asio::awaitable<Result<Resp>> Call(std::shared_ptr<ServerConnection> conn, protocol::ApiKey key,
                                     const google::protobuf::MessageLite& req, int64_t timeout_ms = 0);

  /// Sends `req` as `key` on `conn` and returns the response body unparsed (for the responses
  /// read by hand); fails and times out as Call.
  asio::awaitable<Result<ResponseBody>> CallForBody(std::shared_ptr<ServerConnection> conn, protocol::ApiKey key,
                                                    const google::protobuf::MessageLite& req, int64_t timeout_ms = 0);

  /// Sends a serialised request (`frame` starts with protocol::kRequestPrefixSize reserved
  /// bytes) and returns the raw response body; `timeout_ms` as for Call.
  asio::awaitable<Result<ResponseBody>> Send(std::shared_ptr<ServerConnection> conn, protocol::ApiKey key,
                                             std::string frame, int64_t timeout_ms = 0);
  /// Sends a frame in pieces (record batches borrowed, not copied).
  asio::awaitable<Result<ResponseBody>> SendFrame(std::shared_ptr<ServerConnection> conn, protocol::ApiKey key,
                                                  OutgoingFrame frame);

 private:
  const int64_t request_timeout_ms_;
};

template <typename Resp>
asio::awaitable<Result<Resp>> RpcClient::Call(std::shared_ptr<ServerConnection> conn, protocol::ApiKey key,
                                              const google::protobuf::MessageLite& req, int64_t timeout_ms) {
  const std::string server = conn->endpoint().ToString();
  auto body = co_await CallForBody(std::move(conn), key, req, timeout_ms);
  if (!body.ok()) co_return body.status();
  Resp resp;
  if (!resp.ParseFromArray(body->data, static_cast<int>(body->size)))
    co_return Status::Protocol(std::string("malformed ") + protocol::ApiKeyName(key) + " response from " + server);
  co_return resp;
}

}  // namespace fluss::net

#include "fluss/net/rpc_client.h"

namespace fluss::net {

namespace {

// Awaits ServerConnection::Send for either frame kind. The initiation takes its state as
// arguments, not captures: GCC 12 releases a shared_ptr captured by an initiation lambda of
// use_awaitable twice.
template <typename Frame>
asio::awaitable<Result<ResponseBody>> AwaitSend(std::shared_ptr<ServerConnection> conn, protocol::ApiKey key,
                                                Frame frame, int64_t timeout_ms) {
  auto r = co_await asio::async_initiate<const asio::use_awaitable_t<>, void(Result<ResponseBody>)>(
      [](auto handler, std::shared_ptr<ServerConnection> c, protocol::ApiKey k, Frame f, int64_t timeout) {
        auto h = std::make_shared<decltype(handler)>(std::move(handler));
        c->Send(k, std::move(f), timeout, [h](Result<ResponseBody> res) { (*h)(std::move(res)); });
      },
      asio::use_awaitable, std::move(conn), key, std::move(frame), timeout_ms);
  co_return r;
}

}  // namespace

asio::awaitable<Result<ResponseBody>> RpcClient::CallForBody(std::shared_ptr<ServerConnection> conn, protocol::ApiKey key,
                                                             const google::protobuf::MessageLite& req, int64_t timeout_ms) {
  std::string frame(protocol::kRequestPrefixSize, '\0');
  req.AppendToString(&frame);
  co_return co_await Send(std::move(conn), key, std::move(frame), timeout_ms);
}

asio::awaitable<Result<ResponseBody>> RpcClient::Send(std::shared_ptr<ServerConnection> conn, protocol::ApiKey key,
                                                      std::string frame, int64_t timeout_ms) {
  co_return co_await AwaitSend<std::string>(std::move(conn), key, std::move(frame),
                                            timeout_ms > 0 ? timeout_ms : request_timeout_ms_);
}

asio::awaitable<Result<ResponseBody>> RpcClient::SendFrame(std::shared_ptr<ServerConnection> conn,
                                                           protocol::ApiKey key, OutgoingFrame frame) {
  co_return co_await AwaitSend<OutgoingFrame>(std::move(conn), key, std::move(frame), request_timeout_ms_);
}

}  // namespace fluss::net

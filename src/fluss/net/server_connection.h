// One TCP connection to one Fluss server, multiplexing requests by request id.
//
// Thread affinity: every method runs on the connection's I/O thread (the io_context of the
// owning Connection). Callbacks are invoked on that thread.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <asio.hpp>

#include "fluss/net/authentication.h"
#include "fluss/protocol/api_keys.h"
#include "fluss/protocol/fetch_log_placement.h"
#include "fluss/status.h"
#include "fluss/util/metric_counters.h"

namespace fluss::net {

/// Where a server listens and what role the client expects it to have.
struct ServerEndpoint {
  std::string host;
  int32_t port = 0;
  int32_t node_id = -1;  ///< -1 for a bootstrap address (role unknown)
  std::string ToString() const { return host + ":" + std::to_string(port); }
};

/// The payload of a successful response: `data` (`size` bytes of XxxResponse protobuf) is a
/// view into `frame`, which the holder owns (shared) and may rewrite in place (FetchLog's
/// records are aligned there, protocol/fetch_log_response.h).
struct ResponseBody {
  std::shared_ptr<uint8_t[]> frame;
  uint8_t* data = nullptr;
  size_t size = 0;
  /// A FetchLogResponse's records put in place as it was received, for ParseFetchLogResponse.
  std::vector<protocol::PlacedRecords> placed_records;

  /// A body holding a copy of `bytes` (for a response's bytes from elsewhere: tests, fuzzing).
  static ResponseBody Copy(std::string_view bytes) {
    ResponseBody b;
    b.frame = std::make_shared_for_overwrite<uint8_t[]>(bytes.size());
    b.data = b.frame.get();
    b.size = bytes.size();
    if (!bytes.empty()) std::memcpy(b.data, bytes.data(), bytes.size());
    return b;
  }
};

using ResponseCallback = std::function<void(Result<ResponseBody>)>;

/// A request frame to send: `head` starts with protocol::kRequestPrefixSize reserved bytes
/// (filled when sent) and `tail` are bytes written after it without being copied (record
/// batches), each kept alive by its owner until written.
struct OutgoingFrame {
  struct Piece {
    std::shared_ptr<const void> owner;
    const void* data = nullptr;
    size_t size = 0;
  };
  std::string head;
  std::vector<Piece> tail;
  size_t size() const {
    size_t n = head.size();
    for (const auto& p : tail) n += p.size;
    return n;
  }
};

class ServerConnection : public std::enable_shared_from_this<ServerConnection> {
 public:
  /// `connect_timeout_ms` bounds the whole handshake (TCP connect, ApiVersions and, when
  /// `auth` says SASL, the authentication with its retries); `handshake_timeout_ms` each answer
  /// of the handshake (ApiVersions, AUTHENTICATE). `metrics` (may be null) counts the answered
  /// requests and their latency.
  ServerConnection(asio::io_context& io, ServerEndpoint endpoint, int64_t connect_timeout_ms,
                   int64_t handshake_timeout_ms, std::shared_ptr<const Authentication> auth,
                   std::shared_ptr<util::MetricCounters> metrics = nullptr);
  ~ServerConnection();

  /// Sends a request frame as api `key` and calls `done` exactly once: with the
  /// response body, with Status::Server for an ERROR_RESPONSE, with kNetwork if the connection
  /// fails, with kUnsupported if the server does not serve `key`, or with kTimeout after
  /// `timeout_ms`. Connects (TCP, ApiVersions, then SASL authentication when configured) on
  /// first use and after a disconnect; a failed authentication fails every queued request with
  /// its error (46 AUTHENTICATE_EXCEPTION for wrong credentials) and the next Send tries anew.
  /// `frame` holds protocol::kRequestPrefixSize reserved bytes followed by the serialised
  /// XxxRequest; the prefix is filled here.
  void Send(protocol::ApiKey key, std::string frame, int64_t timeout_ms, ResponseCallback done);
  /// Same, for a frame in pieces (zero-copy record batches).
  void Send(protocol::ApiKey key, OutgoingFrame frame, int64_t timeout_ms, ResponseCallback done);

  /// Closes the socket and fails every pending request with kClosed.
  void Close();

  const ServerEndpoint& endpoint() const { return endpoint_; }

 private:
  enum class State { kDisconnected, kConnecting, kReady, kClosed };
  struct Pending {
    ResponseCallback done;
    std::unique_ptr<asio::steady_timer> timer;
    protocol::ApiKey key;
    std::chrono::steady_clock::time_point sent;  // for the request latency metric
  };
  struct Queued {
    protocol::ApiKey key;
    OutgoingFrame frame;
    int64_t timeout_ms;
    ResponseCallback done;
  };

  void Connect();
  void OnConnected();
  void OnApiVersions(Result<ResponseBody> r);
  void SendHandshake(protocol::ApiKey key, std::string frame, ResponseCallback on_answer);
  void Authenticate();
  void OnAuthenticate(Result<ResponseBody> r);
  void BecomeReady();
  void Dispatch(Queued q);
  void WriteFrame(protocol::ApiKey key, int16_t version, int32_t request_id, OutgoingFrame frame);
  void StartWrite();
  /// The response frame being read (one at a time): its bytes after the length, and for a
  /// FetchLog answer the placement of its records (protocol/fetch_log_placement.h).
  struct Incoming {
    std::shared_ptr<uint8_t[]> frame;
    size_t size = 0;
    size_t have = 0;
    bool header_read = false;  // type and request id seen: `placement` is decided
    std::unique_ptr<protocol::FetchLogPlacement> placement;
  };

  void StartRead();
  /// Reads more of incoming_ (I/O thread).
  void ReadFrame(uint64_t gen);
  /// Once the response header is in: a FetchLog answer gets a placement (I/O thread).
  void OnResponseHeader();
  void SetReceiveLowWatermark(size_t remaining);
  void OnFrame(std::shared_ptr<uint8_t[]> frame, size_t size, std::vector<protocol::PlacedRecords> placed);
  void Fail(const Status& st);

  asio::io_context& io_;
  ServerEndpoint endpoint_;
  int64_t connect_timeout_ms_;
  int64_t handshake_timeout_ms_;
  std::shared_ptr<const Authentication> auth_;
  asio::ip::tcp::socket socket_;
  asio::ip::tcp::resolver resolver_;
  asio::steady_timer connect_timer_;
  asio::steady_timer auth_retry_timer_;  // the wait before AUTHENTICATE is sent again after 51
  int auth_attempt_ = 0;                 // answers 51 seen in this handshake
  bool authenticating_ = false;          // AUTHENTICATE sent, READY not reached yet
  State state_ = State::kDisconnected;
  uint64_t generation_ = 0;  // bumps on every (re)connect so stale handlers can tell
  int32_t next_request_id_ = 0;
  std::unordered_map<int32_t, Pending> pending_;
  std::deque<Queued> queued_;  // requests waiting for the connection to be ready
  std::map<int16_t, std::pair<int16_t, int16_t>> api_versions_;  // key -> (min, max)
  std::deque<OutgoingFrame> write_queue_;
  std::vector<OutgoingFrame> in_write_;  // frames owned by the async_write in progress
  bool writing_ = false;
  uint8_t length_buf_[4];
  const std::shared_ptr<util::MetricCounters> metrics_;
  Incoming incoming_;
  int receive_low_watermark_ = 1;  // the socket's SO_RCVLOWAT (bytes)
};

}  // namespace fluss::net

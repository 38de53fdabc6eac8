#include "fluss/net/server_connection.h"

#include <sys/socket.h>

#include <algorithm>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/authenticate.h"
#include "fluss/protocol/errors.h"
#include "fluss/protocol/frame.h"
#include "fluss/util/bytes.h"
#include "fluss/util/huge_pages.h"
#include "fluss/util/log.h"

namespace fluss::net {

using protocol::ApiKey;

namespace {

constexpr int32_t kMaxResponseFrame = 1 << 30;  // 1 GiB: larger means a corrupt stream
// The rest of a response frame at least this large is awaited with SO_RCVLOWAT (bytes), in
// steps of at most kLowWatermarkCap bytes (see SetReceiveLowWatermark).
constexpr size_t kLowWatermarkFrom = 64 * 1024;
constexpr size_t kLowWatermarkCap = 512 * 1024;
// A success response: int8 type, int32 request id, then the body (protocol/frame.h).
constexpr size_t kResponseHeaderSize = 5;
// Frames from this size have their response header read first, so that a FetchLog answer's
// records are placed as they arrive (protocol/fetch_log_placement.h).
constexpr size_t kPlaceRecordsFrom = 64 * 1024;

/// A buffer for a response frame of `size` bytes, not zero-filled (every byte is read into it).
/// A large one (a FetchLog answer, whose records the scan keeps) is huge-page memory.
std::shared_ptr<uint8_t[]> NewFrame(size_t size) {
  if (size > util::huge_pages::kSliceMax) {
    if (uint8_t* p = util::huge_pages::Allocate(size))
      return std::shared_ptr<uint8_t[]>(p, [size](uint8_t* q) { util::huge_pages::Free(q, size); });
  }
  return std::make_shared_for_overwrite<uint8_t[]>(size);
}

}  // namespace

ServerConnection::ServerConnection(asio::io_context& io, ServerEndpoint endpoint,
                                   int64_t connect_timeout_ms, int64_t handshake_timeout_ms,
                                   std::shared_ptr<const Authentication> auth,
                                   std::shared_ptr<util::MetricCounters> metrics)
    : io_(io),
      endpoint_(std::move(endpoint)),
      connect_timeout_ms_(connect_timeout_ms),
      handshake_timeout_ms_(handshake_timeout_ms),
      auth_(auth ? std::move(auth) : std::make_shared<const Authentication>()),
      socket_(io),
      resolver_(io),
      connect_timer_(io),
      auth_retry_timer_(io),
      metrics_(std::move(metrics)) {}

ServerConnection::~ServerConnection() {
  asio::error_code ec;
  socket_.close(ec);
}

void ServerConnection::Send(ApiKey key, std::string frame, int64_t timeout_ms, ResponseCallback done) {
  OutgoingFrame f;
  f.head = std::move(frame);
  Send(key, std::move(f), timeout_ms, std::move(done));
}

void ServerConnection::Send(ApiKey key, OutgoingFrame frame, int64_t timeout_ms, ResponseCallback done) {
  if (state_ == State::kClosed) {
    done(Status::Closed("connection to " + endpoint_.ToString() + " is closed"));
    return;
  }
  Queued q{key, std::move(frame), timeout_ms, std::move(done)};
  if (state_ == State::kReady) {
    Dispatch(std::move(q));
    return;
  }
  queued_.push_back(std::move(q));
  if (state_ == State::kDisconnected) Connect();
}

void ServerConnection::Connect() {
  state_ = State::kConnecting;
  const uint64_t gen = ++generation_;
  receive_low_watermark_ = 1;  // a new socket
  auto self = shared_from_this();
  connect_timer_.expires_after(std::chrono::milliseconds(connect_timeout_ms_));
  connect_timer_.async_wait([this, self, gen](const asio::error_code& ec) {
    if (ec || gen != generation_ || state_ != State::kConnecting) return;
    Fail(Status::Network((authenticating_ ? "authenticating to " : "connecting to ") + endpoint_.ToString() +
                         " timed out after " + std::to_string(connect_timeout_ms_) + " ms (client.connect-timeout)"));
  });
  resolver_.async_resolve(
      endpoint_.host, std::to_string(endpoint_.port),
      [this, self, gen](const asio::error_code& ec, asio::ip::tcp::resolver::results_type results) {
        if (gen != generation_ || state_ != State::kConnecting) return;
        if (ec) {
          Fail(Status::Network("cannot resolve " + endpoint_.ToString() + ": " + ec.message()));
          return;
        }
        asio::async_connect(socket_, results,
                            [this, self, gen](const asio::error_code& ec2, const asio::ip::tcp::endpoint&) {
                              if (gen != generation_ || state_ != State::kConnecting) return;
                              if (ec2) {
                                Fail(Status::Network("cannot connect to Fluss server at " +
                                                     endpoint_.ToString() + ": " + ec2.message()));
                                return;
                              }
                              OnConnected();
                            });
      });
}

void ServerConnection::OnConnected() {
  asio::error_code ec;
  socket_.set_option(asio::ip::tcp::no_delay(true), ec);
  socket_.set_option(asio::socket_base::keep_alive(true), ec);
  StartRead();
  // ApiVersions first: it tells which APIs this server serves (an unserved key is dropped
  // silently by the server, so it must never be sent).
  proto::ApiVersionsRequest req;
  req.set_client_software_name("fluss-cpp");
  req.set_client_software_version("0.1.0");
  std::string frame(protocol::kRequestPrefixSize, '\0');
  req.AppendToString(&frame);
  auto self = shared_from_this();
  SendHandshake(ApiKey::API_VERSIONS, std::move(frame), [this, self](Result<ResponseBody> r) { OnApiVersions(std::move(r)); });
}

void ServerConnection::SendHandshake(ApiKey key, std::string frame, ResponseCallback on_answer) {
  const int32_t id = next_request_id_++ & 0x7FFFFFFF;
  auto self = shared_from_this();
  Pending p;
  p.key = key;
  p.done = std::move(on_answer);
  p.timer = std::make_unique<asio::steady_timer>(io_);
  // Each handshake answer is bounded like any request (a listener that never answers must not
  // hold the connection for the whole connect timeout).
  p.timer->expires_after(std::chrono::milliseconds(std::min(connect_timeout_ms_, handshake_timeout_ms_)));
  const uint64_t gen = generation_;
  p.timer->async_wait([this, self, key, gen](const asio::error_code& e) {
    if (e || gen != generation_) return;
    Fail(Status::Timeout(std::string("no ") + protocol::ApiKeyName(key) + " answer from " + endpoint_.ToString()));
  });
  pending_.emplace(id, std::move(p));
  OutgoingFrame out;
  out.head = std::move(frame);
  // Handshake requests go at version 0, the only one of API_VERSIONS and AUTHENTICATE.
  WriteFrame(key, 0, id, std::move(out));
}

void ServerConnection::OnApiVersions(Result<ResponseBody> r) {
  if (!r.ok()) {
    if (state_ == State::kConnecting) Fail(r.status());
    return;
  }
  proto::ApiVersionsResponse resp;
  if (!resp.ParseFromArray(r->data, static_cast<int>(r->size))) {
    Fail(Status::Protocol("malformed ApiVersions response from " + endpoint_.ToString()));
    return;
  }
  api_versions_.clear();
  for (const auto& v : resp.api_versions())
    api_versions_[static_cast<int16_t>(v.api_key())] = {static_cast<int16_t>(v.min_version()),
                                                        static_cast<int16_t>(v.max_version())};
  if (auth_->sasl) {
    auth_attempt_ = 0;
    Authenticate();
    return;
  }
  BecomeReady();
}

void ServerConnection::Authenticate() {
  // SASL/PLAIN (protocol-rpc.md 10.1): one AUTHENTICATE carrying the credentials; nothing else
  // is sent on this connection before the server accepts them (queued_ waits for READY).
  if (!api_versions_.count(static_cast<int16_t>(ApiKey::AUTHENTICATE))) {
    Fail(Status::Unsupported("server " + endpoint_.ToString() +
                             " does not serve AUTHENTICATE: it cannot authenticate SASL clients"));
    return;
  }
  authenticating_ = true;
  auto self = shared_from_this();
  SendHandshake(ApiKey::AUTHENTICATE, SaslPlainAuthenticateFrame(*auth_),
                [this, self](Result<ResponseBody> r) { OnAuthenticate(std::move(r)); });
}

void ServerConnection::OnAuthenticate(Result<ResponseBody> r) {
  if (state_ != State::kConnecting) return;  // failed or closed meanwhile (Fail ran)
  if (!r.ok()) {
    if (r.status().code() == StatusCode::kServer &&
        r.status().error_code() == protocol::RETRIABLE_AUTHENTICATE_EXCEPTION) {
      // The server re-initialised its authenticator: send the credentials again after a
      // backoff, within the connect timeout (connect_timer_ still runs).
      auto self = shared_from_this();
      const uint64_t gen = generation_;
      auth_retry_timer_.expires_after(AuthenticateRetryBackoff(auth_attempt_++));
      auth_retry_timer_.async_wait([this, self, gen](const asio::error_code& ec) {
        if (ec || gen != generation_ || state_ != State::kConnecting) return;
        Authenticate();
      });
      return;
    }
    Fail(r.status().code() == StatusCode::kServer ? AuthenticationFailure(*auth_, endpoint_.ToString(), r.status())
                                                  : r.status());
    return;
  }
  // Success is the answer itself; its challenge (present and empty) needs no reply, as the
  // Java client's PLAIN SASL client is complete after its initial response.
  auto challenge = protocol::ParseAuthenticateResponse(reinterpret_cast<const char*>(r->data), r->size);
  if (!challenge.ok()) {
    Fail(challenge.status().WithContext(endpoint_.ToString()));
    return;
  }
  BecomeReady();
}

void ServerConnection::BecomeReady() {
  FLUSS_LOG(kInfo, "connected to " + endpoint_.ToString());
  connect_timer_.cancel();
  authenticating_ = false;
  state_ = State::kReady;
  auto queued = std::move(queued_);
  queued_.clear();
  for (auto& q : queued) Dispatch(std::move(q));
}

void ServerConnection::Dispatch(Queued q) {
  auto it = api_versions_.find(static_cast<int16_t>(q.key));
  const int16_t client_max = protocol::ClientMaxVersion(q.key);
  if (it == api_versions_.end() || it->second.first > client_max) {
    q.done(Status::Unsupported(std::string("server ") + endpoint_.ToString() + " does not serve " +
                               protocol::ApiKeyName(q.key) + " at a version this client speaks"));
    return;
  }
  const int16_t version = std::min<int16_t>(client_max, it->second.second);
  const int32_t id = next_request_id_++ & 0x7FFFFFFF;
  Pending p;
  p.key = q.key;
  p.done = std::move(q.done);
  p.sent = std::chrono::steady_clock::now();
  p.timer = std::make_unique<asio::steady_timer>(io_);
  p.timer->expires_after(std::chrono::milliseconds(q.timeout_ms));
  auto self = shared_from_this();
  const int64_t timeout_ms = q.timeout_ms;
  p.timer->async_wait([this, self, id, timeout_ms](const asio::error_code& ec) {
    if (ec) return;
    auto pit = pending_.find(id);
    if (pit == pending_.end()) return;
    auto done = std::move(pit->second.done);
    const ApiKey key = pit->second.key;
    pending_.erase(pit);
    done(Status::Timeout(std::string(protocol::ApiKeyName(key)) + " to " + endpoint_.ToString() +
                         " got no answer within " + std::to_string(timeout_ms) +
                         " ms (client.request-timeout)"));
  });
  pending_.emplace(id, std::move(p));
  WriteFrame(q.key, version, id, std::move(q.frame));
}

void ServerConnection::WriteFrame(ApiKey key, int16_t version, int32_t request_id, OutgoingFrame frame) {
  protocol::EncodeRequestPrefix(reinterpret_cast<uint8_t*>(frame.head.data()), key, version, request_id,
                                frame.size() - protocol::kRequestPrefixSize);
  write_queue_.push_back(std::move(frame));
  if (!writing_) StartWrite();
}

void ServerConnection::StartWrite() {
  if (write_queue_.empty() || !socket_.is_open()) {
    writing_ = false;
    return;
  }
  writing_ = true;
  in_write_.clear();
  std::vector<asio::const_buffer> bufs;
  while (!write_queue_.empty() && in_write_.size() < 64) {
    in_write_.push_back(std::move(write_queue_.front()));
    write_queue_.pop_front();
  }
  for (const auto& f : in_write_) {
    bufs.emplace_back(asio::buffer(f.head));
    for (const auto& piece : f.tail) bufs.emplace_back(asio::buffer(piece.data, piece.size));
  }
  auto self = shared_from_this();
  const uint64_t gen = generation_;
  asio::async_write(socket_, bufs, [this, self, gen](const asio::error_code& ec, size_t) {
    if (gen != generation_) return;
    if (ec) {
      Fail(Status::Network("writing to " + endpoint_.ToString() + " failed: " + ec.message()));
      return;
    }
    StartWrite();
  });
}

void ServerConnection::StartRead() {
  auto self = shared_from_this();
  const uint64_t gen = generation_;
  asio::async_read(socket_, asio::buffer(length_buf_, 4), [this, self, gen](const asio::error_code& ec, size_t) {
    if (gen != generation_) return;
    if (ec) {
      Fail(Status::Network("connection to " + endpoint_.ToString() + " lost: " + ec.message()));
      return;
    }
    const int32_t len = static_cast<int32_t>(util::GetBe32(length_buf_));
    if (len <= 0 || len > kMaxResponseFrame) {
      Fail(Status::Network("bad response frame length " + std::to_string(len) + " from " + endpoint_.ToString() +
                           ": is this a Fluss server?"));
      return;
    }
    incoming_ = Incoming{};
    incoming_.frame = NewFrame(static_cast<size_t>(len));
    incoming_.size = static_cast<size_t>(len);
    // Small answers are read whole; only a large one may be a FetchLog worth placing.
    incoming_.header_read = incoming_.size < kPlaceRecordsFrom;
    ReadFrame(gen);
  });
}

void ServerConnection::ReadFrame(uint64_t gen) {
  Incoming& in = incoming_;
  uint8_t* at = in.frame.get() + in.have;
  size_t max = in.size - in.have;
  if (in.placement) {
    in.placement->NextRead(&at, &max);
  } else if (!in.header_read) {
    max = std::min(max, kResponseHeaderSize - in.have);  // the header alone, then decide
  }
  SetReceiveLowWatermark(max);
  auto self = shared_from_this();
  socket_.async_read_some(asio::buffer(at, max), [this, self, gen](const asio::error_code& ec, size_t n) {
    if (gen != generation_) return;
    if (ec) {
      Fail(Status::Network("connection to " + endpoint_.ToString() + " lost: " + ec.message()));
      return;
    }
    Incoming& in = incoming_;
    in.have += n;
    if (in.placement) {
      in.placement->Received(n);
    } else if (!in.header_read && in.have >= kResponseHeaderSize) {
      OnResponseHeader();
    }
    if (in.have < in.size) {
      ReadFrame(gen);
      return;
    }
    SetReceiveLowWatermark(0);
    std::vector<protocol::PlacedRecords> placed;
    if (in.placement) placed = in.placement->Finish();
    Incoming done = std::move(in);
    in = Incoming{};
    OnFrame(std::move(done.frame), done.size, std::move(placed));
    if (gen == generation_ && socket_.is_open()) StartRead();
  });
}

void ServerConnection::OnResponseHeader() {
  Incoming& in = incoming_;
  in.header_read = true;
  if (in.frame[0] != static_cast<uint8_t>(protocol::ResponseType::kSuccess)) return;
  const int32_t request_id = static_cast<int32_t>(util::GetBe32(in.frame.get() + 1));
  auto it = pending_.find(request_id);
  if (it == pending_.end() || it->second.key != protocol::ApiKey::FETCH_LOG) return;
  in.placement = std::make_unique<protocol::FetchLogPlacement>(in.frame.get() + kResponseHeaderSize,
                                                               in.size - kResponseHeaderSize);
  in.placement->Received(in.have - kResponseHeaderSize);
}

void ServerConnection::SetReceiveLowWatermark(size_t remaining) {
  // Why: a large answer (a FetchLog of megabytes) arrives in pieces of ~16-64 KiB on loopback,
  // and waking the I/O thread for each cost ~3,600 wake-ups per 60 MB scanned, 14% of the
  // scan's CPU (perf, issue 11). With SO_RCVLOWAT epoll reports the socket readable only once
  // that many bytes are queued. It never exceeds what is still to come of the frame (more would
  // never arrive); the kernel wakes the reader anyway when its receive buffer fills.
  const int want = remaining >= kLowWatermarkFrom ? static_cast<int>(std::min(remaining, kLowWatermarkCap)) : 1;
  if (want == receive_low_watermark_) return;
  if (::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVLOWAT, &want, sizeof want) == 0)
    receive_low_watermark_ = want;
}

void ServerConnection::OnFrame(std::shared_ptr<uint8_t[]> frame, size_t size, std::vector<protocol::PlacedRecords> placed) {
  auto decoded = protocol::DecodeResponse(frame.get(), size);
  if (!decoded.ok()) {
    Fail(decoded.status().WithContext(endpoint_.ToString()));
    return;
  }
  if (decoded->type == protocol::ResponseType::kServerFailure) {
    proto::ErrorResponse err;
    err.ParseFromArray(decoded->body.data(), static_cast<int>(decoded->body.size()));
    Fail(Status::Server(err.error_code(), "server " + endpoint_.ToString() + " failed the connection: " +
                                              err.error_message()));
    return;
  }
  auto it = pending_.find(decoded->request_id);
  if (it == pending_.end()) return;  // timed out already
  auto done = std::move(it->second.done);
  if (it->second.timer) it->second.timer->cancel();
  if (metrics_ && it->second.sent != std::chrono::steady_clock::time_point{})
    metrics_->AddRequest(std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                                               it->second.sent).count());
  pending_.erase(it);
  if (decoded->type == protocol::ResponseType::kError) {
    proto::ErrorResponse err;
    if (!err.ParseFromArray(decoded->body.data(), static_cast<int>(decoded->body.size()))) {
      done(Status::Protocol("malformed ErrorResponse from " + endpoint_.ToString()));
      return;
    }
    done(protocol::ServerError(err.error_code(), err.has_error_message() ? err.error_message() : std::string()));
    return;
  }
  ResponseBody body;
  // The body is a view into `frame`, which is ours: handed on writable.
  body.data = frame.get() + (reinterpret_cast<const uint8_t*>(decoded->body.data()) - frame.get());
  body.size = decoded->body.size();
  body.frame = std::move(frame);
  body.placed_records = std::move(placed);
  done(std::move(body));
}

void ServerConnection::Fail(const Status& st) {
  // A connection in use that breaks is worth a warning; closing it is routine.
  if (state_ != State::kClosed && state_ != State::kDisconnected) FLUSS_LOG(kWarning, st.message());
  else if (state_ == State::kClosed) FLUSS_LOG(kDebug, st.message());
  ++generation_;
  asio::error_code ec;
  socket_.close(ec);
  connect_timer_.cancel();
  auth_retry_timer_.cancel();
  authenticating_ = false;
  resolver_.cancel();
  if (state_ != State::kClosed) state_ = State::kDisconnected;
  write_queue_.clear();
  writing_ = false;
  auto pending = std::move(pending_);
  pending_.clear();
  auto queued = std::move(queued_);
  queued_.clear();
  for (auto& [id, p] : pending) {
    if (p.timer) p.timer->cancel();
    p.done(st);
  }
  for (auto& q : queued) q.done(st);
}

void ServerConnection::Close() {
  state_ = State::kClosed;
  Fail(Status::Closed("connection to " + endpoint_.ToString() + " closed (the client closed it)"));
}

}  // namespace fluss::net

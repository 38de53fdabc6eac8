#include "fake/fake_cluster.h"

#include <deque>
#include <future>

#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/errors.h"
#include "fluss/protocol/frame.h"
#include "fluss/util/bytes.h"

namespace fluss::fake {

using asio::ip::tcp;
using protocol::ApiKey;

/// One accepted client connection (I/O thread only).
struct FakeCluster::Connection {
  explicit Connection(asio::io_context& io) : socket(io) {}
  tcp::socket socket;
  int32_t server = kCoordinator;
  uint64_t id = 0;
  bool open = true;
  std::deque<std::pair<std::string, bool>> out;  // frames to write, and whether to close after
  bool writing = false;
  uint8_t length[4] = {};
};

/// An answer waiting for Release.
struct FakeCluster::HeldAnswer {
  std::shared_ptr<Connection> conn;
  std::string bytes;
  std::string release;  // released in turn once this one is written
  bool close_after = false;
};

/// A FetchLog that found no data and may wait for some (min_bytes, max_wait_ms).
struct FakeCluster::WaitingFetch {
  explicit WaitingFetch(asio::io_context& io) : timer(io) {}
  std::shared_ptr<Connection> conn;
  int32_t request_id = 0;
  int32_t server = 0;
  std::string body;
  Action action;
  asio::steady_timer timer;
  bool done = false;
};

namespace {

void AppendBe32(std::string* out, uint32_t v) {
  uint8_t b[4];
  util::PutBe32(b, v);
  out->append(reinterpret_cast<const char*>(b), 4);
}

/// A response frame: frame length, type, request id (not for SERVER_FAILURE), body.
std::string Frame(protocol::ResponseType type, int32_t request_id, const std::string& body) {
  std::string f;
  const bool with_id = type != protocol::ResponseType::kServerFailure;
  AppendBe32(&f, static_cast<uint32_t>(1 + (with_id ? 4 : 0) + body.size()));
  f.push_back(static_cast<char>(type));
  if (with_id) AppendBe32(&f, static_cast<uint32_t>(request_id));
  return f + body;
}

std::string ErrorBody(int32_t code, const std::string& message) {
  proto::ErrorResponse e;
  e.set_error_code(code);
  if (!message.empty()) e.set_error_message(message);
  return e.SerializeAsString();
}

std::string MalformedFrame(const Action& a, int32_t request_id) {
  std::string f;
  switch (a.malformed) {
    case MalformedKind::kNegativeLength:
      AppendBe32(&f, 0xFFFFFFFFu);
      return f;
    case MalformedKind::kHugeLength:
      AppendBe32(&f, 0x7FFFFFFFu);
      return f;
    case MalformedKind::kUnknownResponseType:
      AppendBe32(&f, 5);
      f.push_back(7);
      AppendBe32(&f, static_cast<uint32_t>(request_id));
      return f;
    case MalformedKind::kGarbageBody:
      // Eleven 0xFF bytes: a varint tag longer than protobuf allows, so no message parses.
      return Frame(protocol::ResponseType::kSuccess, request_id, std::string(11, '\xff'));
    case MalformedKind::kServerFailure:
      return Frame(protocol::ResponseType::kServerFailure, 0,
                   ErrorBody(a.error_code != 0 ? a.error_code : protocol::UNKNOWN_SERVER_ERROR,
                             a.error_message.empty() ? "fake server failure" : a.error_message));
  }
  return f;
}

/// The frame of a handler's answer, the action's edit applied to a response message.
std::string AnswerFrame(int32_t request_id, Answer& answer, const Action& action) {
  if (!answer.response)
    return Frame(protocol::ResponseType::kError, request_id, ErrorBody(answer.error_code, answer.error_message));
  if (action.edit) action.edit(*answer.response);
  return Frame(protocol::ResponseType::kSuccess, request_id, answer.response->SerializePartialAsString());
}

}  // namespace

FakeCluster::FakeCluster(int tablet_servers) : servers_(tablet_servers) {
  for (int32_t s = kCoordinator; s < tablet_servers; ++s) {
    auto acceptor = std::make_unique<tcp::acceptor>(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    ports_[s] = acceptor->local_endpoint().port();
    servers_.SetPort(s, ports_[s]);
    acceptors_.push_back(std::move(acceptor));
  }
  for (int32_t s = kCoordinator; s < tablet_servers; ++s) Accept(s);
  thread_ = std::thread([this] { io_.run(); });
}

FakeCluster::~FakeCluster() {
  std::promise<void> closed;
  asio::post(io_, [this, &closed] {
    for (auto& a : acceptors_) {
      asio::error_code ec;
      a->close(ec);
    }
    for (auto c : std::set<std::shared_ptr<Connection>>(connections_)) CloseConnection(c);
    for (auto& w : waiting_fetches_) w->timer.cancel();
    waiting_fetches_.clear();
    held_.clear();
    closed.set_value();
  });
  closed.get_future().wait();
  io_.stop();
  thread_.join();
}

std::string FakeCluster::bootstrap() const { return "127.0.0.1:" + std::to_string(port(kCoordinator)); }

int32_t FakeCluster::port(int32_t server) const { return ports_.at(server); }

int64_t FakeCluster::AddTable(const TablePath& path, TableDescriptor descriptor) {
  std::lock_guard<std::mutex> lock(mu_);
  return servers_.AddTable(path, std::move(descriptor));
}

void FakeCluster::SetLeader(int64_t table_id, int32_t bucket, int32_t server) {
  std::lock_guard<std::mutex> lock(mu_);
  servers_.SetLeader(table_id, bucket, server);
}

int32_t FakeCluster::Leader(int64_t table_id, int32_t bucket) const {
  std::lock_guard<std::mutex> lock(mu_);
  return servers_.Leader(table_id, bucket);
}

void FakeCluster::SetScript(Script script) {
  std::lock_guard<std::mutex> lock(mu_);
  script_ = std::move(script);
}

void FakeCluster::Release(const std::string& tag) {
  asio::post(io_, [this, tag] { ReleaseOnIo(tag); });
}

size_t FakeCluster::Held(const std::string& tag) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = held_counts_.find(tag);
  return it == held_counts_.end() ? 0 : it->second;
}

size_t FakeCluster::WaitingFetches() const {
  std::lock_guard<std::mutex> lock(mu_);
  return waiting_count_;
}

void FakeCluster::CloseConnections(int32_t server) {
  asio::post(io_, [this, server] {
    for (auto c : std::set<std::shared_ptr<Connection>>(connections_))
      if (c->server == server) CloseConnection(c);
  });
}

std::vector<StoredBatch> FakeCluster::Log(int64_t table_id, int32_t bucket) const {
  std::lock_guard<std::mutex> lock(mu_);
  // (Log() and Kv() create an empty state on first use; the const_casts only reach that.)
  return const_cast<FakeServers&>(servers_).Log(table_id, bucket).batches();
}

std::map<std::string, std::string> FakeCluster::KvRows(int64_t table_id, int32_t bucket) const {
  std::lock_guard<std::mutex> lock(mu_);
  return const_cast<FakeServers&>(servers_).Kv(table_id, bucket).rows();
}

int FakeCluster::KvBatchesApplied(int64_t table_id, int32_t bucket) const {
  std::lock_guard<std::mutex> lock(mu_);
  return const_cast<FakeServers&>(servers_).Kv(table_id, bucket).batches_applied();
}

std::vector<Received> FakeCluster::Requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return received_;
}

int FakeCluster::Count(ApiKey key) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = counts_.find(key);
  return it == counts_.end() ? 0 : it->second;
}

bool FakeCluster::WaitFor(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    const uint64_t seen = version_;
    lock.unlock();
    if (done()) return true;
    lock.lock();
    if (!changed_.wait_until(lock, deadline, [&] { return version_ != seen; })) {
      lock.unlock();
      return done();
    }
  }
}

void FakeCluster::Changed() {
  ++version_;
  changed_.notify_all();
}

void FakeCluster::Accept(int32_t server) {
  auto c = std::make_shared<Connection>(io_);
  c->server = server;
  acceptors_[static_cast<size_t>(server + 1)]->async_accept(c->socket, [this, c, server](const asio::error_code& ec) {
    if (ec) return;  // the acceptor closed
    {
      std::lock_guard<std::mutex> lock(mu_);
      c->id = next_connection_++;
    }
    asio::error_code opt;
    c->socket.set_option(tcp::no_delay(true), opt);
    connections_.insert(c);
    Read(c);
    Accept(server);
  });
}

void FakeCluster::Read(std::shared_ptr<Connection> c) {
  asio::async_read(c->socket, asio::buffer(c->length, 4), [this, c](const asio::error_code& ec, size_t) {
    if (ec || !c->open) {
      CloseConnection(c);
      return;
    }
    const uint32_t len = util::GetBe32(c->length);
    // A request is at least its 8-byte header; the server's limit is 100 MiB (protocol-rpc.md 1.5).
    if (len < protocol::kRequestHeaderSize || len > 100u * 1024 * 1024) {
      CloseConnection(c);
      return;
    }
    auto frame = std::make_shared<std::string>(len, '\0');
    asio::async_read(c->socket, asio::buffer(frame->data(), frame->size()),
                     [this, c, frame](const asio::error_code& ec2, size_t) {
                       if (ec2 || !c->open) {
                         CloseConnection(c);
                         return;
                       }
                       OnRequest(c, std::move(*frame));
                       if (c->open) Read(c);
                     });
  });
}

void FakeCluster::OnRequest(const std::shared_ptr<Connection>& c, std::string frame) {
  const auto* p = reinterpret_cast<const uint8_t*>(frame.data());
  Request req;
  req.api_key = static_cast<ApiKey>(static_cast<int16_t>(util::GetBe16(p)));
  req.api_version = static_cast<int16_t>(util::GetBe16(p + 2));
  req.request_id = static_cast<int32_t>(util::GetBe32(p + 4));
  req.server = c->server;
  req.connection = c->id;
  const std::string_view body(frame.data() + protocol::kRequestHeaderSize, frame.size() - protocol::kRequestHeaderSize);
  Script script;
  bool served;
  {
    std::lock_guard<std::mutex> lock(mu_);
    req.nth = counts_[req.api_key]++;
    servers_.Describe(body, &req);
    script = script_;
    served = servers_.Serves(c->server, req.api_key);
  }
  // A key the server does not serve gets no answer at all, as from a real server
  // (protocol-rpc.md 1.3); the client must never send one.
  Action action = !served ? Action::Drop() : script ? script(req) : Action::Answer();
  {
    std::lock_guard<std::mutex> lock(mu_);
    received_.push_back(Received{req, action.kind, action.error_code});
    Changed();
  }
  Answer answer;
  const bool handle = action.kind == Action::Kind::kAnswer || (action.apply && action.kind != Action::Kind::kRequestError);
  if (handle) {
    std::lock_guard<std::mutex> lock(mu_);
    answer = servers_.Handle(req.api_key, c->server, body, action);
  }
  if (answer.appended) WakeFetches();
  switch (action.kind) {
    case Action::Kind::kClose:
      CloseConnection(c);
      return;
    case Action::Kind::kDrop:
      return;
    case Action::Kind::kMalformed:
      Deliver(c, MalformedFrame(action, req.request_id), action,
              /*close_after=*/action.malformed == MalformedKind::kServerFailure);
      return;
    case Action::Kind::kRequestError:
      Deliver(c, Frame(protocol::ResponseType::kError, req.request_id, ErrorBody(action.error_code, action.error_message)),
              action);
      return;
    case Action::Kind::kAnswer:
      break;
  }
  if (answer.silent) return;
  if (answer.may_wait && answer.max_wait_ms > 0) {
    auto w = std::make_shared<WaitingFetch>(io_);
    w->conn = c;
    w->request_id = req.request_id;
    w->server = c->server;
    w->body.assign(body);
    w->action = action;
    w->timer.expires_after(std::chrono::milliseconds(answer.max_wait_ms));
    Wait(std::move(w));
    return;
  }
  Deliver(c, AnswerFrame(req.request_id, answer, action), action);
}

void FakeCluster::Wait(std::shared_ptr<WaitingFetch> w) {
  waiting_fetches_.push_back(w);
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++waiting_count_;
  }
  w->timer.async_wait([this, w](const asio::error_code& ec) {
    if (ec || w->done) return;
    Answer answer;
    {
      std::lock_guard<std::mutex> lock(mu_);
      answer = servers_.Handle(ApiKey::FETCH_LOG, w->server, w->body, w->action);
    }
    EndWait(w, answer);
  });
}

void FakeCluster::WakeFetches() {
  for (auto& w : std::vector<std::shared_ptr<WaitingFetch>>(waiting_fetches_)) {
    Answer answer;
    {
      std::lock_guard<std::mutex> lock(mu_);
      answer = servers_.Handle(ApiKey::FETCH_LOG, w->server, w->body, w->action);
    }
    if (answer.may_wait) continue;  // still nothing for it
    w->timer.cancel();
    EndWait(w, answer);
  }
}

void FakeCluster::EndWait(const std::shared_ptr<WaitingFetch>& w, Answer& answer) {
  w->done = true;
  std::erase(waiting_fetches_, w);
  {
    std::lock_guard<std::mutex> lock(mu_);
    --waiting_count_;
  }
  Deliver(w->conn, AnswerFrame(w->request_id, answer, w->action), w->action);
}

void FakeCluster::Deliver(const std::shared_ptr<Connection>& c, std::string bytes, const Action& action, bool close_after) {
  if (!action.hold.empty()) {
    held_[action.hold].push_back(std::make_shared<HeldAnswer>(HeldAnswer{c, std::move(bytes), action.release, close_after}));
    std::lock_guard<std::mutex> lock(mu_);
    ++held_counts_[action.hold];
    Changed();
    return;
  }
  auto send = [this, c, bytes = std::move(bytes), release = action.release, close_after]() mutable {
    Write(c, std::move(bytes), close_after);
    if (!release.empty()) ReleaseOnIo(release);
  };
  if (action.delay_ms > 0) {
    auto timer = std::make_shared<asio::steady_timer>(io_, std::chrono::milliseconds(action.delay_ms));
    timer->async_wait([timer, send = std::move(send)](const asio::error_code& ec) mutable {
      if (!ec) send();
    });
    return;
  }
  send();
}

void FakeCluster::ReleaseOnIo(const std::string& tag) {
  auto it = held_.find(tag);
  if (it == held_.end()) return;
  auto answers = std::move(it->second);
  held_.erase(it);
  {
    std::lock_guard<std::mutex> lock(mu_);
    held_counts_.erase(tag);
  }
  for (auto& h : answers) {
    Write(h->conn, std::move(h->bytes), h->close_after);
    if (!h->release.empty()) ReleaseOnIo(h->release);
  }
}

void FakeCluster::Write(const std::shared_ptr<Connection>& c, std::string bytes, bool close_after) {
  if (!c->open) return;
  c->out.emplace_back(std::move(bytes), close_after);
  if (!c->writing) StartWrite(c);
}

void FakeCluster::StartWrite(const std::shared_ptr<Connection>& c) {
  if (c->out.empty() || !c->open) {
    c->writing = false;
    return;
  }
  c->writing = true;
  asio::async_write(c->socket, asio::buffer(c->out.front().first), [this, c](const asio::error_code& ec, size_t) {
    if (ec) {
      CloseConnection(c);
      return;
    }
    const bool close = c->out.front().second;
    c->out.pop_front();
    {
      std::lock_guard<std::mutex> lock(mu_);
      Changed();
    }
    if (close) {
      CloseConnection(c);
      return;
    }
    StartWrite(c);
  });
}

void FakeCluster::CloseConnection(const std::shared_ptr<Connection>& c) {
  if (!c->open) return;
  c->open = false;
  asio::error_code ec;
  c->socket.shutdown(tcp::socket::shutdown_both, ec);
  c->socket.close(ec);
  connections_.erase(c);
  std::lock_guard<std::mutex> lock(mu_);
  Changed();
}

}  // namespace fluss::fake

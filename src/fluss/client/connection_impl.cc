#include "fluss/client/connection_impl.h"

#include <future>

#include "fluss/client/table_json.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/errors.h"

namespace fluss::client {

using protocol::ApiKey;

namespace {

Result<std::vector<net::ServerEndpoint>> ParseBootstrap(const std::string& servers) {
  std::vector<net::ServerEndpoint> out;
  size_t start = 0;
  while (start <= servers.size()) {
    size_t comma = servers.find(',', start);
    std::string item = servers.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    while (!item.empty() && item.back() == ' ') item.pop_back();
    if (!item.empty()) {
      size_t colon = item.rfind(':');
      if (colon == std::string::npos || colon == 0 || colon + 1 == item.size())
        return Status::InvalidArgument("bootstrap.servers: '" + item + "' is not host:port");
      std::string host = item.substr(0, colon);
      if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
      int port = 0;
      try {
        size_t pos;
        port = std::stoi(item.substr(colon + 1), &pos);
        if (pos != item.size() - colon - 1) throw std::invalid_argument("port");
      } catch (...) {
        return Status::InvalidArgument("bootstrap.servers: bad port in '" + item + "'");
      }
      if (port <= 0 || port > 65535) return Status::InvalidArgument("bootstrap.servers: bad port in '" + item + "'");
      out.push_back(net::ServerEndpoint{host, port, -1});
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out.empty()) return Status::InvalidArgument("bootstrap.servers is empty");
  return out;
}

}  // namespace

ConnectionImpl::ConnectionImpl(ClientOptions options)
    : options_(std::move(options)), work_(asio::make_work_guard(io_)) {}

Result<std::shared_ptr<ConnectionImpl>> ConnectionImpl::Create(const std::map<std::string, std::string>& properties) {
  FLUSS_ASSIGN_OR_RETURN(ClientOptions options, ParseClientOptions(properties));
  FLUSS_ASSIGN_OR_RETURN(auto bootstrap, ParseBootstrap(options.bootstrap_servers));
  std::shared_ptr<ConnectionImpl> impl(new ConnectionImpl(std::move(options)));
  impl->bootstrap_ = std::move(bootstrap);
  // The thread keeps the core alive until it stops, so the core is never destroyed while its
  // io_context runs (a callback may drop the last user reference).
  impl->thread_ = std::thread([impl] {
    impl->io_.run();
    impl->io_done_.set_value();
  });
  return impl;
}

ConnectionImpl::~ConnectionImpl() {
  closed_ = true;
  work_.reset();
  io_.stop();
  if (thread_.joinable()) {
    if (thread_.get_id() == std::this_thread::get_id()) thread_.detach();
    else thread_.join();
  }
}

void ConnectionImpl::SpawnStatus(asio::awaitable<Status> aw, StatusCallback done) {
  if (closed()) {
    done(Status::Closed("the connection is closed"));
    return;
  }
  asio::co_spawn(
      io_,
      [](asio::awaitable<Status> a, StatusCallback d) -> asio::awaitable<void> {
        std::string error;
        try {
          Status st = co_await std::move(a);
          d(std::move(st));
          co_return;
        } catch (const std::exception& e) {
          error = e.what();
        } catch (...) {
          error = "unknown exception";
        }
        d(Status::Internal("unexpected exception in the client: " + error));
      }(std::move(aw), std::move(done)),
      asio::detached);
}

void ConnectionImpl::RegisterFlushable(std::weak_ptr<Flushable> f) {
  std::lock_guard<std::mutex> lock(flushables_mu_);
  flushables_.push_back(std::move(f));
}

Status ConnectionImpl::Close() {
  std::lock_guard<std::mutex> lock(close_mu_);
  if (closed_) return Status::OK();
  if (std::this_thread::get_id() == thread_.get_id()) {
    // Called from a callback: closing waits for the I/O thread, so do it from another thread.
    std::thread([self = shared_from_this()] { self->Close(); }).detach();
    return Status::OK();
  }
  Status first;
  std::vector<std::shared_ptr<Flushable>> live;
  {
    std::lock_guard<std::mutex> l(flushables_mu_);
    for (auto& w : flushables_)
      if (auto f = w.lock()) live.push_back(std::move(f));
    flushables_.clear();
  }
  // Flush every writer, bounded by the request timeout.
  std::vector<std::future<Status>> futures;
  for (auto& f : live) {
    auto p = std::make_shared<std::promise<Status>>();
    futures.push_back(p->get_future());
    f->FlushAsync([p](Status s) { p->set_value(std::move(s)); });
  }
  const auto deadline = Clock::now() + std::chrono::milliseconds(options_.request_timeout_ms);
  for (auto& fu : futures) {
    if (fu.wait_until(deadline) != std::future_status::ready) {
      if (first.ok()) first = Status::Timeout("close: pending writes were not acknowledged within client.request-timeout");
      continue;
    }
    Status s = fu.get();
    if (first.ok() && !s.ok()) first = s;
  }
  closed_ = true;
  // Fail whatever is left, close the sockets and cancel every timer on the I/O thread. Then
  // let the I/O thread run out of work instead of stopping it: every operation still running
  // ends at once (its requests fail with kClosed, its sleeps return), so no coroutine frame is
  // left holding the connection core (which would never be freed, with its resolver thread
  // and file descriptors).
  std::promise<void> stopped;
  asio::post(io_, [this, &live, &stopped] {
    for (auto& f : live) f->Abort(Status::Closed("the connection was closed before the write was acknowledged"));
    for (auto& [k, c] : connections_) c->Close();
    connections_.clear();
    for (auto& w : timers_)
      if (auto t = w.lock()) t->cancel();
    timers_.clear();
    stopped.set_value();
  });
  stopped.get_future().wait();
  work_.reset();
  // Bounded: a stuck operation (a bug) must not hang the caller; then stop the loop instead.
  if (io_done_.get_future().wait_for(std::chrono::seconds(10)) != std::future_status::ready) io_.stop();
  if (thread_.joinable()) thread_.join();
  // Run what was posted after the loop ended (e.g. by a writer racing with Close): each sees
  // the closed connection and ends, releasing what it holds.
  io_.restart();
  io_.poll();
  return first;
}

std::shared_ptr<asio::steady_timer> ConnectionImpl::NewTimer() {
  auto t = std::make_shared<asio::steady_timer>(io_);
  if (timers_.size() >= 64) {
    std::erase_if(timers_, [](const std::weak_ptr<asio::steady_timer>& w) { return w.expired(); });
  }
  timers_.push_back(t);
  return t;
}

std::shared_ptr<net::ServerConnection> ConnectionImpl::GetConnection(const std::string& key,
                                                                     const net::ServerEndpoint& ep) {
  auto it = connections_.find(key);
  if (it != connections_.end()) {
    const auto& cur = it->second->endpoint();
    if (cur.host == ep.host && cur.port == ep.port) return it->second;
    it->second->Close();
  }
  auto conn = std::make_shared<net::ServerConnection>(io_, ep, options_.connect_timeout_ms, options_.request_timeout_ms);
  if (closed()) {
    conn->Close();  // closing: requests on it fail at once with kClosed
    return conn;
  }
  connections_[key] = conn;
  return conn;
}

std::shared_ptr<net::ServerConnection> ConnectionImpl::TabletServer(int32_t node_id) {
  auto it = metadata_.tablet_servers().find(node_id);
  if (it == metadata_.tablet_servers().end()) return nullptr;
  return GetConnection("ts-" + std::to_string(node_id), it->second);
}

asio::awaitable<Result<std::shared_ptr<net::ServerConnection>>> ConnectionImpl::Coordinator() {
  if (!metadata_.coordinator()) {
    // (GCC 12 miscompiles braced initialiser lists inside co_await expressions: use locals.)
    const std::vector<TablePath> none;
    Status st = co_await RefreshMetadata(none);
    if (!st.ok()) co_return st;
    if (!metadata_.coordinator()) co_return Status::Network("the cluster metadata names no coordinator server");
  }
  co_return GetConnection("cs-" + std::to_string(metadata_.coordinator()->node_id), *metadata_.coordinator());
}

asio::awaitable<Result<net::ResponseBody>> ConnectionImpl::Send(std::shared_ptr<net::ServerConnection> conn,
                                                               ApiKey key, std::string frame) {
  // The initiation takes its state as arguments, not captures: GCC 12 releases a shared_ptr
  // captured by an initiation lambda of use_awaitable twice.
  auto r = co_await asio::async_initiate<const asio::use_awaitable_t<>, void(Result<net::ResponseBody>)>(
      [](auto handler, std::shared_ptr<net::ServerConnection> c, ApiKey k, std::string f, int64_t timeout) {
        auto h = std::make_shared<decltype(handler)>(std::move(handler));
        c->Send(k, std::move(f), timeout, [h](Result<net::ResponseBody> res) { (*h)(std::move(res)); });
      },
      asio::use_awaitable, std::move(conn), key, std::move(frame), options_.request_timeout_ms);
  co_return r;
}

asio::awaitable<Result<net::ResponseBody>> ConnectionImpl::SendFrame(std::shared_ptr<net::ServerConnection> conn,
                                                                    ApiKey key, net::OutgoingFrame frame) {
  auto r = co_await asio::async_initiate<const asio::use_awaitable_t<>, void(Result<net::ResponseBody>)>(
      [](auto handler, std::shared_ptr<net::ServerConnection> c, ApiKey k, net::OutgoingFrame f, int64_t timeout) {
        auto h = std::make_shared<decltype(handler)>(std::move(handler));
        c->Send(k, std::move(f), timeout, [h](Result<net::ResponseBody> res) { (*h)(std::move(res)); });
      },
      asio::use_awaitable, std::move(conn), key, std::move(frame), options_.request_timeout_ms);
  co_return r;
}

asio::awaitable<void> ConnectionImpl::Sleep(std::chrono::milliseconds d) {
  if (closed()) co_return;
  auto t = NewTimer();
  t->expires_after(d);
  asio::error_code ec;  // cancellation on shutdown is not an error here
  co_await t->async_wait(asio::redirect_error(asio::use_awaitable, ec));
}

asio::awaitable<Status> ConnectionImpl::Bootstrap() {
  // Like the Java client: a few quick attempts per address, sleeping 100, 200, 400 ms, and an
  // empty tablet-server list counts as stale metadata (a server that just started).
  Status last = Status::Network("no bootstrap server");
  const auto deadline = Clock::now() + std::chrono::milliseconds(options_.request_timeout_ms);
  int attempt = 0;
  while (true) {
    if (closed()) co_return Status::Closed("the connection is closed");
    for (size_t i = 0; i < bootstrap_.size(); ++i) {
      auto conn = GetConnection("bootstrap-" + std::to_string(i), bootstrap_[i]);
      proto::MetadataRequest req;
      auto resp = co_await Call<proto::MetadataResponse>(conn, ApiKey::GET_METADATA, req);
      if (!resp.ok()) {
        last = resp.status();
        continue;
      }
      if (resp->tablet_servers_size() == 0) {
        last = Status::Network("server " + bootstrap_[i].ToString() + " reports no live tablet servers yet");
        continue;
      }
      metadata_.Update(*resp);
      co_return Status::OK();
    }
    // Refused connections fail fast: three rounds (about 0.7 s), then give up. An answering
    // cluster without tablet servers is waited for until the request timeout.
    const bool refused = last.code() == StatusCode::kNetwork && last.message().find("no live tablet") == std::string::npos;
    if ((refused && attempt >= 3) || Clock::now() >= deadline) {
      co_return last;
    }
    co_await Sleep(std::chrono::milliseconds(std::min(100 << std::min(attempt, 3), 1000)));
    ++attempt;
  }
}

asio::awaitable<Status> ConnectionImpl::RefreshMetadata(const std::vector<TablePath>& tables) {
  proto::MetadataRequest req;
  for (const auto& t : tables) {
    auto* p = req.add_table_path();
    p->set_database_name(t.database_name);
    p->set_table_name(t.table_name);
  }
  // Ask the coordinator (the source of truth for assignments) when known, else any tablet
  // server, else the bootstrap servers.
  std::vector<std::shared_ptr<net::ServerConnection>> targets;
  if (metadata_.coordinator())
    targets.push_back(GetConnection("cs-" + std::to_string(metadata_.coordinator()->node_id), *metadata_.coordinator()));
  for (const auto& [id, ep] : metadata_.tablet_servers()) targets.push_back(TabletServer(id));
  for (size_t i = 0; i < bootstrap_.size(); ++i)
    targets.push_back(GetConnection("bootstrap-" + std::to_string(i), bootstrap_[i]));
  Status last = Status::Network("no server to ask for metadata");
  for (auto& conn : targets) {
    auto resp = co_await Call<proto::MetadataResponse>(conn, ApiKey::GET_METADATA, req);
    if (resp.ok()) {
      metadata_.Update(*resp);
      co_return Status::OK();
    }
    last = resp.status();
    if (last.code() == StatusCode::kServer && !last.IsRetriable()) co_return last;  // e.g. TABLE_NOT_EXIST
  }
  co_return last;
}

asio::awaitable<Status> ConnectionImpl::WaitForLeaders(const TablePath& path, int32_t num_buckets,
                                                       Clock::time_point deadline) {
  int attempt = 0;
  while (true) {
    if (closed()) co_return Status::Closed("the connection is closed");
    bool all = metadata_.HasTable(path);
    for (int32_t b = 0; all && b < num_buckets; ++b) all = metadata_.Leader(path, b).has_value();
    if (all) co_return Status::OK();
    if (attempt > 0) {
      if (Clock::now() >= deadline)
        co_return Status::Timeout("table " + path.ToString() + ": bucket leaders not available within client.request-timeout");
      co_await Sleep(std::chrono::milliseconds(std::min(50 << std::min(attempt, 4), 500)));
    }
    ++attempt;
    const std::vector<TablePath> tables{path};
    Status st = co_await RefreshMetadata(tables);
    if (!st.ok() && !st.IsRetriable()) co_return st;
  }
}

asio::awaitable<Result<TableInfo>> ConnectionImpl::FetchTableInfo(TablePath p) {
  proto::GetTableInfoRequest req;
  req.mutable_table_path()->set_database_name(p.database_name);
  req.mutable_table_path()->set_table_name(p.table_name);
  auto resp = co_await CallCoordinator<proto::GetTableInfoResponse>(ApiKey::GET_TABLE_INFO, req);
  if (!resp.ok()) co_return resp.status().WithContext("table " + p.ToString());
  auto desc = TableDescriptorFromJson(resp->table_json());
  if (!desc.ok()) co_return desc.status().WithContext("table " + p.ToString());
  TableInfo info;
  info.table_path = p;
  info.table_id = resp->table_id();
  info.schema_id = resp->schema_id();
  info.created_time = resp->created_time();
  info.modified_time = resp->modified_time();
  info.descriptor = std::move(*desc);
  info.num_buckets = info.descriptor.bucket_count.value_or(1);
  co_return info;
}

asio::awaitable<Result<std::pair<int64_t, std::map<int32_t, int32_t>>>> ConnectionImpl::PartitionLeaders(
    const TablePath& path, const std::string& partition_name) {
  proto::MetadataRequest req;
  auto* t = req.add_table_path();
  t->set_database_name(path.database_name);
  t->set_table_name(path.table_name);
  auto* pp = req.add_partitions_path();
  pp->set_database_name(path.database_name);
  pp->set_table_name(path.table_name);
  pp->set_partition_name(partition_name);
  auto conn = co_await Coordinator();
  if (!conn.ok()) co_return conn.status();
  auto resp = co_await Call<proto::MetadataResponse>(*conn, ApiKey::GET_METADATA, req);
  if (!resp.ok()) co_return resp.status().WithContext("table " + path.ToString() + " partition " + partition_name);
  metadata_.Update(*resp);
  for (const auto& pm : resp->partition_metadata()) {
    if (pm.partition_name() != partition_name) continue;
    std::map<int32_t, int32_t> leaders;
    for (const auto& b : pm.bucket_metadata())
      if (b.has_leader_id() && b.leader_id() >= 0 && metadata_.tablet_servers().count(b.leader_id()))
        leaders[b.bucket_id()] = b.leader_id();
    co_return std::make_pair(pm.partition_id(), std::move(leaders));
  }
  co_return Status::Server(36, "table " + path.ToString() + ": partition '" + partition_name + "' does not exist");
}

asio::awaitable<Result<std::map<int32_t, int64_t>>> ConnectionImpl::ListOffsets(
    const TableInfo& table, std::vector<int32_t> buckets, int32_t offset_type,
    std::optional<int64_t> timestamp_ms, std::optional<std::string> partition_name) {
  const TablePath& path = table.table_path;
  const std::string where = partition_name ? path.ToString() + " partition " + *partition_name : path.ToString();
  if (partition_name && !table.IsPartitioned())
    co_return Status::Server(37, "table " + path.ToString() + " is not partitioned");
  if (!partition_name && table.IsPartitioned())
    co_return Status::InvalidArgument("table " + path.ToString() + " is partitioned: name the partition (list_partition_offsets)");
  for (int32_t b : buckets)
    if (b < 0 || b >= table.num_buckets)
      co_return Status::InvalidArgument("bucket " + std::to_string(b) + " is outside table " + where +
                                        " (" + std::to_string(table.num_buckets) + " buckets)");
  const auto deadline = Clock::now() + std::chrono::milliseconds(options_.request_timeout_ms);
  std::map<int32_t, int64_t> out;
  std::vector<int32_t> todo = std::move(buckets);
  int attempt = 0;
  while (!todo.empty()) {
    if (closed()) co_return Status::Closed("the connection is closed");
    // Leaders of the buckets asked for: the table's, or the partition's.
    std::map<int32_t, int32_t> leaders;
    std::optional<int64_t> partition_id;
    if (partition_name) {
      auto pl = co_await PartitionLeaders(path, *partition_name);
      if (!pl.ok()) co_return pl.status();
      partition_id = pl->first;
      leaders = std::move(pl->second);
    } else {
      // Always ask the coordinator for the current leaders first: a cached leader may have
      // lost its leadership and, still hosting a replica, would answer with its own lagging
      // high watermark (protocol-rpc.md section 8).
      const std::vector<TablePath> tables{path};
      Status refreshed = co_await RefreshMetadata(tables);
      if (!refreshed.ok() && !refreshed.IsRetriable()) co_return refreshed.WithContext("list offsets of " + where);
      Status st = co_await WaitForLeaders(path, table.num_buckets, deadline);
      if (!st.ok()) co_return st;
      for (int32_t b : todo) leaders[b] = *metadata_.Leader(path, b);
    }
    std::map<int32_t, std::vector<int32_t>> by_leader;
    std::vector<int32_t> retry;
    for (int32_t b : todo) {
      auto it = leaders.find(b);
      if (it == leaders.end()) retry.push_back(b);
      else by_leader[it->second].push_back(b);
    }
    Status last = Status::Timeout("table " + where + ": bucket leaders not available within client.request-timeout");
    for (auto& [leader, bs] : by_leader) {
      proto::ListOffsetsRequest req;
      req.set_follower_server_id(-1);
      req.set_offset_type(offset_type);
      req.set_table_id(table.table_id);
      if (partition_id) req.set_partition_id(*partition_id);
      for (int32_t b : bs) req.add_bucket_id(b);
      if (timestamp_ms) req.set_starttimestamp(*timestamp_ms);
      auto conn = TabletServer(leader);
      // (No co_await inside ?: — GCC 12 mishandles the temporaries of such expressions.)
      Result<proto::ListOffsetsResponse> resp = Status::Network("leader unknown");
      if (conn) resp = co_await Call<proto::ListOffsetsResponse>(conn, ApiKey::LIST_OFFSETS, req);
      if (!resp.ok()) {
        if (!resp.status().IsRetriable()) co_return resp.status().WithContext("list offsets of " + where);
        last = resp.status();
        retry.insert(retry.end(), bs.begin(), bs.end());
        continue;
      }
      for (const auto& r : resp->buckets_resp()) {
        if (r.has_error_code()) {
          Status e = protocol::ServerError(r.error_code(), r.error_message(),
                                           "table " + where + " bucket " + std::to_string(r.bucket_id()));
          if (!e.IsRetriable()) co_return e;
          last = e;
          retry.push_back(r.bucket_id());
        } else {
          out[r.bucket_id()] = r.offset();
        }
      }
    }
    if (retry.empty()) break;
    if (Clock::now() >= deadline) co_return last;
    metadata_.InvalidateTable(path);
    co_await Sleep(std::chrono::milliseconds(std::min(100 << std::min(attempt++, 3), 1000)));
    todo = std::move(retry);
  }
  co_return out;
}

}  // namespace fluss::client

namespace fluss {

Connection::Connection(std::shared_ptr<client::ConnectionImpl> impl) : impl_(std::move(impl)) {}

Connection::~Connection() {
  if (impl_) impl_->Close();
}

void Connection::ConnectAsync(const std::map<std::string, std::string>& properties,
                              Callback<std::shared_ptr<Connection>> done) {
  auto impl = client::ConnectionImpl::Create(properties);
  if (!impl.ok()) {
    done(impl.status());
    return;
  }
  auto shared = *impl;
  shared->Spawn<std::shared_ptr<Connection>>(
      [](std::shared_ptr<client::ConnectionImpl> c) -> asio::awaitable<Result<std::shared_ptr<Connection>>> {
        Status st = co_await c->Bootstrap();
        if (!st.ok()) co_return st;
        co_return std::make_shared<Connection>(c);
      }(shared),
      [shared, done = std::move(done)](Result<std::shared_ptr<Connection>> r) mutable {
        if (!r.ok()) {
          // Stop the I/O thread from another thread: this callback runs on it.
          std::thread([shared] { shared->Close(); }).detach();
        }
        done(std::move(r));
      });
}

Result<std::shared_ptr<Connection>> Connection::Connect(const std::map<std::string, std::string>& properties) {
  return Await<std::shared_ptr<Connection>>(
      [&](Callback<std::shared_ptr<Connection>> cb) { ConnectAsync(properties, std::move(cb)); });
}

std::shared_ptr<Admin> Connection::GetAdmin() { return std::make_shared<Admin>(impl_); }

Status Connection::Close() { return impl_->Close(); }

const ClientOptions& Connection::options() const { return impl_->options(); }

void Connection::GetTableAsync(const TablePath& path, Callback<std::shared_ptr<Table>> done) {
  impl_->Spawn<std::shared_ptr<Table>>(
      [](std::shared_ptr<client::ConnectionImpl> c, TablePath p) -> asio::awaitable<Result<std::shared_ptr<Table>>> {
        auto info = co_await c->FetchTableInfo(p);
        if (!info.ok()) co_return info.status();
        // Learn the bucket leaders now (as the Java client does), so the first write or read
        // does not wait for a metadata round trip. A table without leaders yet is not an
        // error here: writers and scanners wait for them.
        const std::vector<TablePath> tables{p};
        co_await c->RefreshMetadata(tables);
        co_return std::make_shared<Table>(c, std::move(*info));
      }(impl_, path),
      std::move(done));
}

}  // namespace fluss

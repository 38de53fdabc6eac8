#include "fluss/metadata/cluster.h"

#include "fluss/metadata/table_json.h"
#include "fluss/proto/fluss_api.pb.h"
#include "fluss/protocol/errors.h"
#include "fluss/protocol/get_table_info.h"
#include "fluss/protocol/metadata_request.h"

namespace fluss::metadata {

using protocol::ApiKey;

Result<std::vector<net::ServerEndpoint>> ParseBootstrapServers(const std::string& servers) {
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

namespace {

std::shared_ptr<const net::Authentication> MakeAuthentication(const ClientOptions& o) {
  auto auth = std::make_shared<net::Authentication>();
  auth->sasl = o.security_protocol == SecurityProtocol::kSasl;
  if (auth->sasl) {
    auth->username = o.sasl_username;
    auth->password = o.sasl_password;
  }
  return auth;
}

}  // namespace

Cluster::Cluster(ClientOptions options, std::vector<net::ServerEndpoint> bootstrap)
    : options_(std::move(options)),
      bootstrap_(std::move(bootstrap)),
      metrics_(std::make_shared<util::MetricCounters>()),
      pool_(io_thread_.io(), options_.connect_timeout_ms, options_.request_timeout_ms, MakeAuthentication(options_),
            metrics_),
      rpc_(options_.request_timeout_ms) {}

Result<std::shared_ptr<Cluster>> Cluster::Create(ClientOptions options) {
  FLUSS_ASSIGN_OR_RETURN(auto bootstrap, ParseBootstrapServers(options.bootstrap_servers));
  std::shared_ptr<Cluster> c(new Cluster(std::move(options), std::move(bootstrap)));
  c->io_thread_.Start(c);
  return c;
}

void Cluster::CloseNetwork() {
  pool_.CloseAll();
  io_thread_.CancelTimers();
}

std::shared_ptr<net::ServerConnection> Cluster::TabletServer(int32_t node_id) {
  auto it = metadata_.tablet_servers().find(node_id);
  if (it == metadata_.tablet_servers().end()) return nullptr;
  return pool_.Get("ts-" + std::to_string(node_id), it->second);
}

std::shared_ptr<net::ServerConnection> Cluster::CoordinatorConnection() {
  return pool_.Get("cs-" + std::to_string(metadata_.coordinator()->node_id), *metadata_.coordinator());
}

std::shared_ptr<net::ServerConnection> Cluster::BootstrapConnection(size_t i) {
  return pool_.Get("bootstrap-" + std::to_string(i), bootstrap_[i]);
}

asio::awaitable<Result<std::shared_ptr<net::ServerConnection>>> Cluster::Coordinator() {
  if (!metadata_.coordinator()) {
    // (GCC 12 miscompiles braced initialiser lists inside co_await expressions: use locals.)
    const std::vector<TablePath> none;
    Status st = co_await RefreshMetadata(none);
    if (!st.ok()) co_return st;
    if (!metadata_.coordinator()) co_return Status::Network("the cluster metadata names no coordinator server");
  }
  co_return CoordinatorConnection();
}

asio::awaitable<Status> Cluster::Bootstrap() {
  // Like the Java client: a few quick attempts per address, sleeping 100, 200, 400 ms, and an
  // empty tablet-server list counts as stale metadata (a server that just started).
  Status last = Status::Network("no bootstrap server");
  const auto deadline = Clock::now() + std::chrono::milliseconds(options_.request_timeout_ms);
  int attempt = 0;
  while (true) {
    if (closed()) co_return Status::Closed("the connection is closed");
    for (size_t i = 0; i < bootstrap_.size(); ++i) {
      auto conn = BootstrapConnection(i);
      const std::vector<TablePath> none;  // the servers only
      const proto::MetadataRequest req = protocol::MakeMetadataRequest(none);
      auto resp = co_await Call<proto::MetadataResponse>(conn, ApiKey::GET_METADATA, req);
      if (!resp.ok()) {
        last = resp.status();
        // A server's refusal (e.g. 46 AUTHENTICATE_EXCEPTION from a SASL listener) names it.
        if (last.code() == StatusCode::kServer && last.message().find(bootstrap_[i].ToString()) == std::string::npos)
          last = last.WithContext("server " + bootstrap_[i].ToString());
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
    // A final answer (46 for wrong credentials or a PLAINTEXT client at a SASL listener, an API
    // the server does not serve) does not change by asking again: fail now, not at the deadline.
    // UNKNOWN_SERVER_ERROR stays retried: a starting server reports passing states with it.
    const bool final_answer = (last.code() == StatusCode::kServer && !last.IsRetriable() &&
                               last.error_code() != protocol::UNKNOWN_SERVER_ERROR) ||
                              last.code() == StatusCode::kUnsupported;
    if (final_answer) co_return last;
    co_await Sleep(std::chrono::milliseconds(std::min(100 << std::min(attempt, 3), 1000)));
    ++attempt;
  }
}

asio::awaitable<Status> Cluster::RefreshMetadata(const std::vector<TablePath>& tables) {
  const proto::MetadataRequest req = protocol::MakeMetadataRequest(tables);
  // Ask the coordinator (the source of truth for assignments) when known, else any tablet
  // server, else the bootstrap servers.
  std::vector<std::shared_ptr<net::ServerConnection>> targets;
  if (metadata_.coordinator())
    targets.push_back(CoordinatorConnection());
  for (const auto& [id, ep] : metadata_.tablet_servers()) targets.push_back(TabletServer(id));
  for (size_t i = 0; i < bootstrap_.size(); ++i)
    targets.push_back(BootstrapConnection(i));
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

asio::awaitable<Status> Cluster::WaitForLeaders(const TablePath& path, int32_t num_buckets,
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

asio::awaitable<Result<TableInfo>> Cluster::FetchTableInfo(TablePath p) {
  const proto::GetTableInfoRequest req = protocol::MakeGetTableInfoRequest(p);
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

asio::awaitable<Result<std::pair<int64_t, std::map<int32_t, int32_t>>>> Cluster::PartitionLeaders(
    const TablePath& path, const std::string& partition_name) {
  const std::vector<TablePath> tables{path};
  const std::vector<protocol::PartitionPath> partitions{protocol::PartitionPath{path, partition_name}};
  const proto::MetadataRequest req = protocol::MakeMetadataRequest(tables, partitions);
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

asio::awaitable<Result<std::set<int64_t>>> Cluster::RefreshPartitions(const TablePath& path,
                                                                      const std::vector<int64_t>& partition_ids) {
  std::set<int64_t> missing;
  if (partition_ids.empty()) co_return missing;
  auto conn = co_await Coordinator();
  if (!conn.ok()) co_return conn.status();
  const proto::MetadataRequest req = protocol::MakePartitionIdsMetadataRequest(path, partition_ids);
  auto resp = co_await Call<proto::MetadataResponse>(*conn, ApiKey::GET_METADATA, req);
  if (!resp.ok()) {
    if (resp.status().error_code() != protocol::PARTITION_NOT_EXISTS)
      co_return resp.status().WithContext("table " + path.ToString() + " partitions");
    // One unknown id fails the whole request: ask for each alone to learn which are gone.
    if (partition_ids.size() == 1) {
      missing.insert(partition_ids.front());
      co_return missing;
    }
    for (int64_t id : partition_ids) {
      const std::vector<int64_t> one{id};
      auto alone = co_await RefreshPartitions(path, one);
      if (!alone.ok()) co_return alone.status();
      missing.insert(alone->begin(), alone->end());
    }
    co_return missing;
  }
  metadata_.Update(*resp);
  std::set<int64_t> known;
  for (const auto& pm : resp->partition_metadata()) known.insert(pm.partition_id());
  for (int64_t id : partition_ids)
    if (!known.count(id)) missing.insert(id);
  co_return missing;
}

}  // namespace fluss::metadata

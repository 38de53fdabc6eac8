// The shared core behind Connection, Admin and Table: the cluster view (I/O thread, server
// connections, metadata), the writer client every writer of the connection shares and the
// lookup senders every lookuper shares; and
// the closing sequence (flush writers, fail what is left, close sockets, stop the thread).
//
// Thread affinity: every method may be called from any thread.
#pragma once

#include <memory>
#include <mutex>

#include "fluss/client.h"
#include "fluss/lookup/lookup_senders.h"
#include "fluss/metadata/cluster.h"
#include "fluss/write/writer_client.h"

namespace fluss::client {

class ConnectionImpl {
 public:
  /// Parses `properties` and starts the I/O thread (see metadata::Cluster::Create).
  static Result<std::shared_ptr<ConnectionImpl>> Create(const std::map<std::string, std::string>& properties);
  ~ConnectionImpl();

  const std::shared_ptr<metadata::Cluster>& cluster() const { return cluster_; }
  const std::shared_ptr<write::WriterClient>& writer_client() const { return writer_client_; }
  /// The lookup senders every lookuper of the connection shares (one per table and kind).
  const std::shared_ptr<lookup::LookupSenders>& lookup_senders() const { return lookup_senders_; }
  const ClientOptions& options() const { return cluster_->options(); }
  bool closed() const { return cluster_->closed(); }
  /// Connection::Metrics. Any thread.
  ClientMetrics Metrics() const;

  /// Flushes every writer (bounded by client.request-timeout), fails what is still pending
  /// with kClosed, closes the server connections and joins the I/O thread. Idempotent; from
  /// an I/O-thread callback it closes on another thread. Returns the first flush error.
  Status Close();

 private:
  explicit ConnectionImpl(std::shared_ptr<metadata::Cluster> cluster);

  std::shared_ptr<metadata::Cluster> cluster_;
  std::shared_ptr<write::WriterClient> writer_client_;
  std::shared_ptr<lookup::LookupSenders> lookup_senders_;
  std::mutex close_mu_;
  bool closed_ = false;  // guarded by close_mu_
};

}  // namespace fluss::client

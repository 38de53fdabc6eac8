// fluss::Connection: the entry point of the C++ API.
#pragma once

#include <map>
#include <memory>
#include <string>
#include "fluss/callbacks.h"
#include "fluss/config.h"
#include "fluss/metrics.h"
#include "fluss/types.h"

namespace fluss {

class Admin;
class Table;
namespace client { class ConnectionImpl; }

/// A connection to a Fluss cluster: owns the I/O thread, the server connections and the
/// metadata cache. Create it with Connect; end it with Close.
class Connection {
 public:
  /// Parses `properties` (see ClientOptions), starts the I/O thread and reads the cluster
  /// metadata from the first answering server of "bootstrap.servers". Fails with kNetwork
  /// (error code 1) when no bootstrap server answers, kInvalidArgument for bad properties.
  static void ConnectAsync(const std::map<std::string, std::string>& properties,
                           Callback<std::shared_ptr<Connection>> done);
  static Result<std::shared_ptr<Connection>> Connect(const std::map<std::string, std::string>& properties);

  ~Connection();

  /// The admin client of this connection (shares its I/O thread).
  std::shared_ptr<Admin> GetAdmin();

  /// Looks up the table (GetTableInfo) and its bucket leaders. Fails with TABLE_NOT_EXIST (7).
  void GetTableAsync(const TablePath& path, Callback<std::shared_ptr<Table>> done);

  /// Flushes every append writer of this connection (waiting at most client.request-timeout),
  /// closes the server connections and stops the I/O thread. Idempotent. Returns the first
  /// flush error, if any; pending writes that could not be acknowledged fail with kClosed.
  Status Close();

  /// A snapshot of this connection's counters (include/fluss/metrics.h). Thread-safe, cheap
  /// (relaxed atomic loads), also after Close.
  ClientMetrics Metrics() const;

  /// The parsed client options this connection runs with.
  const ClientOptions& options() const;

  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

 private:
  explicit Connection(std::shared_ptr<client::ConnectionImpl> impl);
  std::shared_ptr<client::ConnectionImpl> impl_;
};

}  // namespace fluss

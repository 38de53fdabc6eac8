// fluss::ClientMetrics: what a connection has sent, fetched and waited for (Connection::Metrics),
// in the spirit of the Java client's writer and scanner metrics and confluent-kafka's stats.
#pragma once

#include <cstdint>

namespace fluss {

/// A snapshot of a connection's counters since it was opened (each read on its own, so the
/// fields are not one instant). Bytes are bytes on the wire (record batches as sent or
/// fetched, compressed when the table compresses).
struct ClientMetrics {
  int64_t records_sent = 0;         ///< rows of write batches the server acknowledged
  int64_t bytes_sent = 0;           ///< bytes of those batches
  int64_t batches_sent = 0;         ///< write batches acknowledged
  int64_t write_retries = 0;        ///< write batches sent again after a retriable error
  int64_t records_fetched = 0;      ///< rows of log batches fetched by scanners
  int64_t bytes_fetched = 0;        ///< bytes of those batches
  int64_t fetch_retries = 0;        ///< scanner polls that met a retriable error and went on
  int64_t requests = 0;             ///< requests answered (any kind, any server)
  int64_t request_latency_avg_us = 0;  ///< mean time from send to answer of those, microseconds
  int64_t request_latency_max_us = 0;  ///< the longest of them, microseconds
  int64_t batches_in_flight = 0;    ///< write batches sent and not answered yet (now)
  int64_t buffer_used_bytes = 0;    ///< writer buffer bytes held by unacknowledged batches (now)
  int64_t buffer_limit_bytes = 0;   ///< client.writer.buffer.memory-size
};

}  // namespace fluss

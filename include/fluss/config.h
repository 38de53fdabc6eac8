// Client configuration: string key/value pairs, validated into typed options.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "fluss/status.h"

namespace fluss {

/// Longest duration any option takes (about 10 years): "forever" for practical purposes, and
/// far enough from the clock's range that deadlines cannot overflow.
inline constexpr int64_t kMaxDurationMs = 10LL * 366 * 24 * 3600 * 1000;

/// How the client authenticates its connections (`client.security.protocol`).
enum class SecurityProtocol : int8_t {
  kPlaintext,  ///< PLAINTEXT: no authentication (the listener must be a PLAINTEXT one)
  kSasl,       ///< SASL: every connection runs the SASL/PLAIN handshake before any request
};

/// Typed client options. Each field names the keys that set it (the seed's key first, then the
/// Java client's key) and its default.
struct ClientOptions {
  /// "bootstrap.servers": comma-separated host:port list. Default "127.0.0.1:9123".
  std::string bootstrap_servers = "127.0.0.1:9123";
  /// "request.max.size" / "client.writer.request-max-size": max bytes of one produce request.
  int64_t request_max_size = 10 * 1024 * 1024;
  /// "writer.acks" / "client.writer.acks": "all" (-1), "0" or "1". Default all.
  int32_t writer_acks = -1;
  /// "writer.retries" / "client.writer.retries": retries of a failed batch. Default 2147483647.
  int32_t writer_retries = 2147483647;
  /// "writer.batch.size" / "client.writer.batch-size": bytes at which a bucket's batch closes.
  int64_t writer_batch_size = 2 * 1024 * 1024;
  /// "client.writer.batch-timeout" (ms or a duration like "100 ms"): linger before a
  /// non-full batch is sent. Default 100 ms.
  int64_t writer_batch_timeout_ms = 100;
  /// "client.writer.buffer.memory-size": bytes of pending write data before appends wait.
  int64_t writer_buffer_memory_size = 64 * 1024 * 1024;
  /// "client.writer.buffer.wait-timeout": how long an append waits for buffer memory.
  /// Default: without limit (kMaxDurationMs), as the Java client.
  int64_t writer_buffer_wait_timeout_ms = kMaxDurationMs;
  /// "client.writer.delivery-timeout": how long a batch may take from its first row to its
  /// acknowledgement, retries included (Kafka's delivery.timeout.ms model). Until then a batch
  /// is retried (writer.retries permitting) across leader changes, timeouts and reconnects;
  /// then it fails with kTimeout (a write sent at least once may still have been stored, and the
  /// error says so). Default 120 s.
  int64_t writer_delivery_timeout_ms = 120000;
  /// "client.writer.enable-idempotence": writer id + batch sequences, so a retried batch is
  /// never written twice. Default true; needs acks "all" and retries > 0: when acks or retries
  /// say otherwise it is off unless set to true explicitly (then parsing fails).
  bool writer_enable_idempotence = true;
  /// "client.writer.dynamic-create-partition.enabled": a row for a partition that does not
  /// exist makes the writer create it (as the Java client does by default). Default false
  /// here, so such a row fails with PARTITION_NOT_EXISTS (36) as the seed guide says.
  bool writer_dynamic_create_partition = false;
  /// "client.scanner.log.fetch.max-bytes": budget of one fetch response. Default 16 MiB.
  int32_t fetch_max_bytes = 16 * 1024 * 1024;
  /// "client.scanner.log.fetch.max-bytes-for-bucket": per-bucket budget. Default 1 MiB.
  int32_t fetch_max_bytes_for_bucket = 1024 * 1024;
  /// "client.scanner.log.fetch.min-bytes": server waits for this many bytes. Default 1.
  int32_t fetch_min_bytes = 1;
  /// "client.scanner.log.fetch.wait-max-time": longest server-side fetch wait. Default 500 ms.
  int32_t fetch_wait_max_time_ms = 500;
  /// "client.scanner.log.check-crc": verify the CRC-32C of every fetched log batch that holds
  /// all its columns (a projection pushed down to the server changes the bytes, so those are
  /// not checked), failing the read with CORRUPT_RECORD_EXCEPTION (14) on a mismatch. Default
  /// true, as the Java client; false skips the check (~5% of a scan's CPU).
  bool scanner_check_crc = true;
  /// "client.scanner.log.max-poll-records": records one record-scanner poll returns at most
  /// (the rest stay buffered for the next poll). Default 500, as the Java client.
  int32_t max_poll_records = 500;
  /// "client.lookup.max-batch-size": keys one Lookup / PrefixLookup request carries at most.
  /// Default 128, as the Java client.
  int32_t lookup_max_batch_size = 128;
  /// "client.lookup.max-inflight-requests": lookup requests of one lookuper in flight at most.
  /// Default 128, as the Java client.
  int32_t lookup_max_inflight_requests = 128;
  /// "client.request-timeout": deadline of every request. Default 30 s. A fetch, which the leader
  /// may hold for up to client.scanner.log.fetch.wait-max-time, gets that wait on top.
  int64_t request_timeout_ms = 30000;
  /// "client.connect-timeout": deadline of a TCP connect. Default 120 s.
  int64_t connect_timeout_ms = 120000;
  /// "client.security.protocol" / "security.protocol" (the later pyfluss spelling): PLAINTEXT
  /// (default) or SASL, case-insensitive. With SASL every connection the client opens (bootstrap
  /// servers, coordinator, each tablet server, every reconnect) sends AUTHENTICATE right after
  /// ApiVersions and sends nothing else until the server accepted it (protocol-rpc.md 10.1).
  SecurityProtocol security_protocol = SecurityProtocol::kPlaintext;
  /// "client.security.sasl.mechanism" / "security.sasl.mechanism": PLAIN, the only mechanism
  /// supported (case-insensitive; any other fails parsing).
  std::string sasl_mechanism = "PLAIN";
  /// "client.security.sasl.username" / "security.sasl.username", or the `username` option of
  /// "client.security.sasl.jaas.config". Set (with the password) exactly when the protocol is SASL.
  std::string sasl_username;
  /// "client.security.sasl.password" / "security.sasl.password", or the `password` option of
  /// "client.security.sasl.jaas.config". Secret: no message, log or string form shows it.
  std::string sasl_password;
};

/// Parses `properties` into ClientOptions. An unknown key or an unparsable value fails with
/// InvalidArgument naming the key. The security keys fail the same way for an unknown protocol
/// or mechanism, for SASL without both username and password (or a JAAS line naming them), for
/// a username or password without SASL, and for a JAAS line that does not parse; those messages
/// never contain the password or the JAAS line. Sizes accept plain bytes or a unit ("64mb", "1 kb");
/// durations accept plain milliseconds or a unit ("100 ms", "30 s", "2 min") and are capped
/// at kMaxDurationMs.
Result<ClientOptions> ParseClientOptions(const std::map<std::string, std::string>& properties);

}  // namespace fluss

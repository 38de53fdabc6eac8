#include "fluss/config.h"

#include "fluss/config_keys.h"

#include "fluss/client/security_config.h"

#include <cctype>
#include <algorithm>
#include <limits>
#include <map>
#include <string_view>
#include <type_traits>

namespace fluss {

namespace {

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string Lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Splits "123 unit" into the number and the lower-case unit; false if no leading digits.
bool SplitNumber(const std::string& value, long double* number, std::string* unit) {
  std::string v = Trim(value);
  size_t i = 0;
  while (i < v.size() && (std::isdigit(static_cast<unsigned char>(v[i])) || v[i] == '.')) ++i;
  if (i == 0) return false;
  try {
    size_t used = 0;
    *number = std::stold(v.substr(0, i), &used);
    if (used != i) return false;  // e.g. "1.2.3" or "1..5": stold would stop at the second dot
  } catch (...) {
    return false;
  }
  *unit = Lower(Trim(v.substr(i)));
  return true;
}

Status Bad(const std::string& key, const std::string& value, const char* expected) {
  return Status::InvalidArgument("config '" + key + "': cannot parse '" + value + "' as " + expected);
}

Status ParseSize(const std::string& key, const std::string& value, int64_t min, int64_t max, int64_t* out) {
  long double n;
  std::string unit;
  if (!SplitNumber(value, &n, &unit)) return Bad(key, value, "a size in bytes");
  long double mult;
  if (unit.empty() || unit == "b" || unit == "bytes") mult = 1;
  else if (unit == "k" || unit == "kb" || unit == "kib") mult = 1024.0L;
  else if (unit == "m" || unit == "mb" || unit == "mib") mult = 1024.0L * 1024;
  else if (unit == "g" || unit == "gb" || unit == "gib") mult = 1024.0L * 1024 * 1024;
  else return Bad(key, value, "a size in bytes (units b, kb, mb, gb)");
  long double bytes = n * mult;
  if (bytes < static_cast<long double>(min) || bytes > static_cast<long double>(max))
    return Status::InvalidArgument("config '" + key + "': " + value + " is out of range (" + std::to_string(min) +
                                   ".." + std::to_string(max) + " bytes)");
  *out = static_cast<int64_t>(bytes);
  return Status::OK();
}

Status ParseDurationMs(const std::string& key, const std::string& value, int64_t* out) {
  long double n;
  std::string unit;
  if (!SplitNumber(value, &n, &unit)) return Bad(key, value, "a duration");
  long double mult;
  if (unit.empty() || unit == "ms" || unit == "milli" || unit == "millis") mult = 1;
  else if (unit == "s" || unit == "sec" || unit == "secs" || unit == "second" || unit == "seconds") mult = 1000;
  else if (unit == "min" || unit == "m" || unit == "minute" || unit == "minutes") mult = 60000;
  else if (unit == "h" || unit == "hour" || unit == "hours") mult = 3600000;
  else return Bad(key, value, "a duration (units ms, s, min, h)");
  long double ms = n * mult;
  // Longer than kMaxDurationMs means "no limit": cap it so deadlines stay in the clock's range.
  *out = ms >= static_cast<long double>(kMaxDurationMs) ? kMaxDurationMs : static_cast<int64_t>(ms);
  return Status::OK();
}

Status ParseInt(const std::string& key, const std::string& value, int64_t lo, int64_t hi, int64_t* out) {
  std::string v = Trim(value);
  if (v.empty()) return Bad(key, value, "an integer");
  size_t pos = 0;
  long long n;
  try {
    n = std::stoll(v, &pos);
  } catch (...) {
    return Bad(key, value, "an integer");
  }
  if (pos != v.size()) return Bad(key, value, "an integer");
  if (n < lo || n > hi)
    return Status::InvalidArgument("config '" + key + "': " + value + " is out of range (" +
                                   std::to_string(lo) + ".." + std::to_string(hi) + ")");
  *out = n;
  return Status::OK();
}

// ---- the table of keys ----

// What ParseClientOptions fills while it reads the keys: the options, and which spelling of
// each security key was given (ResolveSecurity names them in its messages).
struct ParseState {
  ClientOptions o;
  client::SecurityKeys security;
  std::string mechanism_key;
};

// Reads `value` (given under the spelling `key`) into the state, as entry `e` describes.
using Apply = Status (*)(const ConfigKeyInfo& e, ParseState& s, const std::string& key, const std::string& value);

struct KeyEntry {
  ConfigKeyInfo info;
  Apply apply;
};

// Records which spelling set a security option; two spellings of one option are refused.
Status NoteKey(std::string* slot, const std::string& k) {
  if (!slot->empty() && *slot != k)
    return Status::InvalidArgument("config '" + *slot + "' and '" + k + "' set the same option: give one");
  *slot = k;
  return Status::OK();
}

template <auto Field>
Status BytesInto(const ConfigKeyInfo& e, ParseState& s, const std::string& k, const std::string& v) {
  int64_t n;
  FLUSS_RETURN_NOT_OK(ParseSize(k, v, e.min, e.max, &n));
  using T = std::remove_reference_t<decltype(s.o.*Field)>;
  s.o.*Field = static_cast<T>(n);
  return Status::OK();
}

template <auto Field>
Status MillisecondsInto(const ConfigKeyInfo& e, ParseState& s, const std::string& k, const std::string& v) {
  int64_t n;
  FLUSS_RETURN_NOT_OK(ParseDurationMs(k, v, &n));
  if (n < e.min) {
    return e.min == 1 ? Status::InvalidArgument("config '" + k + "' must be positive")
                      : Status::InvalidArgument("config '" + k + "' must be at least " + std::to_string(e.min) + " ms");
  }
  using T = std::remove_reference_t<decltype(s.o.*Field)>;
  s.o.*Field = static_cast<T>(std::min<int64_t>(n, e.max));  // int32 options saturate at INT32_MAX
  return Status::OK();
}

template <auto Field>
Status CountInto(const ConfigKeyInfo& e, ParseState& s, const std::string& k, const std::string& v) {
  int64_t n;
  FLUSS_RETURN_NOT_OK(ParseInt(k, v, e.min, e.max, &n));
  using T = std::remove_reference_t<decltype(s.o.*Field)>;
  s.o.*Field = static_cast<T>(n);
  return Status::OK();
}

template <auto Field>
Status BoolInto(const ConfigKeyInfo&, ParseState& s, const std::string& k, const std::string& v) {
  std::string b = Lower(Trim(v));
  if (b == "true") s.o.*Field = true;
  else if (b == "false") s.o.*Field = false;
  else return Bad(k, v, "a boolean (true or false)");
  return Status::OK();
}

Status BootstrapInto(const ConfigKeyInfo&, ParseState& s, const std::string& k, const std::string& v) {
  if (Trim(v).empty()) return Status::InvalidArgument("config '" + k + "': empty server list");
  s.o.bootstrap_servers = Trim(v);
  return Status::OK();
}

Status AcksInto(const ConfigKeyInfo&, ParseState& s, const std::string& k, const std::string& v) {
  std::string a = Lower(Trim(v));
  if (a == "all" || a == "-1") s.o.writer_acks = -1;
  else if (a == "0") s.o.writer_acks = 0;
  else if (a == "1") s.o.writer_acks = 1;
  else return Bad(k, v, "acks (all, -1, 0 or 1)");
  return Status::OK();
}

// Security keys (protocol-rpc.md 10.2): parsed here, cross-checked by ResolveSecurity
// (security_config.h), which needs to know which spelling of each key was used.
Status ProtocolInto(const ConfigKeyInfo&, ParseState& s, const std::string& k, const std::string& v) {
  const std::string p = Lower(Trim(v));
  if (p == "plaintext") s.o.security_protocol = SecurityProtocol::kPlaintext;
  else if (p == "sasl") s.o.security_protocol = SecurityProtocol::kSasl;
  else return Bad(k, v, "a security protocol (PLAINTEXT or SASL)");
  return NoteKey(&s.security.protocol, k);
}

Status MechanismInto(const ConfigKeyInfo&, ParseState& s, const std::string& k, const std::string& v) {
  if (Lower(Trim(v)) != "plain")
    return Status::InvalidArgument("config '" + k + "': SASL mechanism '" + v + "' is not supported (only PLAIN)");
  s.o.sasl_mechanism = "PLAIN";
  return NoteKey(&s.mechanism_key, k);
}

// Credentials are taken as given (no trimming: a password may start or end with a space).
Status UsernameInto(const ConfigKeyInfo&, ParseState& s, const std::string& k, const std::string& v) {
  s.o.sasl_username = v;
  return NoteKey(&s.security.username, k);
}
Status PasswordInto(const ConfigKeyInfo&, ParseState& s, const std::string& k, const std::string& v) {
  s.o.sasl_password = v;
  return NoteKey(&s.security.password, k);
}
Status JaasInto(const ConfigKeyInfo&, ParseState& s, const std::string& k, const std::string& v) {
  s.security.jaas_text = v;
  return NoteKey(&s.security.jaas_config, k);
}

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

// The table: every key the parser accepts, with what the reference says of it. The defaults are
// those of ClientOptions (config_test.cc checks that each parses to ClientOptions{}).
// clang-format off
const KeyEntry kKeys[] = {
  {{.key = "bootstrap.servers", .seed_key = "bootstrap.servers", .pyfluss_key = "bootstrap.servers",
    .default_value = "127.0.0.1:9123", .kind = ConfigKind::kText, .min = 0, .max = 0, .values = "",
    .description = "Comma-separated host:port list of the servers asked first for the cluster's metadata "
                   "(the Java client's bootstrap.servers); any one of them that answers is enough."},
   &BootstrapInto},
  {{.key = "client.writer.request-max-size", .seed_key = "request.max.size", .pyfluss_key = "writer.request-max-size",
    .default_value = "10485760", .kind = ConfigKind::kBytes, .min = 1, .max = kInt32Max, .values = "",
    .description = "Largest produce or put request the writer sends to one tablet server, in bytes "
                   "(the Java client's client.writer.request-max-size, 10 MiB)."},
   &BytesInto<&ClientOptions::request_max_size>},
  {{.key = "client.writer.acks", .seed_key = "writer.acks", .pyfluss_key = "writer.acks",
    .default_value = "all", .kind = ConfigKind::kEnum, .min = 0, .max = 0, .values = "all, -1, 0, 1",
    .description = "The acks every produce and put request carries, as in the Java client: all (the same as -1) "
                   "waits for every in-sync replica, 1 for the leader alone, 0 for none; idempotence needs all."},
   &AcksInto},
  {{.key = "client.writer.retries", .seed_key = "writer.retries", .pyfluss_key = "writer.retries",
    .default_value = "2147483647", .kind = ConfigKind::kCount, .min = 0, .max = kInt32Max, .values = "",
    .description = "How many times a batch that failed with a retriable error is sent again before its writes fail "
                   "(within client.writer.delivery-timeout); 0 turns idempotence off."},
   &CountInto<&ClientOptions::writer_retries>},
  {{.key = "client.writer.batch-size", .seed_key = "writer.batch.size", .pyfluss_key = "writer.batch-size",
    .default_value = "2097152", .kind = ConfigKind::kBytes, .min = 1, .max = kInt32Max, .values = "",
    .description = "Size in bytes at which a bucket's open batch is closed and sent "
                   "(the Java client's client.writer.batch-size, 2 MiB)."},
   &BytesInto<&ClientOptions::writer_batch_size>},
  {{.key = "client.writer.batch-timeout", .seed_key = "", .pyfluss_key = "writer.batch-timeout-ms",
    .default_value = "100", .kind = ConfigKind::kMilliseconds, .min = 0, .max = kMaxDurationMs, .values = "",
    .description = "How long a batch that is not full waits for more rows before it is sent "
                   "(the Java client's client.writer.batch-timeout, 100 ms)."},
   &MillisecondsInto<&ClientOptions::writer_batch_timeout_ms>},
  {{.key = "client.writer.buffer.memory-size", .seed_key = "", .pyfluss_key = "writer.buffer.memory-size",
    .default_value = "67108864", .kind = ConfigKind::kBytes, .min = 1, .max = INT64_MAX / 4, .values = "",
    .description = "Bytes of write data the connection's writers hold, queued or in flight, before an append "
                   "has to wait for room (the Java client's client.writer.buffer.memory-size, 64 MiB)."},
   &BytesInto<&ClientOptions::writer_buffer_memory_size>},
  {{.key = "client.writer.buffer.wait-timeout", .seed_key = "", .pyfluss_key = "writer.buffer.wait-timeout-ms",
    .default_value = "316224000000", .kind = ConfigKind::kMilliseconds, .min = 0, .max = kMaxDurationMs,
    .values = "",
    .description = "How long an append waits for buffer room before it fails (a Python append on an event-loop "
                   "thread fails at once instead, retriable); the default, kMaxDurationMs (about 10 years), means "
                   "no limit, as in the Java client."},
   &MillisecondsInto<&ClientOptions::writer_buffer_wait_timeout_ms>},
  {{.key = "client.writer.delivery-timeout", .seed_key = "", .pyfluss_key = "",
    .default_value = "120000", .kind = ConfigKind::kMilliseconds, .min = 1, .max = kMaxDurationMs, .values = "",
    .description = "Longest time from a row's append to its batch's acknowledgement, retries included, after which "
                   "the write fails with a timeout (code 25), on the model of Kafka's delivery.timeout.ms."},
   &MillisecondsInto<&ClientOptions::writer_delivery_timeout_ms>},
  {{.key = "client.writer.enable-idempotence", .seed_key = "", .pyfluss_key = "writer.enable-idempotence",
    .default_value = "true", .kind = ConfigKind::kBool, .min = 0, .max = 0, .values = "true, false",
    .description = "A writer id and per-bucket batch sequence numbers, so that a retried batch is stored once "
                   "(the Java client's client.writer.enable-idempotence); it needs acks all and retries > 0, and is "
                   "off otherwise unless set to true, which is then refused."},
   &BoolInto<&ClientOptions::writer_enable_idempotence>},
  {{.key = "client.writer.dynamic-create-partition.enabled", .seed_key = "", .pyfluss_key = "",
    .default_value = "false", .kind = ConfigKind::kBool, .min = 0, .max = 0, .values = "true, false",
    .description = "Whether a row for a partition that does not exist makes the writer create it, as the Java "
                   "client does by default; here off by default, so such a row fails with PARTITION_NOT_EXISTS (36) "
                   "as the seed guide says."},
   &BoolInto<&ClientOptions::writer_dynamic_create_partition>},
  {{.key = "client.scanner.log.fetch.max-bytes", .seed_key = "", .pyfluss_key = "scanner.log.fetch.max-bytes",
    .default_value = "16777216", .kind = ConfigKind::kBytes, .min = 1, .max = kInt32Max, .values = "",
    .description = "Byte budget of one fetch response from a tablet server "
                   "(the Java client's client.scanner.log.fetch.max-bytes, 16 MiB)."},
   &BytesInto<&ClientOptions::fetch_max_bytes>},
  {{.key = "client.scanner.log.fetch.max-bytes-for-bucket", .seed_key = "",
    .pyfluss_key = "scanner.log.fetch.max-bytes-for-bucket",
    .default_value = "1048576", .kind = ConfigKind::kBytes, .min = 1, .max = kInt32Max, .values = "",
    .description = "Byte budget of one bucket in a fetch response; a batch cut at it is asked for whole by the next "
                   "fetch, up to client.scanner.log.fetch.max-bytes (the Java client's "
                   "client.scanner.log.fetch.max-bytes-for-bucket, 1 MiB)."},
   &BytesInto<&ClientOptions::fetch_max_bytes_for_bucket>},
  {{.key = "client.scanner.log.fetch.min-bytes", .seed_key = "", .pyfluss_key = "scanner.log.fetch.min-bytes",
    .default_value = "1", .kind = ConfigKind::kBytes, .min = 1, .max = kInt32Max, .values = "",
    .description = "Bytes a tablet server waits to have for a fetch before it answers, waiting at most "
                   "client.scanner.log.fetch.wait-max-time (the Java client's client.scanner.log.fetch.min-bytes)."},
   &BytesInto<&ClientOptions::fetch_min_bytes>},
  {{.key = "client.scanner.log.fetch.wait-max-time", .seed_key = "",
    .pyfluss_key = "scanner.log.fetch.wait-max-time-ms",
    .default_value = "500", .kind = ConfigKind::kMilliseconds, .min = 0, .max = kInt32Max, .values = "",
    .description = "Longest time a tablet server holds a fetch waiting for client.scanner.log.fetch.min-bytes "
                   "(the Java client's client.scanner.log.fetch.wait-max-time, 500 ms)."},
   &MillisecondsInto<&ClientOptions::fetch_wait_max_time_ms>},
  {{.key = "client.scanner.log.max-poll-records", .seed_key = "", .pyfluss_key = "scanner.log.max-poll-records",
    .default_value = "500", .kind = ConfigKind::kCount, .min = 1, .max = kInt32Max, .values = "",
    .description = "Records one poll of a record scanner returns at most, the rest staying buffered for the next "
                   "poll (the Java client's client.scanner.log.max-poll-records, 500)."},
   &CountInto<&ClientOptions::max_poll_records>},
  {{.key = "client.scanner.log.check-crc", .seed_key = "", .pyfluss_key = "",
    .default_value = "true", .kind = ConfigKind::kBool, .min = 0, .max = 0, .values = "true, false",
    .description = "Whether the CRC-32C of every fetched log batch that holds all its columns is verified, a "
                   "mismatch failing the read with CORRUPT_RECORD_EXCEPTION (14), as the Java client's "
                   "client.scanner.log.check-crc."},
   &BoolInto<&ClientOptions::scanner_check_crc>},
  {{.key = "client.lookup.max-batch-size", .seed_key = "", .pyfluss_key = "",
    .default_value = "128", .kind = ConfigKind::kCount, .min = 1, .max = kInt32Max, .values = "",
    .description = "Keys one lookup or prefix-lookup request carries at most "
                   "(the Java client's client.lookup.max-batch-size, 128)."},
   &CountInto<&ClientOptions::lookup_max_batch_size>},
  {{.key = "client.lookup.max-inflight-requests", .seed_key = "", .pyfluss_key = "",
    .default_value = "128", .kind = ConfigKind::kCount, .min = 1, .max = kInt32Max, .values = "",
    .description = "Lookup requests of one lookuper in flight at once at most "
                   "(the Java client's client.lookup.max-inflight-requests, 128)."},
   &CountInto<&ClientOptions::lookup_max_inflight_requests>},
  {{.key = "client.request-timeout", .seed_key = "", .pyfluss_key = "",
    .default_value = "30000", .kind = ConfigKind::kMilliseconds, .min = 1, .max = kMaxDurationMs, .values = "",
    .description = "Deadline of every request, a fetch getting client.scanner.log.fetch.wait-max-time on top "
                   "(the Java client's client.request-timeout, 30 s)."},
   &MillisecondsInto<&ClientOptions::request_timeout_ms>},
  {{.key = "client.connect-timeout", .seed_key = "", .pyfluss_key = "connect-timeout",
    .default_value = "120000", .kind = ConfigKind::kMilliseconds, .min = 1, .max = kMaxDurationMs, .values = "",
    .description = "Deadline of one TCP connect to a server (the Java client's client.connect-timeout, 120 s)."},
   &MillisecondsInto<&ClientOptions::connect_timeout_ms>},
  {{.key = "client.security.protocol", .seed_key = "", .pyfluss_key = "security.protocol",
    .default_value = "PLAINTEXT", .kind = ConfigKind::kEnum, .min = 0, .max = 0, .values = "PLAINTEXT, SASL",
    .description = "How every connection authenticates, as the Java client's client.security.protocol: PLAINTEXT "
                   "not at all, SASL with the SASL/PLAIN handshake right after ApiVersions, before any other request."},
   &ProtocolInto},
  {{.key = "client.security.sasl.mechanism", .seed_key = "", .pyfluss_key = "security.sasl.mechanism",
    .default_value = "PLAIN", .kind = ConfigKind::kEnum, .min = 0, .max = 0, .values = "PLAIN",
    .description = "The SASL mechanism (the Java client's client.security.sasl.mechanism); PLAIN is the only one "
                   "supported."},
   &MechanismInto},
  {{.key = "client.security.sasl.username", .seed_key = "", .pyfluss_key = "security.sasl.username",
    .default_value = "", .kind = ConfigKind::kText, .min = 0, .max = 0, .values = "",
    .description = "The SASL/PLAIN username, taken as given; set together with the password exactly when the "
                   "protocol is SASL (or give client.security.sasl.jaas.config instead)."},
   &UsernameInto},
  {{.key = "client.security.sasl.password", .seed_key = "", .pyfluss_key = "security.sasl.password",
    .default_value = "", .kind = ConfigKind::kSecret, .min = 0, .max = 0, .values = "",
    .description = "The SASL/PLAIN password, taken as given; no message, log line or repr(Config) shows it."},
   &PasswordInto},
  {{.key = "client.security.sasl.jaas.config", .seed_key = "", .pyfluss_key = "",
    .default_value = "", .kind = ConfigKind::kSecret, .min = 0, .max = 0, .values = "",
    .description = "Instead of the username and password keys, a JAAS line naming both "
                   "(org.apache.fluss.security.auth.sasl.plain.PlainLoginModule required username=\"u\" "
                   "password=\"p\";), read as the Java client reads it."},
   &JaasInto},
};
// clang-format on

// Every spelling of every key, to its entry.
const std::map<std::string_view, const KeyEntry*>& Spellings() {
  static const auto* spellings = [] {
    auto* m = new std::map<std::string_view, const KeyEntry*>();
    for (const KeyEntry& e : kKeys)
      for (std::string_view k : {e.info.key, e.info.seed_key, e.info.pyfluss_key})
        if (!k.empty()) m->emplace(k, &e);
    return m;
  }();
  return *spellings;
}

const KeyEntry* FindEntry(std::string_view spelling) {
  auto it = Spellings().find(spelling);
  return it == Spellings().end() ? nullptr : it->second;
}

// Whether `properties` holds any spelling of `info`.
bool Given(const std::map<std::string, std::string>& properties, const ConfigKeyInfo& info) {
  for (std::string_view k : {info.key, info.seed_key, info.pyfluss_key})
    if (!k.empty() && properties.count(std::string(k))) return true;
  return false;
}

}  // namespace

std::string_view ConfigKindName(ConfigKind kind) {
  switch (kind) {
    case ConfigKind::kText: return "text";
    case ConfigKind::kBytes: return "bytes";
    case ConfigKind::kMilliseconds: return "milliseconds";
    case ConfigKind::kCount: return "count";
    case ConfigKind::kBool: return "bool";
    case ConfigKind::kEnum: return "enum";
    case ConfigKind::kSecret: return "secret";
  }
  return "?";
}

const std::vector<ConfigKeyInfo>& ConfigKeys() {
  static const auto* keys = [] {
    auto* v = new std::vector<ConfigKeyInfo>();
    for (const KeyEntry& e : kKeys) v->push_back(e.info);
    return v;
  }();
  return *keys;
}

const ConfigKeyInfo* FindConfigKey(std::string_view spelling) {
  const KeyEntry* e = FindEntry(spelling);
  return e ? &ConfigKeys()[static_cast<size_t>(e - kKeys)] : nullptr;  // the entry ConfigKeys() holds
}

Result<ClientOptions> ParseClientOptions(const std::map<std::string, std::string>& properties) {
  ParseState s;
  for (const auto& [key, value] : properties) {
    const KeyEntry* e = FindEntry(key);
    if (e == nullptr) return Status::InvalidArgument("config '" + key + "': unknown property");
    // Two spellings of one property (Java, seed, pyfluss 1.0): refused, whichever they are;
    // neither value could be said to win. Checked from the other spelling, so that the message
    // names it first and the Java key second.
    for (std::string_view other : {e->info.key, e->info.seed_key, e->info.pyfluss_key}) {
      if (key != e->info.key && !other.empty() && other != key && properties.count(std::string(other)))
        return Status::InvalidArgument("config '" + key + "' and '" + std::string(other) +
                                       "' set the same property: give one of them");
    }
    FLUSS_RETURN_NOT_OK(e->apply(e->info, s, key, value));  // errors name `key`, as given
  }
  ClientOptions& o = s.o;
  // Idempotence needs acks=all and retries (as the Java client); on by default only where it can work.
  if (o.writer_acks != -1 || o.writer_retries == 0) {
    if (Given(properties, FindEntry("client.writer.enable-idempotence")->info) && o.writer_enable_idempotence)
      return Status::InvalidArgument("config 'client.writer.enable-idempotence' = true needs writer.acks = all and "
                                     "writer.retries > 0");
    o.writer_enable_idempotence = false;
  }
  FLUSS_RETURN_NOT_OK(client::ResolveSecurity(s.security, &o));
  return o;
}

}  // namespace fluss

#include "fluss/config.h"

#include "fluss/client/security_config.h"

#include <cctype>
#include <functional>
#include <limits>

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

Status ParseSize(const std::string& key, const std::string& value, int64_t max, int64_t* out) {
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
  if (bytes < 1 || bytes > static_cast<long double>(max))
    return Status::InvalidArgument("config '" + key + "': " + value + " is out of range (1.." +
                                   std::to_string(max) + " bytes)");
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

}  // namespace

Result<ClientOptions> ParseClientOptions(const std::map<std::string, std::string>& properties) {
  ClientOptions o;
  using Setter = std::function<Status(const std::string&, const std::string&)>;
  auto size_into = [&](auto* field, int64_t max) -> Setter {
    return [field, max](const std::string& k, const std::string& v) {
      int64_t n;
      FLUSS_RETURN_NOT_OK(ParseSize(k, v, max, &n));
      *field = static_cast<std::remove_pointer_t<decltype(field)>>(n);
      return Status::OK();
    };
  };
  auto duration_into = [&](auto* field) -> Setter {
    return [field](const std::string& k, const std::string& v) {
      using T = std::remove_pointer_t<decltype(field)>;
      int64_t n;
      FLUSS_RETURN_NOT_OK(ParseDurationMs(k, v, &n));
      *field = static_cast<T>(std::min<int64_t>(n, std::numeric_limits<T>::max()));  // int32 fields saturate
      return Status::OK();
    };
  };
  Setter bootstrap = [&](const std::string& k, const std::string& v) {
    if (Trim(v).empty()) return Status::InvalidArgument("config '" + k + "': empty server list");
    o.bootstrap_servers = Trim(v);
    return Status::OK();
  };
  Setter acks = [&](const std::string& k, const std::string& v) {
    std::string a = Lower(Trim(v));
    if (a == "all" || a == "-1") o.writer_acks = -1;
    else if (a == "0") o.writer_acks = 0;
    else if (a == "1") o.writer_acks = 1;
    else return Bad(k, v, "acks (all, -1, 0 or 1)");
    return Status::OK();
  };
  Setter retries = [&](const std::string& k, const std::string& v) {
    int64_t n;
    FLUSS_RETURN_NOT_OK(ParseInt(k, v, 0, std::numeric_limits<int32_t>::max(), &n));
    o.writer_retries = static_cast<int32_t>(n);
    return Status::OK();
  };
  auto bool_into = [&](bool* field) -> Setter {
    return [field](const std::string& k, const std::string& v) {
      std::string b = Lower(Trim(v));
      if (b == "true") *field = true;
      else if (b == "false") *field = false;
      else return Bad(k, v, "a boolean (true or false)");
      return Status::OK();
    };
  };
  Setter min_bytes = [&](const std::string& k, const std::string& v) {
    int64_t n;
    FLUSS_RETURN_NOT_OK(ParseSize(k, v, std::numeric_limits<int32_t>::max(), &n));
    o.fetch_min_bytes = static_cast<int32_t>(n);
    return Status::OK();
  };
  auto positive_into = [&](int32_t* field) -> Setter {
    return [field](const std::string& k, const std::string& v) {
      int64_t n;
      FLUSS_RETURN_NOT_OK(ParseInt(k, v, 1, std::numeric_limits<int32_t>::max(), &n));
      *field = static_cast<int32_t>(n);
      return Status::OK();
    };
  };
  // Security keys (protocol-rpc.md 10.2): parsed here, cross-checked by ResolveSecurity
  // (security_config.h), which needs to know which spelling of each key was used.
  client::SecurityKeys security;
  std::string mechanism_key;
  auto note_key = [](std::string* slot, const std::string& k) {
    if (!slot->empty() && *slot != k)
      return Status::InvalidArgument("config '" + *slot + "' and '" + k + "' set the same option: give one");
    *slot = k;
    return Status::OK();
  };
  Setter protocol = [&](const std::string& k, const std::string& v) {
    const std::string p = Lower(Trim(v));
    if (p == "plaintext") o.security_protocol = SecurityProtocol::kPlaintext;
    else if (p == "sasl") o.security_protocol = SecurityProtocol::kSasl;
    else return Bad(k, v, "a security protocol (PLAINTEXT or SASL)");
    return note_key(&security.protocol, k);
  };
  Setter mechanism = [&](const std::string& k, const std::string& v) {
    if (Lower(Trim(v)) != "plain")
      return Status::InvalidArgument("config '" + k + "': SASL mechanism '" + v + "' is not supported (only PLAIN)");
    o.sasl_mechanism = "PLAIN";
    return note_key(&mechanism_key, k);
  };
  // Credentials are taken as given (no trimming: a password may start or end with a space).
  auto secret_into = [&](std::string* field, std::string* key_slot) -> Setter {
    return [field, key_slot, &note_key](const std::string& k, const std::string& v) {
      *field = v;
      return note_key(key_slot, k);
    };
  };
  const int64_t kInt32Max = std::numeric_limits<int32_t>::max();
  const std::map<std::string, Setter> setters = {
      {"bootstrap.servers", bootstrap},
      {"request.max.size", size_into(&o.request_max_size, kInt32Max)},
      {"client.writer.request-max-size", size_into(&o.request_max_size, kInt32Max)},
      {"writer.acks", acks},
      {"client.writer.acks", acks},
      {"writer.retries", retries},
      {"client.writer.retries", retries},
      {"writer.batch.size", size_into(&o.writer_batch_size, kInt32Max)},
      {"client.writer.batch-size", size_into(&o.writer_batch_size, kInt32Max)},
      {"client.writer.batch-timeout", duration_into(&o.writer_batch_timeout_ms)},
      {"client.writer.buffer.memory-size", size_into(&o.writer_buffer_memory_size, INT64_MAX / 4)},
      {"client.writer.buffer.wait-timeout", duration_into(&o.writer_buffer_wait_timeout_ms)},
      {"client.writer.delivery-timeout", duration_into(&o.writer_delivery_timeout_ms)},
      {"client.writer.enable-idempotence", bool_into(&o.writer_enable_idempotence)},
      {"client.writer.dynamic-create-partition.enabled", bool_into(&o.writer_dynamic_create_partition)},
      {"client.scanner.log.fetch.max-bytes", size_into(&o.fetch_max_bytes, kInt32Max)},
      {"client.scanner.log.fetch.max-bytes-for-bucket", size_into(&o.fetch_max_bytes_for_bucket, kInt32Max)},
      {"client.scanner.log.fetch.min-bytes", min_bytes},
      {"client.scanner.log.fetch.wait-max-time", duration_into(&o.fetch_wait_max_time_ms)},
      {"client.scanner.log.max-poll-records", positive_into(&o.max_poll_records)},
      {"client.scanner.log.check-crc", bool_into(&o.scanner_check_crc)},
      {"client.lookup.max-batch-size", positive_into(&o.lookup_max_batch_size)},
      {"client.lookup.max-inflight-requests", positive_into(&o.lookup_max_inflight_requests)},
      {"client.request-timeout", duration_into(&o.request_timeout_ms)},
      {"client.connect-timeout", duration_into(&o.connect_timeout_ms)},
      {"client.security.protocol", protocol},
      {"security.protocol", protocol},
      {"client.security.sasl.mechanism", mechanism},
      {"security.sasl.mechanism", mechanism},
      {"client.security.sasl.username", secret_into(&o.sasl_username, &security.username)},
      {"security.sasl.username", secret_into(&o.sasl_username, &security.username)},
      {"client.security.sasl.password", secret_into(&o.sasl_password, &security.password)},
      {"security.sasl.password", secret_into(&o.sasl_password, &security.password)},
      {"client.security.sasl.jaas.config", secret_into(&security.jaas_text, &security.jaas_config)},
  };
  // The later pyfluss (1.0) spellings, each the key it stands for (its "-ms" keys are
  // milliseconds, which is what a bare number means here too).
  static const std::map<std::string, std::string> kPyflussKeys = {
      {"writer.request-max-size", "client.writer.request-max-size"},
      {"writer.batch-size", "client.writer.batch-size"},
      {"writer.batch-timeout-ms", "client.writer.batch-timeout"},
      {"writer.buffer.memory-size", "client.writer.buffer.memory-size"},
      {"writer.buffer.wait-timeout-ms", "client.writer.buffer.wait-timeout"},
      {"writer.enable-idempotence", "client.writer.enable-idempotence"},
      {"scanner.log.fetch.max-bytes", "client.scanner.log.fetch.max-bytes"},
      {"scanner.log.fetch.max-bytes-for-bucket", "client.scanner.log.fetch.max-bytes-for-bucket"},
      {"scanner.log.fetch.min-bytes", "client.scanner.log.fetch.min-bytes"},
      {"scanner.log.fetch.wait-max-time-ms", "client.scanner.log.fetch.wait-max-time"},
      {"scanner.log.max-poll-records", "client.scanner.log.max-poll-records"},
      {"connect-timeout", "client.connect-timeout"},
  };
  for (const auto& [key, value] : properties) {
    auto alias = kPyflussKeys.find(key);
    if (alias != kPyflussKeys.end()) {
      if (properties.count(alias->second))
        return Status::InvalidArgument("config '" + key + "' and '" + alias->second +
                                       "' set the same property: give one of them");
    }
    auto it = setters.find(alias == kPyflussKeys.end() ? key : alias->second);  // errors name `key`
    if (it == setters.end()) return Status::InvalidArgument("config '" + key + "': unknown property");
    FLUSS_RETURN_NOT_OK(it->second(key, value));
  }
  // Idempotence needs acks=all and retries (as the Java client); on by default only where it can work.
  if (o.writer_acks != -1 || o.writer_retries == 0) {
    if ((properties.count("client.writer.enable-idempotence") || properties.count("writer.enable-idempotence")) &&
        o.writer_enable_idempotence)
      return Status::InvalidArgument("config 'client.writer.enable-idempotence' = true needs writer.acks = all and "
                                     "writer.retries > 0");
    o.writer_enable_idempotence = false;
  }
  if (o.request_timeout_ms <= 0) return Status::InvalidArgument("config 'client.request-timeout' must be positive");
  if (o.writer_delivery_timeout_ms <= 0)
    return Status::InvalidArgument("config 'client.writer.delivery-timeout' must be positive");
  if (o.connect_timeout_ms <= 0) return Status::InvalidArgument("config 'client.connect-timeout' must be positive");
  FLUSS_RETURN_NOT_OK(client::ResolveSecurity(security, &o));
  return o;
}

}  // namespace fluss

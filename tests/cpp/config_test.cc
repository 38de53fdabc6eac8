// ParseClientOptions (include/fluss/config.h): the seed guide's keys and the Java client's keys,
// sizes and durations with units, and errors that name the offending key.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <string>

#include "fluss/config.h"
#include "fluss/config_keys.h"

namespace {

using fluss::ClientOptions;
using fluss::ConfigKeyInfo;
using fluss::ConfigKeys;
using fluss::ConfigKind;
using fluss::ConfigKindName;
using fluss::FindConfigKey;
using fluss::kMaxDurationMs;
using fluss::ParseClientOptions;
using fluss::StatusCode;
using Props = std::map<std::string, std::string>;

ClientOptions MustParseOptions(const Props& p) {
  auto r = ParseClientOptions(p);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : ClientOptions{};
}

constexpr int64_t kKiB = 1024;
constexpr int64_t kMiB = 1024 * 1024;

TEST(Config, DefaultsWhenEmpty) {
  // The defaults documented in config.h (which follow the Java client's defaults).
  auto o = MustParseOptions({});
  EXPECT_EQ(o.bootstrap_servers, "127.0.0.1:9123");
  EXPECT_EQ(o.request_max_size, 10 * kMiB);
  EXPECT_EQ(o.writer_acks, -1);
  EXPECT_EQ(o.writer_retries, std::numeric_limits<int32_t>::max());
  EXPECT_EQ(o.writer_batch_size, 2 * kMiB);
  EXPECT_EQ(o.writer_batch_timeout_ms, 100);
  EXPECT_EQ(o.writer_buffer_memory_size, 64 * kMiB);
  EXPECT_TRUE(o.writer_enable_idempotence);
  EXPECT_EQ(o.fetch_max_bytes, 16 * kMiB);
  EXPECT_EQ(o.fetch_max_bytes_for_bucket, 1 * kMiB);
  EXPECT_EQ(o.fetch_min_bytes, 1);
  EXPECT_EQ(o.fetch_wait_max_time_ms, 500);
  EXPECT_EQ(o.request_timeout_ms, 30000);
  EXPECT_EQ(o.connect_timeout_ms, 120000);
}

TEST(Config, SeedKeys) {
  auto o = MustParseOptions({{"bootstrap.servers", " host-a:9123,host-b:9124 "},
                      {"request.max.size", "1mb"},
                      {"writer.acks", "1"},
                      {"writer.retries", "3"},
                      {"writer.batch.size", "64kb"}});
  EXPECT_EQ(o.bootstrap_servers, "host-a:9123,host-b:9124");  // trimmed
  EXPECT_EQ(o.request_max_size, 1 * kMiB);
  EXPECT_EQ(o.writer_acks, 1);
  EXPECT_EQ(o.writer_retries, 3);
  EXPECT_EQ(o.writer_batch_size, 64 * kKiB);
}

TEST(Config, JavaKeysWithUnits) {
  auto o = MustParseOptions({{"client.writer.request-max-size", "2 mb"},
                      {"client.writer.acks", "all"},
                      {"client.writer.retries", "0"},
                      {"client.writer.batch-size", "1024"},  // plain bytes
                      {"client.writer.batch-timeout", "2 s"},
                      {"client.writer.buffer.memory-size", "1 gb"},
                      {"client.writer.buffer.wait-timeout", "1 min"},
                      {"client.writer.enable-idempotence", "FALSE"},  // case-insensitive
                      {"client.scanner.log.fetch.max-bytes", "8MB"},
                      {"client.scanner.log.fetch.max-bytes-for-bucket", "512 KiB"},
                      {"client.scanner.log.fetch.min-bytes", "1kb"},
                      {"client.scanner.log.fetch.wait-max-time", "250ms"},
                      {"client.request-timeout", "1 h"},
                      {"client.connect-timeout", "1500"}});  // plain milliseconds
  EXPECT_EQ(o.request_max_size, 2 * kMiB);
  EXPECT_EQ(o.writer_acks, -1);
  EXPECT_EQ(o.writer_retries, 0);
  EXPECT_EQ(o.writer_batch_size, 1024);
  EXPECT_EQ(o.writer_batch_timeout_ms, 2000);
  EXPECT_EQ(o.writer_buffer_memory_size, 1024 * kMiB);
  EXPECT_EQ(o.writer_buffer_wait_timeout_ms, 60000);
  EXPECT_FALSE(o.writer_enable_idempotence);
  EXPECT_EQ(o.fetch_max_bytes, 8 * kMiB);
  EXPECT_EQ(o.fetch_max_bytes_for_bucket, 512 * kKiB);
  EXPECT_EQ(o.fetch_min_bytes, 1024);
  EXPECT_EQ(o.fetch_wait_max_time_ms, 250);
  EXPECT_EQ(o.request_timeout_ms, 3600000);
  EXPECT_EQ(o.connect_timeout_ms, 1500);
}

TEST(Config, MoreUnitSpellings) {
  // Sizes: b/bytes, k/kb/kib, m/mb/mib, g/gb/gib; a fraction is allowed (1.5 kb = 1536 bytes).
  EXPECT_EQ(MustParseOptions({{"writer.batch.size", "100 bytes"}}).writer_batch_size, 100);
  EXPECT_EQ(MustParseOptions({{"writer.batch.size", "100b"}}).writer_batch_size, 100);
  EXPECT_EQ(MustParseOptions({{"writer.batch.size", "3k"}}).writer_batch_size, 3 * kKiB);
  EXPECT_EQ(MustParseOptions({{"writer.batch.size", "1.5 kb"}}).writer_batch_size, 1536);
  EXPECT_EQ(MustParseOptions({{"writer.batch.size", "2m"}}).writer_batch_size, 2 * kMiB);
  EXPECT_EQ(MustParseOptions({{"writer.batch.size", "1mib"}}).writer_batch_size, kMiB);
  // Durations: ms, s/sec/seconds, min/m/minutes, h/hours.
  EXPECT_EQ(MustParseOptions({{"client.writer.batch-timeout", "0"}}).writer_batch_timeout_ms, 0);
  EXPECT_EQ(MustParseOptions({{"client.writer.batch-timeout", "3 seconds"}}).writer_batch_timeout_ms, 3000);
  EXPECT_EQ(MustParseOptions({{"client.writer.batch-timeout", "2m"}}).writer_batch_timeout_ms, 120000);
  EXPECT_EQ(MustParseOptions({{"client.writer.batch-timeout", "1 hours"}}).writer_batch_timeout_ms, 3600000);
  // acks: "-1" is the same as "all"; "0" means fire and forget.
  EXPECT_EQ(MustParseOptions({{"writer.acks", "-1"}}).writer_acks, -1);
  EXPECT_EQ(MustParseOptions({{"writer.acks", " ALL "}}).writer_acks, -1);
  EXPECT_EQ(MustParseOptions({{"writer.acks", "0"}}).writer_acks, 0);
}

// Expects InvalidArgument whose message contains `key` (and `more`, if given).
void ExpectRejected(const Props& p, const std::string& key, const std::string& more = "") {
  auto r = ParseClientOptions(p);
  ASSERT_FALSE(r.ok()) << key << " accepted";
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << r.status().ToString();
  EXPECT_NE(r.status().message().find(key), std::string::npos) << r.status().message();
  if (!more.empty()) EXPECT_NE(r.status().message().find(more), std::string::npos) << r.status().message();
}

TEST(Config, UnknownKeysAreRejectedByName) {
  ExpectRejected({{"writer.batch_size", "1"}}, "writer.batch_size");        // typo
  ExpectRejected({{"client.writer.batch.size", "1"}}, "client.writer.batch.size");  // mixed spelling
  ExpectRejected({{"bootstrap.servers", "h:1"}, {"zzz", "1"}}, "zzz");
}

TEST(Config, BadValuesAreRejectedNamingTheKey) {
  ExpectRejected({{"writer.acks", "2"}}, "writer.acks", "'2'");
  ExpectRejected({{"client.writer.acks", "some"}}, "client.writer.acks");
  ExpectRejected({{"writer.retries", "-1"}}, "writer.retries", "out of range");
  ExpectRejected({{"writer.retries", "3x"}}, "writer.retries");
  ExpectRejected({{"writer.retries", "2147483648"}}, "writer.retries", "out of range");  // > int32
  ExpectRejected({{"writer.batch.size", "abc"}}, "writer.batch.size");
  ExpectRejected({{"writer.batch.size", "10 parsecs"}}, "writer.batch.size");
  ExpectRejected({{"writer.batch.size", "0"}}, "writer.batch.size", "out of range");
  ExpectRejected({{"writer.batch.size", "-5"}}, "writer.batch.size");
  ExpectRejected({{"writer.batch.size", ""}}, "writer.batch.size");
  ExpectRejected({{"writer.batch.size", "1.2.3 kb"}}, "writer.batch.size");  // not a number
  ExpectRejected({{"client.scanner.log.fetch.max-bytes", "4gb"}}, "client.scanner.log.fetch.max-bytes",
                 "out of range");  // an int32 field
  ExpectRejected({{"client.writer.enable-idempotence", "yes"}}, "client.writer.enable-idempotence");
  ExpectRejected({{"client.writer.batch-timeout", "soon"}}, "client.writer.batch-timeout");
  ExpectRejected({{"client.writer.batch-timeout", "5 fortnights"}}, "client.writer.batch-timeout");
  ExpectRejected({{"client.writer.batch-timeout", "1..5 s"}}, "client.writer.batch-timeout");
  ExpectRejected({{"client.request-timeout", "0"}}, "client.request-timeout", "positive");
  ExpectRejected({{"client.connect-timeout", "0 s"}}, "client.connect-timeout", "positive");
  ExpectRejected({{"bootstrap.servers", "  "}}, "bootstrap.servers");
}


// Every field of ClientOptions compared (config.h lists them).
bool SameOptions(const ClientOptions& a, const ClientOptions& b) {
  return a.bootstrap_servers == b.bootstrap_servers && a.request_max_size == b.request_max_size &&
         a.writer_acks == b.writer_acks && a.writer_retries == b.writer_retries &&
         a.writer_batch_size == b.writer_batch_size && a.writer_batch_timeout_ms == b.writer_batch_timeout_ms &&
         a.writer_buffer_memory_size == b.writer_buffer_memory_size &&
         a.writer_buffer_wait_timeout_ms == b.writer_buffer_wait_timeout_ms &&
         a.writer_delivery_timeout_ms == b.writer_delivery_timeout_ms &&
         a.writer_enable_idempotence == b.writer_enable_idempotence &&
         a.writer_dynamic_create_partition == b.writer_dynamic_create_partition &&
         a.fetch_max_bytes == b.fetch_max_bytes && a.fetch_max_bytes_for_bucket == b.fetch_max_bytes_for_bucket &&
         a.fetch_min_bytes == b.fetch_min_bytes && a.fetch_wait_max_time_ms == b.fetch_wait_max_time_ms &&
         a.scanner_check_crc == b.scanner_check_crc && a.max_poll_records == b.max_poll_records &&
         a.lookup_max_batch_size == b.lookup_max_batch_size &&
         a.lookup_max_inflight_requests == b.lookup_max_inflight_requests &&
         a.request_timeout_ms == b.request_timeout_ms && a.connect_timeout_ms == b.connect_timeout_ms &&
         a.security_protocol == b.security_protocol && a.sasl_mechanism == b.sasl_mechanism &&
         a.sasl_username == b.sasl_username && a.sasl_password == b.sasl_password;
}

// The table of keys (ConfigKeys): the reference generated from it is what the parser accepts.
TEST(ConfigKeys, EveryDefaultParsesToTheDefaultOptions) {
  const ClientOptions defaults;
  size_t with_default = 0;
  for (const ConfigKeyInfo& k : ConfigKeys()) {
    if (k.default_value.empty()) continue;
    ++with_default;
    for (std::string_view spelling : {k.key, k.seed_key, k.pyfluss_key}) {
      if (spelling.empty()) continue;
      auto o = ParseClientOptions({{std::string(spelling), std::string(k.default_value)}});
      ASSERT_TRUE(o.ok()) << spelling << ": " << o.status().ToString();
      EXPECT_TRUE(SameOptions(*o, defaults)) << spelling << " = " << k.default_value << " is not the default";
    }
  }
  EXPECT_EQ(with_default, ConfigKeys().size() - 3);  // all but the SASL username, password and JAAS line
}

TEST(ConfigKeys, TheTableIsTheParsersListOfKeys) {
  EXPECT_EQ(ConfigKeys().size(), 26u);
  std::set<std::string_view> spellings;
  size_t n = 0;
  for (const ConfigKeyInfo& k : ConfigKeys()) {
    ASSERT_FALSE(k.key.empty());
    EXPECT_FALSE(k.description.empty()) << k.key;
    EXPECT_EQ(k.description.back(), '.') << k.key << ": one sentence";
    std::set<std::string_view> own;
    for (std::string_view s : {k.key, k.seed_key, k.pyfluss_key})
      if (!s.empty()) own.insert(s);
    for (std::string_view s : own) {
      ++n;
      EXPECT_TRUE(spellings.insert(s).second) << s << " names two entries";
      EXPECT_EQ(FindConfigKey(s), &k) << s;
    }
    EXPECT_EQ(k.kind == ConfigKind::kEnum || k.kind == ConfigKind::kBool, !k.values.empty()) << k.key;
    const bool ranged = k.kind == ConfigKind::kBytes || k.kind == ConfigKind::kCount ||
                        k.kind == ConfigKind::kMilliseconds;
    EXPECT_EQ(ranged, k.max > 0) << k.key;
  }
  EXPECT_EQ(n, spellings.size());
  EXPECT_EQ(n, 46u);  // 26 keys, 4 other seed spellings (2 also pyfluss 1.0's), 16 other pyfluss spellings
  EXPECT_EQ(FindConfigKey("writer.batch_size"), nullptr);
  EXPECT_EQ(FindConfigKey("Bootstrap.Servers"), nullptr);  // spellings are exact
  // Every key outside the table is refused (spot checks of near misses).
  for (const char* k : {"client.writer.batch.size", "writer.batch-timeout", "scanner.log.check-crc",
                        "client.bootstrap.servers", "security.sasl.jaas.config"})
    ExpectRejected({{k, "1"}}, k, "unknown property");
}

TEST(ConfigKeys, RangesAreTheParsersLimits) {
  const ConfigKeyInfo* batch = FindConfigKey("writer.batch.size");
  ASSERT_NE(batch, nullptr);
  EXPECT_EQ(batch->key, "client.writer.batch-size");
  EXPECT_EQ(batch->seed_key, "writer.batch.size");
  EXPECT_EQ(batch->pyfluss_key, "writer.batch-size");
  EXPECT_EQ(batch->default_value, "2097152");
  EXPECT_EQ(ConfigKindName(batch->kind), "bytes");
  EXPECT_EQ(batch->min, 1);
  EXPECT_EQ(batch->max, INT32_MAX);
  EXPECT_EQ(MustParseOptions({{"writer.batch-size", "2147483647"}}).writer_batch_size, INT32_MAX);
  ExpectRejected({{"writer.batch-size", "2147483648"}}, "writer.batch-size", "out of range (1..2147483647 bytes)");
  const ConfigKeyInfo* polls = FindConfigKey("client.scanner.log.max-poll-records");
  ASSERT_NE(polls, nullptr);
  EXPECT_EQ(ConfigKindName(polls->kind), "count");
  ExpectRejected({{"client.scanner.log.max-poll-records", "0"}}, "client.scanner.log.max-poll-records",
                 "out of range (1..2147483647)");
  const ConfigKeyInfo* wait = FindConfigKey("scanner.log.fetch.wait-max-time-ms");
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ(wait->max, INT32_MAX);  // an int32 on the wire: longer saturates
  EXPECT_EQ(MustParseOptions({{"scanner.log.fetch.wait-max-time-ms", "1000 h"}}).fetch_wait_max_time_ms, INT32_MAX);
  const ConfigKeyInfo* connect = FindConfigKey("connect-timeout");
  ASSERT_NE(connect, nullptr);
  EXPECT_EQ(connect->key, "client.connect-timeout");
  EXPECT_EQ(connect->min, 1);
  ExpectRejected({{"connect-timeout", "0"}}, "connect-timeout", "must be positive");
  EXPECT_EQ(FindConfigKey("client.writer.buffer.wait-timeout")->default_value, std::to_string(kMaxDurationMs));
  EXPECT_EQ(FindConfigKey("writer.acks")->values, "all, -1, 0, 1");
  EXPECT_EQ(ConfigKindName(FindConfigKey("security.sasl.password")->kind), "secret");
  EXPECT_EQ(ConfigKindName(FindConfigKey("client.security.sasl.jaas.config")->kind), "secret");
}

TEST(ConfigKeys, EveryListedValueIsAccepted) {
  for (const ConfigKeyInfo& k : ConfigKeys()) {
    if (k.values.empty() || k.key == "client.writer.enable-idempotence" || k.key == "client.security.protocol")
      continue;  // (those two depend on other keys; the Python test checks them with theirs)
    std::string values(k.values);
    for (size_t b = 0; b <= values.size();) {
      size_t e = values.find(", ", b);
      if (e == std::string::npos) e = values.size();
      const std::string v = values.substr(b, e - b);
      EXPECT_TRUE(ParseClientOptions({{std::string(k.key), v}}).ok()) << k.key << " = " << v;
      b = e + 2;
    }
  }
}

// Two spellings of one key (Java, seed, pyfluss 1.0), any two of them: refused, naming both.
TEST(ConfigKeys, TwoSpellingsOfOneKey) {
  ExpectRejected({{"writer.batch-size", "1kb"}, {"client.writer.batch-size", "2kb"}}, "writer.batch-size",
                 "'client.writer.batch-size' set the same property");
  ExpectRejected({{"writer.batch.size", "1kb"}, {"client.writer.batch-size", "2kb"}}, "writer.batch.size",
                 "'client.writer.batch-size' set the same property");
  ExpectRejected({{"writer.batch.size", "1kb"}, {"writer.batch-size", "2kb"}}, "writer.batch-size",
                 "'writer.batch.size' set the same property");
  ExpectRejected({{"writer.acks", "1"}, {"client.writer.acks", "all"}}, "writer.acks",
                 "'client.writer.acks' set the same property");
  ExpectRejected({{"request.max.size", "1mb"}, {"client.writer.request-max-size", "1mb"}}, "request.max.size",
                 "'client.writer.request-max-size' set the same property");
  EXPECT_EQ(MustParseOptions({{"writer.batch.size", "1kb"}}).writer_batch_size, kKiB);
}
}  // namespace

namespace fluss {
namespace {

// Durations beyond kMaxDurationMs mean "no limit" and are capped, so deadlines computed from
// them never overflow the clock (a huge value must not turn into an immediate timeout).
TEST(ConfigDurations, HugeValuesAreCappedNotWrapped) {
  auto o = ParseClientOptions({{"client.request-timeout", "2305843009213693951"},
                               {"client.writer.buffer.wait-timeout", "100000000 h"},
                               {"client.scanner.log.fetch.wait-max-time", "2305843009213693951"}});
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->request_timeout_ms, kMaxDurationMs);
  EXPECT_EQ(o->writer_buffer_wait_timeout_ms, kMaxDurationMs);
  EXPECT_EQ(o->fetch_wait_max_time_ms, INT32_MAX);
  EXPECT_EQ(ClientOptions{}.writer_buffer_wait_timeout_ms, kMaxDurationMs);
}

}  // namespace
}  // namespace fluss

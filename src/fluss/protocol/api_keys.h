// Fluss API keys used by this client (protocol-rpc.md section 2), Java spelling.
#pragma once

#include <cstdint>

namespace fluss::protocol {

enum class ApiKey : int16_t {
  API_VERSIONS = 1000,
  CREATE_DATABASE = 1001,
  DROP_DATABASE = 1002,
  LIST_DATABASES = 1003,
  DATABASE_EXISTS = 1004,
  CREATE_TABLE = 1005,
  DROP_TABLE = 1006,
  GET_TABLE_INFO = 1007,
  LIST_TABLES = 1008,
  LIST_PARTITION_INFOS = 1009,
  TABLE_EXISTS = 1010,
  GET_TABLE_SCHEMA = 1011,
  GET_METADATA = 1012,
  PRODUCE_LOG = 1014,
  FETCH_LOG = 1015,
  PUT_KV = 1016,
  LOOKUP = 1017,
  LIST_OFFSETS = 1021,
  INIT_WRITER = 1026,
  LIMIT_SCAN = 1033,
  PREFIX_LOOKUP = 1034,
  GET_DATABASE_INFO = 1035,
  CREATE_PARTITION = 1036,
  DROP_PARTITION = 1037,
  AUTHENTICATE = 1038,
  ALTER_TABLE = 1044,
};

/// Java name of the key, e.g. "PRODUCE_LOG".
const char* ApiKeyName(ApiKey key);

/// Highest version of `key` this client implements. PUT_KV, LOOKUP and PREFIX_LOOKUP go at
/// version 1, which tells a 0.9 server that primary keys are encoded by the kv-format-version-2
/// rules (protocol-rpc.md 3.3; row/key_encoding.h implements them); never 2 (HEAD's PUT_KV v2
/// needs error 72 handled). Every other key is at version 0.
constexpr int16_t ClientMaxVersion(ApiKey key) {
  return key == ApiKey::PUT_KV || key == ApiKey::LOOKUP || key == ApiKey::PREFIX_LOOKUP ? 1 : 0;
}

}  // namespace fluss::protocol

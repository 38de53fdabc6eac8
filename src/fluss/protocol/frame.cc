#include "fluss/protocol/frame.h"

#include "fluss/util/bytes.h"

namespace fluss::protocol {

const char* ApiKeyName(ApiKey key) {
  switch (key) {
    case ApiKey::API_VERSIONS: return "API_VERSIONS";
    case ApiKey::CREATE_DATABASE: return "CREATE_DATABASE";
    case ApiKey::DROP_DATABASE: return "DROP_DATABASE";
    case ApiKey::LIST_DATABASES: return "LIST_DATABASES";
    case ApiKey::DATABASE_EXISTS: return "DATABASE_EXISTS";
    case ApiKey::CREATE_TABLE: return "CREATE_TABLE";
    case ApiKey::DROP_TABLE: return "DROP_TABLE";
    case ApiKey::GET_TABLE_INFO: return "GET_TABLE_INFO";
    case ApiKey::LIST_TABLES: return "LIST_TABLES";
    case ApiKey::LIST_PARTITION_INFOS: return "LIST_PARTITION_INFOS";
    case ApiKey::TABLE_EXISTS: return "TABLE_EXISTS";
    case ApiKey::GET_TABLE_SCHEMA: return "GET_TABLE_SCHEMA";
    case ApiKey::GET_METADATA: return "GET_METADATA";
    case ApiKey::PRODUCE_LOG: return "PRODUCE_LOG";
    case ApiKey::FETCH_LOG: return "FETCH_LOG";
    case ApiKey::PUT_KV: return "PUT_KV";
    case ApiKey::LOOKUP: return "LOOKUP";
    case ApiKey::LIST_OFFSETS: return "LIST_OFFSETS";
    case ApiKey::INIT_WRITER: return "INIT_WRITER";
    case ApiKey::LIMIT_SCAN: return "LIMIT_SCAN";
    case ApiKey::PREFIX_LOOKUP: return "PREFIX_LOOKUP";
    case ApiKey::GET_DATABASE_INFO: return "GET_DATABASE_INFO";
    case ApiKey::CREATE_PARTITION: return "CREATE_PARTITION";
    case ApiKey::DROP_PARTITION: return "DROP_PARTITION";
    case ApiKey::AUTHENTICATE: return "AUTHENTICATE";
    case ApiKey::ALTER_TABLE: return "ALTER_TABLE";
  }
  return "UNKNOWN_API";
}

void EncodeRequestPrefix(uint8_t* out, ApiKey key, int16_t version, int32_t request_id,
                         size_t body_size) {
  util::PutBe32(out, static_cast<uint32_t>(kRequestHeaderSize + body_size));
  util::PutBe16(out + 4, static_cast<uint16_t>(key));
  util::PutBe16(out + 6, static_cast<uint16_t>(version));
  util::PutBe32(out + 8, static_cast<uint32_t>(request_id));
}

Result<ResponseFrame> DecodeResponse(const uint8_t* data, size_t size) {
  if (size < 1) return Status::Protocol("empty response frame");
  ResponseFrame f;
  const int8_t type = static_cast<int8_t>(data[0]);
  switch (type) {
    case 0:
    case 1:
      if (size < 5) return Status::Protocol("response frame shorter than its 5-byte header");
      f.type = static_cast<ResponseType>(type);
      f.request_id = static_cast<int32_t>(util::GetBe32(data + 1));
      f.body = std::string_view(reinterpret_cast<const char*>(data) + 5, size - 5);
      return f;
    case 2:
      f.type = ResponseType::kServerFailure;
      f.body = std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1);
      return f;
    default:
      return Status::Protocol("unknown response type " + std::to_string(type));
  }
}

}  // namespace fluss::protocol

// libFuzzer target: the JSON documents the coordinator sends (metadata/table_json.h): a table
// descriptor (GetTableInfo), a schema (GetTableSchema) and a database descriptor
// (GetDatabaseInfo). Malformed JSON, wrong JSON types, unknown Fluss types, absurd lengths and
// precisions, deep nesting: a Status, never a crash.
//
// Input: byte 0 picks the document kind (0-2); the rest is the JSON text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fluss/metadata/table_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fluss;
  if (size < 1) return 0;
  const std::string json(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 3) {
    case 0: {
      auto desc = metadata::TableDescriptorFromJson(json);
      // What the client does next with a descriptor it accepted: writes it back (CreateTable of
      // a copied descriptor) and maps its schema to Arrow.
      if (desc.ok()) (void)metadata::TableDescriptorToJson(*desc);
      break;
    }
    case 1:
      (void)metadata::SchemaFromJson(json);
      break;
    default: {
      auto db = metadata::DatabaseDescriptorFromJson(json);
      if (db.ok()) (void)metadata::DatabaseDescriptorToJson(*db);
      break;
    }
  }
  return 0;
}

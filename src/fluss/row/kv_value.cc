#include "fluss/row/kv_value.h"

#include <cctype>

#include "fluss/util/bytes.h"

namespace fluss::row {

Result<KvFormat> KvFormatOf(const std::map<std::string, std::string>& properties) {
  auto it = properties.find(kKvFormatProperty);
  if (it == properties.end()) return KvFormat::kCompacted;
  std::string v;
  for (char c : it->second) v.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  if (v == "COMPACTED") return KvFormat::kCompacted;
  if (v == "INDEXED") return KvFormat::kIndexed;
  return Status::InvalidArgument(std::string(kKvFormatProperty) + " '" + it->second +
                                 "' is neither COMPACTED nor INDEXED");
}

Result<KvRowCodec> KvRowCodec::Make(const arrow::Schema& schema, KvFormat format) {
  if (format == KvFormat::kIndexed) {
    FLUSS_ASSIGN_OR_RETURN(auto codec, IndexedRowCodec::Make(schema));
    return KvRowCodec(std::move(codec));
  }
  FLUSS_ASSIGN_OR_RETURN(auto codec, CompactedRowCodec::Make(schema));
  return KvRowCodec(std::move(codec));
}

Status KvRowCodec::Encode(const Value* values, std::string* out) const {
  return std::visit([&](const auto& c) { return c.Encode(values, out); }, codec_);
}

Status KvRowCodec::Decode(const uint8_t* data, size_t size, const std::vector<arrow::ArrayBuilder*>& builders) const {
  return std::visit([&](const auto& c) { return c.Decode(data, size, builders); }, codec_);
}

Status KvRowCodec::CheckBuilders(const std::vector<arrow::ArrayBuilder*>& builders) const {
  return std::visit([&](const auto& c) { return c.CheckBuilders(builders); }, codec_);
}

Result<ValueView> ParseValue(const uint8_t* data, size_t size) {
  if (size < 2) return Status::Protocol("value of " + std::to_string(size) + " bytes has no schema id");
  return ValueView{util::GetLe<int16_t>(data), data + 2, size - 2};
}

Status EncodeValue(int16_t schema_id, const KvRowCodec& codec, const Value* values, std::string* out) {
  const size_t start = out->size();
  util::AppendLe<int16_t>(out, schema_id);
  Status st = codec.Encode(values, out);
  if (!st.ok()) out->resize(start);
  return st;
}

Status DecodeValue(const uint8_t* data, size_t size, int16_t expected_schema_id, const KvRowCodec& codec,
                   const std::vector<arrow::ArrayBuilder*>& builders) {
  FLUSS_ASSIGN_OR_RETURN(ValueView v, ParseValue(data, size));
  if (v.schema_id != expected_schema_id)
    return Status::Protocol("value of schema id " + std::to_string(v.schema_id) + ", expected " +
                            std::to_string(expected_schema_id));
  return codec.Decode(v.row, v.row_size, builders);
}

}  // namespace fluss::row

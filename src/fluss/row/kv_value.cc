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

namespace {

/// Fluss 0.9's IndexedRow.getBinary strips trailing 0x00 bytes, and the tablet server then
/// writes the shortened value into the changelog's fixed_size_binary(n) vector, which fails the
/// whole PutKv batch (IndexOutOfBoundsException, UNKNOWN_SERVER_ERROR). So such a value is
/// refused here, before it can take other rows of its batch down with it.
Status CheckIndexedBinaries(const std::vector<ColumnType>& columns, const Value* values) {
  for (size_t i = 0; i < columns.size(); ++i) {
    const ColumnType& c = columns[i];
    if (c.type.root != TypeRoot::kBinary || values[i].kind != Value::Kind::kBytes || values[i].s.empty()) continue;
    if (values[i].s.back() == '\0')
      return Status::InvalidArgument("column '" + c.name + "' (" + c.type.ToString() +
                                     "): a value ending in a 0x00 byte cannot be stored with table.kv.format "
                                     "INDEXED (the server strips trailing 0x00 bytes of BINARY values in INDEXED "
                                     "rows and then fails the batch); use the COMPACTED kv format");
  }
  return Status::OK();
}

}  // namespace

Status KvRowCodec::Encode(const Value* values, std::string* out) const {
  if (const auto* indexed = std::get_if<IndexedRowCodec>(&codec_))
    FLUSS_RETURN_NOT_OK(CheckIndexedBinaries(indexed->columns(), values));
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

#include "fluss/row/kv_value.h"

#include <cctype>

#include "fluss/row/value_path.h"
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
/// whole PutKv batch (IndexOutOfBoundsException, UNKNOWN_SERVER_ERROR). That holds for every
/// field of an IndexedRow: the columns, and the fields of ROW values at any depth (an INDEXED
/// table encodes nested rows, also inside arrays and maps, as IndexedRows); elements of arrays
/// and maps themselves are stored whole. So such a value is refused here, naming its path,
/// before it can take other rows of its batch down with it. `in_row`: `v` is a field of an
/// IndexedRow.
Status CheckIndexedBinary(const DataType& t, const Value& v, const ValuePath& at, bool in_row) {
  if (v.kind == Value::Kind::kNull) return Status::OK();
  switch (t.root) {
    case TypeRoot::kBinary:
      if (in_row && v.kind == Value::Kind::kBytes && !v.s.empty() && v.s.back() == '\0')
        return Status::InvalidArgument("column '" + at.str() + "' (" + t.ToString() +
                                       "): a value ending in a 0x00 byte cannot be stored with table.kv.format "
                                       "INDEXED (the server strips trailing 0x00 bytes of BINARY values in INDEXED "
                                       "rows and then fails the batch); use the COMPACTED kv format");
      return Status::OK();
    case TypeRoot::kArray:
      for (size_t k = 0; k < v.count; ++k)
        FLUSS_RETURN_NOT_OK(
            CheckIndexedBinary(t.children[0].type, v.items[k], ValuePath{&at, nullptr, static_cast<int64_t>(k)}, false));
      return Status::OK();
    case TypeRoot::kMap:
      for (size_t k = 0; k < v.count; ++k) {
        const auto entry = static_cast<int64_t>(k);
        FLUSS_RETURN_NOT_OK(CheckIndexedBinary(t.children[0].type, v.items[2 * k], ValuePath{&at, nullptr, entry, ".key"}, false));
        FLUSS_RETURN_NOT_OK(
            CheckIndexedBinary(t.children[1].type, v.items[2 * k + 1], ValuePath{&at, nullptr, entry, ".value"}, false));
      }
      return Status::OK();
    case TypeRoot::kRow:
      for (size_t k = 0; k < v.count && k < t.children.size(); ++k)
        FLUSS_RETURN_NOT_OK(CheckIndexedBinary(t.children[k].type, v.items[k], ValuePath{&at, &t.children[k].name}, true));
      return Status::OK();
    default:
      return Status::OK();
  }
}

Status CheckIndexedBinaries(const std::vector<ColumnType>& columns, const Value* values) {
  for (size_t i = 0; i < columns.size(); ++i)
    FLUSS_RETURN_NOT_OK(CheckIndexedBinary(columns[i].type, values[i], ValuePath{nullptr, &columns[i].name}, true));
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

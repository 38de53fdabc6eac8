#include "fluss/row/iceberg_key_encoder.h"

#include "fluss/util/bytes.h"

namespace fluss::row {

Result<IcebergKeyEncoder> IcebergKeyEncoder::Create(std::shared_ptr<arrow::Schema> schema,
                                                    std::vector<int> key_columns) {
  IcebergKeyEncoder enc;
  FLUSS_RETURN_NOT_OK(enc.Init(std::move(schema), std::move(key_columns), "Iceberg key encoder"));
  if (enc.key_columns_.size() != 1)
    return Status::InvalidArgument("Iceberg key encoder: a key of " + std::to_string(enc.key_columns_.size()) +
                                   " columns; tables with an iceberg lake format take exactly one key column");
  const ColumnType& c = enc.columns_[0];
  switch (c.type.root) {
    case TypeRoot::kBoolean:
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kTimestampLtz:
      return Status::InvalidArgument("key column '" + c.name + "' (" + c.type.ToString() +
                                     "): this type cannot be a key of a table with an iceberg lake format");
    default:
      break;
  }
  return enc;
}

Status IcebergKeyEncoder::Encode(const Value* values, std::string* out) const {
  out->clear();
  Datum d;
  FLUSS_RETURN_NOT_OK(KeyDatum(0, values, &d));
  const DataType& t = columns_[0].type;
  switch (t.root) {
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kBigInt: util::AppendLe<int64_t>(out, d.i); break;
    case TypeRoot::kTime: util::AppendLe<int64_t>(out, d.i * 1000); break;
    case TypeRoot::kFloat: util::AppendLe<float>(out, static_cast<float>(d.d)); break;
    case TypeRoot::kDouble: util::AppendLe<double>(out, d.d); break;
    case TypeRoot::kTimestamp: {
      int64_t micros = 0;
      if (__builtin_mul_overflow(d.i, int64_t{1000}, &micros))
        return KeyError(0, "timestamp " + std::to_string(d.i) + " ms does not fit int64 microseconds");
      util::AppendLe<int64_t>(out, micros + d.nanos / 1000);
      break;
    }
    case TypeRoot::kDecimal: util::AppendMinimalBigEndian(out, d.dec_hi, d.dec_lo); break;
    case TypeRoot::kString:
    case TypeRoot::kChar:
    case TypeRoot::kBytes:
    case TypeRoot::kBinary: out->append(d.bytes); break;
    default: return KeyError(0, "unsupported type");  // rejected by Create
  }
  return Status::OK();
}

}  // namespace fluss::row

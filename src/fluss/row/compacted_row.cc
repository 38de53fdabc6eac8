#include "fluss/row/compacted_row.h"

#include <arrow/builder.h>
#include <arrow/type.h>

#include "fluss/row/nested_codec.h"
#include "fluss/util/bytes.h"

namespace fluss::row {

using util::AppendLe;
using util::AppendVarint32;
using util::AppendVarint64;

Status AppendCompactedField(const ColumnType& c, const Datum& d, std::string* out) {
  const DataType& t = c.type;
  auto length_prefixed = [&](std::string_view b) {
    AppendVarint32(out, static_cast<uint32_t>(b.size()));
    out->append(b);
  };
  switch (t.root) {
    case TypeRoot::kBoolean:
    case TypeRoot::kTinyInt: out->push_back(static_cast<char>(d.i)); return Status::OK();
    case TypeRoot::kSmallInt: AppendLe<int16_t>(out, static_cast<int16_t>(d.i)); return Status::OK();
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime: AppendVarint32(out, static_cast<uint32_t>(static_cast<int32_t>(d.i))); return Status::OK();
    case TypeRoot::kBigInt: AppendVarint64(out, static_cast<uint64_t>(d.i)); return Status::OK();
    case TypeRoot::kFloat: AppendLe<float>(out, static_cast<float>(d.d)); return Status::OK();
    case TypeRoot::kDouble: AppendLe<double>(out, d.d); return Status::OK();
    case TypeRoot::kString:
    case TypeRoot::kChar:
    case TypeRoot::kBytes:
    case TypeRoot::kBinary: length_prefixed(d.bytes); return Status::OK();
    case TypeRoot::kDecimal:
      if (t.compact()) {
        AppendVarint64(out, static_cast<uint64_t>(d.i));
      } else {
        std::string be;
        util::AppendMinimalBigEndian(&be, d.dec_hi, d.dec_lo);
        length_prefixed(be);
      }
      return Status::OK();
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      AppendVarint64(out, static_cast<uint64_t>(d.i));
      if (!t.compact()) AppendVarint32(out, static_cast<uint32_t>(d.nanos));
      return Status::OK();
    case TypeRoot::kArray:
    case TypeRoot::kMap:
    case TypeRoot::kRow: {
      std::string nested;
      FLUSS_RETURN_NOT_OK(AppendNestedBytes(c, *d.nested, RowFormat::kCompacted, &nested));
      length_prefixed(nested);
      return Status::OK();
    }
  }
  return Status::OK();
}

bool ReadCompactedField(const DataType& t, const uint8_t* data, size_t size, size_t* pos, Datum* d,
                        const char** what) {
  *d = Datum{};
  size_t p = *pos;
  auto fixed = [&](size_t n) -> const uint8_t* {
    if (n > size - p) return nullptr;
    const uint8_t* at = data + p;
    p += n;
    return at;
  };
  auto le = [&]<typename T>(T* v) {
    const uint8_t* at = fixed(sizeof(T));
    if (at != nullptr) *v = util::GetLe<T>(at);
    return at != nullptr;
  };
  auto varint32 = [&](int64_t* v) {
    uint32_t u;
    if (!util::ReadVarint32(data, size, &p, &u)) return false;
    *v = static_cast<int32_t>(u);
    return true;
  };
  auto varint64 = [&](int64_t* v) {
    uint64_t u;
    if (!util::ReadVarint64(data, size, &p, &u)) return false;
    *v = static_cast<int64_t>(u);
    return true;
  };
  auto length_prefixed = [&](std::string_view* b) {
    int64_t n;
    if (!varint32(&n)) return false;
    if (n < 0) {
      *what = "negative length";
      return false;
    }
    const uint8_t* at = fixed(static_cast<size_t>(n));
    if (at == nullptr) return false;
    *b = std::string_view(reinterpret_cast<const char*>(at), static_cast<size_t>(n));
    return true;
  };
  *what = "value runs past the end of the row or has a bad varint";
  bool ok = false;
  switch (t.root) {
    case TypeRoot::kBoolean: {
      uint8_t b = 0;
      ok = le(&b);
      d->i = b != 0;
      break;
    }
    case TypeRoot::kTinyInt: {
      int8_t b = 0;
      ok = le(&b);
      d->i = b;
      break;
    }
    case TypeRoot::kSmallInt: {
      int16_t v = 0;
      ok = le(&v);
      d->i = v;
      break;
    }
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime: ok = varint32(&d->i); break;
    case TypeRoot::kBigInt: ok = varint64(&d->i); break;
    case TypeRoot::kFloat: {
      float f = 0;
      ok = le(&f);
      d->d = f;
      break;
    }
    case TypeRoot::kDouble: ok = le(&d->d); break;
    case TypeRoot::kString:
    case TypeRoot::kChar:
    case TypeRoot::kBytes:
    case TypeRoot::kBinary:
    case TypeRoot::kArray:
    case TypeRoot::kMap:
    case TypeRoot::kRow: ok = length_prefixed(&d->bytes); break;
    case TypeRoot::kDecimal:
      if (t.compact()) {
        ok = varint64(&d->i);
        d->dec_lo = static_cast<uint64_t>(d->i);
        d->dec_hi = d->i < 0 ? -1 : 0;
      } else {
        std::string_view b;
        ok = length_prefixed(&b);
        if (ok && !util::ReadBigEndianTwosComplement(reinterpret_cast<const uint8_t*>(b.data()), b.size(),
                                                     &d->dec_hi, &d->dec_lo)) {
          *what = "decimal of 0 or more than 16 bytes";
          ok = false;
        }
      }
      break;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      ok = varint64(&d->i);
      int64_t nanos = 0;
      if (ok && !t.compact()) ok = varint32(&nanos);
      d->nanos = static_cast<int32_t>(nanos);
      break;
    }
  }
  if (ok) *pos = p;
  return ok;
}

Result<CompactedRowCodec> CompactedRowCodec::Make(const arrow::Schema& schema) {
  CompactedRowCodec codec;
  FLUSS_ASSIGN_OR_RETURN(codec.columns_, ColumnTypesOf(schema));
  return codec;
}

Status EncodeCompactedFields(const std::vector<ColumnType>& columns, const Value* values, std::string* out) {
  const size_t start = out->size();
  out->append((columns.size() + 7) / 8, '\0');
  return EncodeRowFields(columns, values, out, start,
                         [&](size_t i, const Datum& d) { return AppendCompactedField(columns[i], d, out); });
}

Status DecodeCompactedFields(const std::vector<ColumnType>& columns, const uint8_t* data, size_t size,
                             const std::vector<arrow::ArrayBuilder*>* builders, std::vector<Datum>* datums) {
  const size_t bitmap = (columns.size() + 7) / 8;
  if (size < bitmap)
    return Status::Protocol("CompactedRow of " + std::to_string(size) + " bytes is shorter than its " +
                            std::to_string(bitmap) + "-byte null bitmap");
  auto is_null = [&](size_t i) { return (data[i >> 3] >> (i & 7)) & 1; };

  // Pass 1: read and check every field before touching a builder.
  datums->resize(columns.size());
  size_t pos = bitmap;
  for (size_t i = 0; i < columns.size(); ++i) {
    const ColumnType& c = columns[i];
    if (is_null(i)) {
      if (!c.type.nullable) return Status::Protocol("CompactedRow column '" + c.name + "': null in a NOT NULL column");
      continue;
    }
    const char* what = "";
    if (!ReadCompactedField(c.type, data, size, &pos, &(*datums)[i], &what))
      return Status::Protocol("CompactedRow column '" + c.name + "' (" + c.type.ToString() + "): " + what);
    FLUSS_RETURN_NOT_OK(CheckDatumForBuilder(c, (*datums)[i], RowFormat::kCompacted));
  }
  if (pos != size)
    return Status::Protocol("CompactedRow has " + std::to_string(size - pos) +
                            " bytes after its last field (schema mismatch?)");
  if (!builders) return Status::OK();
  return AppendRow(columns, data, *datums, RowFormat::kCompacted, *builders);  // pass 2
}

Status CompactedRowCodec::Encode(const Value* values, std::string* out) const {
  return EncodeCompactedFields(columns_, values, out);
}

Status CompactedRowCodec::CheckBuilders(const std::vector<arrow::ArrayBuilder*>& builders) const {
  return row::CheckBuilders(columns_, builders, "CompactedRow decode");
}

Status CompactedRowCodec::Decode(const uint8_t* data, size_t size,
                                 const std::vector<arrow::ArrayBuilder*>& builders) const {
  if (builders.size() != columns_.size()) return CheckBuilders(builders);
  thread_local std::vector<Datum> datums;
  return DecodeCompactedFields(columns_, data, size, &builders, &datums);
}

}  // namespace fluss::row

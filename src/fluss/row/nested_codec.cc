#include "fluss/row/nested_codec.h"

#include <cstring>
#include <vector>

#include <arrow/builder.h>

#include "fluss/row/compacted_row.h"
#include "fluss/row/indexed_row.h"
#include "fluss/util/bytes.h"

namespace fluss::row {

using util::GetLe;
using util::PutLe;
using util::RoundUpTo8;

namespace {

/// Bytes of one element slot in a BinaryArray (Java BinaryArray.calculateFixLengthPartSize):
/// a fixed-width scalar's own width, 8 for everything else.
size_t SlotSize(const DataType& t) {
  const int width = FixedScalarWidth(t.root);
  return width > 0 ? static_cast<size_t>(width) : 8;
}

Status EncodeRow(const std::vector<ColumnType>& fields, const Value* values, RowFormat format, std::string* out) {
  return format == RowFormat::kCompacted ? EncodeCompactedFields(fields, values, out)
                                         : EncodeIndexedFields(fields, values, out);
}

/// Appends the BinaryArray of `count` elements of type `element`, element k being
/// items[k * stride] (stride 2 walks the keys or the values of a map's entries).
Status AppendBinaryArray(const ColumnType& element, const Value* items, size_t count, size_t stride,
                         RowFormat format, std::string* out) {
  const size_t start = out->size();
  const size_t null_bytes = 4 * ((count + 31) / 32);
  const size_t slot_size = SlotSize(element.type);
  const size_t slots_at = start + 4 + null_bytes;
  out->resize(start + RoundUpTo8(4 + null_bytes + count * slot_size), '\0');
  PutLe<int32_t>(reinterpret_cast<uint8_t*>(out->data()) + start, static_cast<int32_t>(count));
  // (out may grow while the variable part is appended: take slot pointers afresh each time)
  auto slot = [&](size_t k) { return reinterpret_cast<uint8_t*>(out->data()) + slots_at + k * slot_size; };
  auto put_offset_and = [&](size_t k, size_t offset, uint64_t low) {
    PutLe<uint64_t>(slot(k), (static_cast<uint64_t>(offset) << 32) | low);
  };
  // Appends `bytes` to the variable part, padded to 8, and points slot k at them.
  auto variable = [&](size_t k, std::string_view bytes) {
    const size_t offset = out->size() - start;
    out->append(bytes);
    out->resize(start + offset + RoundUpTo8(bytes.size()), '\0');
    put_offset_and(k, offset, bytes.size());
  };
  for (size_t k = 0; k < count; ++k) {
    const Value& v = items[k * stride];
    if (v.kind == Value::Kind::kNull) {
      uint8_t* bits = reinterpret_cast<uint8_t*>(out->data()) + start + 4;
      bits[k >> 3] = static_cast<uint8_t>(bits[k >> 3] | (1 << (k & 7)));
      continue;
    }
    Datum d;
    FLUSS_RETURN_NOT_OK(DatumFromValue(element, v, &d));
    const DataType& t = element.type;
    if (FixedScalarWidth(t.root) > 0) {
      PutFixedScalar(t.root, d, slot(k));
      continue;
    }
    switch (t.root) {
      case TypeRoot::kString:
      case TypeRoot::kChar:
      case TypeRoot::kBytes:
      case TypeRoot::kBinary:
        if (!PutInlineBytes(d.bytes, slot(k))) variable(k, d.bytes);
        break;
      case TypeRoot::kDecimal:
        if (t.compact()) {
          PutLe<int64_t>(slot(k), d.i);
        } else {
          // 16 bytes reserved, the minimal big-endian bytes at their start (Java writeDecimal).
          const size_t offset = out->size() - start;
          const size_t n = util::AppendMinimalBigEndian(out, d.dec_hi, d.dec_lo);
          out->resize(start + offset + 16, '\0');
          put_offset_and(k, offset, n);
        }
        break;
      case TypeRoot::kTimestamp:
      case TypeRoot::kTimestampLtz:
        if (t.compact()) {
          PutLe<int64_t>(slot(k), d.i);
        } else {
          const size_t offset = out->size() - start;
          util::AppendLe<int64_t>(out, d.i);
          put_offset_and(k, offset, static_cast<uint32_t>(d.nanos));
        }
        break;
      case TypeRoot::kArray:
      case TypeRoot::kMap:
      case TypeRoot::kRow: {
        std::string nested;
        FLUSS_RETURN_NOT_OK(AppendNestedBytes(element, *d.nested, format, &nested));
        variable(k, nested);
        break;
      }
      default: break;  // the fixed-width scalars, above
    }
  }
  return Status::OK();
}

Status Corrupt(const ColumnType& c, RowFormat format, const std::string& what) {
  return Status::Protocol(std::string(RowFormatName(format)) + " column '" + c.name + "' (" + c.type.ToString() +
                          "): " + what);
}

/// Reads element k of a BinaryArray (`data`, `size` bytes; its slot at `slot`) of type `t`.
/// Returns false with `*what` set for an element outside the array.
bool ReadElement(const DataType& t, const uint8_t* data, size_t size, const uint8_t* slot, Datum* d,
                 std::string* what) {
  *d = Datum{};
  auto at_offset = [&](uint64_t v, size_t len, std::string_view* out) {
    const uint64_t offset = v >> 32;
    if (offset > size || len > size - offset) {
      *what = "offset " + std::to_string(offset) + " and length " + std::to_string(len) + " run past the " +
              std::to_string(size) + "-byte array";
      return false;
    }
    *out = std::string_view(reinterpret_cast<const char*>(data + offset), len);
    return true;
  };
  if (FixedScalarWidth(t.root) > 0) {
    GetFixedScalar(t.root, slot, d);
    return true;
  }
  switch (t.root) {
    case TypeRoot::kString:
    case TypeRoot::kChar:
    case TypeRoot::kBytes:
    case TypeRoot::kBinary: {
      const uint64_t v = GetLe<uint64_t>(slot);
      if (v >> 63) {  // inline: length in byte 7
        const size_t len = (v >> 56) & 0x7f;
        if (len > 7) {
          *what = "inline length " + std::to_string(len);
          return false;
        }
        d->bytes = std::string_view(reinterpret_cast<const char*>(slot), len);
        return true;
      }
      return at_offset(v, static_cast<uint32_t>(v), &d->bytes);
    }
    case TypeRoot::kDecimal: {
      if (t.compact()) {
        d->i = GetLe<int64_t>(slot);
        d->dec_lo = static_cast<uint64_t>(d->i);
        d->dec_hi = d->i < 0 ? -1 : 0;
        return true;
      }
      const uint64_t v = GetLe<uint64_t>(slot);
      std::string_view b;
      if (!at_offset(v, static_cast<uint32_t>(v), &b)) return false;
      if (!util::ReadBigEndianTwosComplement(reinterpret_cast<const uint8_t*>(b.data()), b.size(), &d->dec_hi,
                                             &d->dec_lo)) {
        *what = "decimal of " + std::to_string(b.size()) + " bytes";
        return false;
      }
      return true;
    }
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      if (t.compact()) {
        d->i = GetLe<int64_t>(slot);
        return true;
      }
      const uint64_t v = GetLe<uint64_t>(slot);
      std::string_view millis;
      if (!at_offset(v, 8, &millis)) return false;
      d->i = GetLe<int64_t>(reinterpret_cast<const uint8_t*>(millis.data()));
      d->nanos = static_cast<int32_t>(static_cast<uint32_t>(v));
      return true;
    }
    case TypeRoot::kArray:
    case TypeRoot::kMap:
    case TypeRoot::kRow: {
      const uint64_t v = GetLe<uint64_t>(slot);
      return at_offset(v, static_cast<uint32_t>(v), &d->bytes);
    }
    default: break;
  }
  *what = "unhandled type";
  return false;
}

/// Decodes the BinaryArray `bytes` of the elements of `column` (an ARRAY's item, a MAP's key or
/// value) into `builder` (the element builder; null: check only). `*count` gets the number of
/// elements.
Status DecodeBinaryArray(const ColumnType& owner, const ColumnType& element, RowFormat format, std::string_view bytes,
                         arrow::ArrayBuilder* builder, int64_t* count) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t size = bytes.size();
  if (size < 4) return Corrupt(owner, format, "array of " + std::to_string(size) + " bytes has no element count");
  const int32_t n = GetLe<int32_t>(data);
  if (n < 0) return Corrupt(owner, format, "negative element count " + std::to_string(n));
  const size_t null_bytes = 4 * ((static_cast<size_t>(n) + 31) / 32);
  const size_t slot_size = SlotSize(element.type);
  if (null_bytes + static_cast<size_t>(n) * slot_size > size - 4)
    return Corrupt(owner, format, "array of " + std::to_string(n) + " elements does not fit its " +
                                      std::to_string(size) + " bytes");
  const uint8_t* bits = data + 4;
  const uint8_t* slots = bits + null_bytes;
  for (int32_t k = 0; k < n; ++k) {
    if ((bits[k >> 3] >> (k & 7)) & 1) {
      if (!element.type.nullable)
        return Corrupt(owner, format, "element " + std::to_string(k) + " is null in a NOT NULL " + element.name);
      if (builder) {
        auto st = builder->AppendNull();
        if (!st.ok()) return Status::Internal("appending to column '" + owner.name + "': " + st.ToString());
      }
      continue;
    }
    Datum d;
    std::string what;
    if (!ReadElement(element.type, data, size, slots + static_cast<size_t>(k) * slot_size, &d, &what))
      return Corrupt(owner, format, "element " + std::to_string(k) + ": " + what);
    Status st = builder ? AppendDatum(element, d, format, builder) : CheckDatumForBuilder(element, d, format);
    if (!st.ok()) return st.WithContext("column '" + owner.name + "' element " + std::to_string(k));
  }
  *count = n;
  return Status::OK();
}

Status DecodeRow(const ColumnType& c, RowFormat format, std::string_view bytes, arrow::StructBuilder* builder) {
  std::vector<arrow::ArrayBuilder*> fields;
  if (builder)
    for (int i = 0; i < builder->num_fields(); ++i) fields.push_back(builder->field_builder(i));
  std::vector<Datum> scratch;  // a nested row's own: the caller's row may still hold its datums
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  Status st = format == RowFormat::kCompacted
                  ? DecodeCompactedFields(c.type.children, data, bytes.size(), builder ? &fields : nullptr, &scratch)
                  : DecodeIndexedFields(c.type.children, data, bytes.size(), builder ? &fields : nullptr, &scratch);
  if (!st.ok()) return st.WithContext("column '" + c.name + "'");
  if (builder) {
    auto s = builder->Append();
    if (!s.ok()) return Status::Internal("appending to column '" + c.name + "': " + s.ToString());
  }
  return Status::OK();
}

}  // namespace

Status AppendNestedBytes(const ColumnType& c, const Value& v, RowFormat format, std::string* out) {
  const DataType& t = c.type;
  switch (t.root) {
    case TypeRoot::kArray: return AppendBinaryArray(t.children[0], v.items, v.count, 1, format, out);
    case TypeRoot::kMap: {
      const size_t start = out->size();
      out->append(4, '\0');
      FLUSS_RETURN_NOT_OK(AppendBinaryArray(t.children[0], v.items, v.count, 2, format, out));
      PutLe<int32_t>(reinterpret_cast<uint8_t*>(out->data()) + start, static_cast<int32_t>(out->size() - start - 4));
      return AppendBinaryArray(t.children[1], v.count ? v.items + 1 : v.items, v.count, 2, format, out);
    }
    case TypeRoot::kRow: return EncodeRow(t.children, v.items, format, out);
    default: return Status::Internal("column '" + c.name + "' (" + t.ToString() + ") is not nested");
  }
}

Status DecodeNested(const ColumnType& c, RowFormat format, std::string_view bytes, arrow::ArrayBuilder* builder) {
  const DataType& t = c.type;
  auto appended = [&](const arrow::Status& st) {
    if (st.ok()) return Status::OK();
    return Status::Internal("appending to column '" + c.name + "': " + st.ToString());
  };
  int64_t n = 0;
  switch (t.root) {
    case TypeRoot::kArray: {
      auto* list = static_cast<arrow::ListBuilder*>(builder);
      if (list) FLUSS_RETURN_NOT_OK(appended(list->Append()));
      return DecodeBinaryArray(c, t.children[0], format, bytes, list ? list->value_builder() : nullptr, &n);
    }
    case TypeRoot::kMap: {
      if (bytes.size() < 4) return Corrupt(c, format, "map of " + std::to_string(bytes.size()) + " bytes");
      const int32_t key_size = GetLe<int32_t>(reinterpret_cast<const uint8_t*>(bytes.data()));
      if (key_size < 0 || static_cast<size_t>(key_size) > bytes.size() - 4)
        return Corrupt(c, format, "key array of " + std::to_string(key_size) + " bytes in a map of " +
                                      std::to_string(bytes.size()));
      auto* map = static_cast<arrow::MapBuilder*>(builder);
      const std::string_view keys = bytes.substr(4, static_cast<size_t>(key_size));
      const std::string_view values = bytes.substr(4 + static_cast<size_t>(key_size));
      if (!map) {
        int64_t m = 0;
        FLUSS_RETURN_NOT_OK(DecodeBinaryArray(c, t.children[0], format, keys, nullptr, &n));
        FLUSS_RETURN_NOT_OK(DecodeBinaryArray(c, t.children[1], format, values, nullptr, &m));
        if (n != m)
          return Corrupt(c, format, std::to_string(n) + " keys but " + std::to_string(m) + " values");
        return Status::OK();
      }
      FLUSS_RETURN_NOT_OK(appended(map->Append()));
      FLUSS_RETURN_NOT_OK(DecodeBinaryArray(c, t.children[0], format, keys, map->key_builder(), &n));
      return DecodeBinaryArray(c, t.children[1], format, values, map->item_builder(), &n);
    }
    case TypeRoot::kRow: return DecodeRow(c, format, bytes, static_cast<arrow::StructBuilder*>(builder));
    default: return Status::Internal("column '" + c.name + "' (" + t.ToString() + ") is not nested");
  }
}

}  // namespace fluss::row

#include "fluss/row/paimon_key_encoder.h"

#include <cstring>

#include "fluss/util/bytes.h"

namespace fluss::row {

using util::RoundUpTo8;

Result<PaimonKeyEncoder> PaimonKeyEncoder::Create(std::shared_ptr<arrow::Schema> schema,
                                                  std::vector<int> key_columns) {
  PaimonKeyEncoder enc;
  FLUSS_RETURN_NOT_OK(enc.Init(std::move(schema), std::move(key_columns), "Paimon key encoder"));
  return enc;
}

Status PaimonKeyEncoder::Encode(const Value* values, std::string* out) const {
  const size_t n = columns_.size();
  const size_t null_bits = ((n + 63 + 8) / 64) * 8;
  const size_t fixed_end = null_bits + 8 * n;
  out->assign(fixed_end, '\0');  // row kind 0 (INSERT), no null bits: keys are never null
  size_t cursor = fixed_end;     // end of the variable part written so far
  auto slot = [&](size_t k) { return reinterpret_cast<uint8_t*>(out->data()) + null_bits + 8 * k; };
  auto put_offset_and_size = [&](size_t k, size_t offset, uint64_t size) {
    util::PutLe<uint64_t>(slot(k), (static_cast<uint64_t>(offset) << 32) | size);
  };
  // Reserves `bytes` (a multiple of 8) of zeroed variable part at the cursor.
  auto reserve = [&](size_t bytes) {
    if (out->size() < cursor + bytes) out->resize(cursor + bytes, '\0');
    std::memset(out->data() + cursor, 0, bytes);
  };
  for (size_t k = 0; k < n; ++k) {
    Datum d;
    FLUSS_RETURN_NOT_OK(KeyDatum(k, values, &d));
    const DataType& t = columns_[k].type;
    if (FixedScalarWidth(t.root) > 0) {
      PutFixedScalar(t.root, d, slot(k));
      continue;
    }
    switch (t.root) {
      case TypeRoot::kString:
      case TypeRoot::kChar:
      case TypeRoot::kBytes:
      case TypeRoot::kBinary:
        if (!PutInlineBytes(d.bytes, slot(k))) {
          const size_t rounded = RoundUpTo8(d.bytes.size());
          reserve(rounded);
          std::memcpy(out->data() + cursor, d.bytes.data(), d.bytes.size());
          put_offset_and_size(k, cursor, d.bytes.size());
          cursor += rounded;
        }
        break;
      case TypeRoot::kDecimal:
        if (t.compact()) {
          util::PutLe<int64_t>(slot(k), d.i);
        } else {
          reserve(16);
          std::string be;
          util::AppendMinimalBigEndian(&be, d.dec_hi, d.dec_lo);
          std::memcpy(out->data() + cursor, be.data(), be.size());
          put_offset_and_size(k, cursor, be.size());
          cursor += 16;
        }
        break;
      case TypeRoot::kTimestamp:
      case TypeRoot::kTimestampLtz:
        if (t.compact()) {
          util::PutLe<int64_t>(slot(k), d.i);
        } else {
          put_offset_and_size(k, cursor, static_cast<uint32_t>(d.nanos));
          if (t.root == TypeRoot::kTimestamp) {  // LTZ: see the header (Java keeps no millis)
            reserve(8);
            util::PutLe<int64_t>(reinterpret_cast<uint8_t*>(out->data()) + cursor, d.i);
            cursor += 8;
          }
        }
        break;
      case TypeRoot::kArray:
      case TypeRoot::kMap:
      case TypeRoot::kRow: return KeyError(k, "a nested type cannot be part of a key");  // refused by Init
      default: break;  // the fixed-width scalars, above
    }
  }
  out->resize(cursor);
  return Status::OK();
}

}  // namespace fluss::row

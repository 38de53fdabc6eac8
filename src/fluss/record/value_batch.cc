#include "fluss/record/value_batch.h"

#include "fluss/util/bytes.h"

namespace fluss::record {

using util::GetLe;

Result<std::vector<std::string_view>> ParseValueRecordBatch(const uint8_t* data, size_t size) {
  if (size < kValueBatchHeaderSize)
    return Status::Protocol("value record batch of " + std::to_string(size) + " bytes is shorter than its header");
  const int32_t length = GetLe<int32_t>(data);
  const int8_t magic = GetLe<int8_t>(data + 4);
  const int32_t count = GetLe<int32_t>(data + 5);
  if (magic != kValueBatchMagic) return Status::Protocol("value record batch magic " + std::to_string(magic));
  if (length < 5 || static_cast<size_t>(length) > size - 4)
    return Status::Protocol("value record batch Length " + std::to_string(length) + " does not fit " +
                            std::to_string(size) + " bytes");
  if (count < 0) return Status::Protocol("value record batch RecordCount " + std::to_string(count));
  const size_t end = 4 + static_cast<size_t>(length);
  std::vector<std::string_view> out;
  size_t pos = kValueBatchHeaderSize;
  for (int32_t i = 0; i < count; ++i) {
    if (end - pos < 4) return Status::Protocol("value record " + std::to_string(i) + ": truncated length");
    const int32_t len = GetLe<int32_t>(data + pos);
    pos += 4;
    if (len < 2 || static_cast<size_t>(len) > end - pos)
      return Status::Protocol("value record " + std::to_string(i) + ": Length " + std::to_string(len));
    out.emplace_back(reinterpret_cast<const char*>(data + pos), static_cast<size_t>(len));
    pos += static_cast<size_t>(len);
  }
  if (pos != end)
    return Status::Protocol("value record batch has " + std::to_string(end - pos) + " bytes after its records");
  return out;
}

std::string BuildValueRecordBatch(const std::vector<std::string>& values) {
  std::string out(kValueBatchHeaderSize, '\0');
  for (const auto& v : values) {
    util::AppendLe<int32_t>(&out, static_cast<int32_t>(v.size()));
    out.append(v);
  }
  util::PutLe<int32_t>(reinterpret_cast<uint8_t*>(out.data()), static_cast<int32_t>(out.size() - 4));
  util::PutLe<int8_t>(reinterpret_cast<uint8_t*>(out.data()) + 4, kValueBatchMagic);
  util::PutLe<int32_t>(reinterpret_cast<uint8_t*>(out.data()) + 5, static_cast<int32_t>(values.size()));
  return out;
}

}  // namespace fluss::record

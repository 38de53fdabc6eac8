#include "fluss/record/arrow_log.h"

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/buffer.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/message.h>
#include <arrow/ipc/reader.h>
#include <arrow/ipc/writer.h>
#include <arrow/record_batch.h>
#include <arrow/util/compression.h>
#include <arrow/util/key_value_metadata.h>

#include "fluss/record/batch_validation.h"
#include "fluss/record/decode_memory.h"
#include "fluss/record/lz4_frame_codec.h"
#include "fluss/record/zstd_codec.h"
#include "fluss/row/data_type.h"

namespace fluss::record {

namespace {
Status FromArrow(const arrow::Status& st, const char* what) {
  if (st.ok()) return Status::OK();
  return Status::Internal(std::string(what) + ": " + st.ToString());
}
/// An Arrow error about bytes the server sent: a malformed batch (kProtocol).
Status Malformed(const arrow::Status& st, const char* what) {
  return Status::Protocol(std::string(what) + ": " + st.ToString());
}
}  // namespace

Result<arrow::ipc::IpcWriteOptions> ArrowWriteOptions(const std::string& compression_type,
                                                       int zstd_level) {
  auto options = arrow::ipc::IpcWriteOptions::Defaults();
  std::string c;
  for (char ch : compression_type) c.push_back(static_cast<char>(std::toupper(ch)));
  if (c == "NONE") return options;
  // Buffers are compressed one after the other on the calling thread (the sender's), not on
  // Arrow's thread pool: handing six small buffers to other threads cost more in wake-ups than
  // it saved, on cores the server shares.
  options.use_threads = false;
  if (c == "ZSTD") {
    // Not Arrow's stock ZSTD codec: it creates a context per buffer. Ours reuses them.
    FLUSS_ASSIGN_OR_RETURN(options.codec, MakeFlussZstdCodec(zstd_level));
    return options;
  }
  if (c == "LZ4_FRAME") {
    // Not Arrow's stock LZ4_FRAME codec: it links blocks, which Java readers reject
    // (protocol-data.md 2.3). Ours writes independent 64 KB blocks like Fluss Java.
    options.codec = MakeFlussLz4FrameCodec();
    return options;
  }
  return Status::InvalidArgument("table.log.arrow.compression.type: unknown codec '" + compression_type +
                                 "' (expected NONE, ZSTD or LZ4_FRAME)");
}

Result<std::shared_ptr<arrow::Buffer>> EncodeArrowLogBatch(const arrow::RecordBatch& batch,
                                                           int16_t schema_id,
                                                           const arrow::ipc::IpcWriteOptions& options) {
  arrow::ipc::IpcPayload payload;
  FLUSS_RETURN_NOT_OK(FromArrow(arrow::ipc::GetRecordBatchPayload(batch, options, &payload),
                                "serialising a record batch"));
  // Sized for all WriteIpcPayload writes (continuation marker and length, the metadata padded
  // to 8 bytes, the body), so the stream never grows by copying what it holds.
  const int64_t metadata_bytes = payload.metadata ? payload.metadata->size() : 0;
  auto stream_r = arrow::io::BufferOutputStream::Create(kHeaderSizeV0 + 8 + metadata_bytes + 8 + payload.body_length);
  if (!stream_r.ok()) return FromArrow(stream_r.status(), "allocating a batch buffer");
  auto stream = *stream_r;
  static const uint8_t kZeros[kHeaderSizeV0] = {};
  FLUSS_RETURN_NOT_OK(FromArrow(stream->Write(kZeros, kHeaderSizeV0), "writing a batch"));
  int32_t metadata_length = 0;
  FLUSS_RETURN_NOT_OK(FromArrow(
      arrow::ipc::WriteIpcPayload(payload, options, stream.get(), &metadata_length), "writing a batch"));
  auto buf_r = stream->Finish();
  if (!buf_r.ok()) return FromArrow(buf_r.status(), "finishing a batch");
  std::shared_ptr<arrow::Buffer> buf = *buf_r;
  WriteLogBatchHeader(buf->mutable_data(), static_cast<size_t>(buf->size()), schema_id,
                      static_cast<int32_t>(batch.num_rows()), kNoWriterId, kNoBatchSequence);
  return buf;
}

namespace {

bool IsChar(const arrow::Field& f) {
  return f.metadata() && f.metadata()->Contains(row::kCharLengthMetadataKey) && f.type()->id() == arrow::Type::STRING;
}

/// The string array `a` with the trailing 0x00 bytes of its values removed; nullptr when no
/// value has any. Same length and positions (offset 0), so enclosing list offsets stay valid.
Result<std::shared_ptr<arrow::Array>> StripCharValues(const arrow::StringArray& a) {
  bool padded = false;
  for (int64_t r = 0; r < a.length() && !padded; ++r) {
    const std::string_view v = a.GetView(r);
    padded = a.IsValid(r) && !v.empty() && v.back() == '\0';
  }
  if (!padded) return std::shared_ptr<arrow::Array>();
  arrow::StringBuilder b;
  for (int64_t r = 0; r < a.length(); ++r) {
    if (a.IsNull(r)) {
      if (!b.AppendNull().ok()) return Status::Internal("rebuilding a CHAR column");
      continue;
    }
    std::string_view v = a.GetView(r);
    while (!v.empty() && v.back() == '\0') v.remove_suffix(1);
    if (!b.Append(v).ok()) return Status::Internal("rebuilding a CHAR column");
  }
  std::shared_ptr<arrow::Array> out;
  if (!b.Finish(&out).ok()) return Status::Internal("rebuilding a CHAR column");
  return out;
}

/// `a` (of field `f`) with CHAR values stripped at every nesting level (CHAR(n) elements, map
/// keys and values, ROW fields); nullptr when nothing changes.
Result<std::shared_ptr<arrow::Array>> StripChars(const arrow::Field& f, const std::shared_ptr<arrow::Array>& a) {
  if (IsChar(f)) return StripCharValues(static_cast<const arrow::StringArray&>(*a));
  std::vector<std::shared_ptr<arrow::Field>> children;  // the fields of a's child_data
  switch (f.type()->id()) {
    case arrow::Type::LIST: children = {static_cast<const arrow::ListType&>(*f.type()).value_field()}; break;
    case arrow::Type::MAP: children = {static_cast<const arrow::MapType&>(*f.type()).value_field()}; break;
    case arrow::Type::STRUCT: children = f.type()->fields(); break;
    default: return std::shared_ptr<arrow::Array>();
  }
  std::shared_ptr<arrow::ArrayData> data;
  for (size_t i = 0; i < children.size() && i < a->data()->child_data.size(); ++i) {
    FLUSS_ASSIGN_OR_RETURN(auto stripped, StripChars(*children[i], arrow::MakeArray(a->data()->child_data[i])));
    if (!stripped) continue;
    if (!data) data = a->data()->Copy();
    data->child_data[i] = stripped->data();
  }
  return data ? arrow::MakeArray(data) : std::shared_ptr<arrow::Array>();
}

/// `rb` with the trailing 0x00 bytes of its CHAR(n) values removed, at every nesting level. The
/// changelog the server builds for a table of kv format INDEXED carries CHAR(n) values with
/// their IndexedRow padding (its Arrow writer reads the padded bytes), while
/// IndexedRow.getChar, and so every other reader, strips it: stripped here too, so every path
/// reads the value written.
Result<std::shared_ptr<arrow::RecordBatch>> StripCharPadding(std::shared_ptr<arrow::RecordBatch> rb) {
  for (int i = 0; i < rb->num_columns(); ++i) {
    const auto& f = rb->schema()->field(i);
    FLUSS_ASSIGN_OR_RETURN(auto stripped, StripChars(*f, rb->column(i)));
    if (!stripped) continue;
    auto next = rb->SetColumn(i, f, stripped);
    if (!next.ok()) return Status::Internal("rebuilding a CHAR column: " + next.status().ToString());
    rb = *next;
  }
  return rb;
}

}  // namespace

Result<std::shared_ptr<arrow::RecordBatch>> DecodeArrowLogBatch(
    const std::shared_ptr<arrow::Buffer>& batch, const LogBatchHeader& header,
    const std::shared_ptr<arrow::Schema>& schema) {
  if (header.record_count == 0) return std::shared_ptr<arrow::RecordBatch>();
  size_t start = header.header_size();
  // Batches that are not append-only carry one change-type byte per record before the message.
  if (!header.append_only()) start += static_cast<size_t>(header.record_count);
  if (start > static_cast<size_t>(batch->size()))
    return Status::Protocol("ARROW log batch shorter than its change-type vector");
  auto message_buf = arrow::SliceBuffer(batch, static_cast<int64_t>(start));
  arrow::io::BufferReader reader(message_buf);
  auto message = arrow::ipc::ReadMessage(&reader);
  if (!message.ok()) return Malformed(message.status(), "reading the Arrow message of a log batch");
  if (!*message) return Status::Protocol("empty Arrow message in a log batch");
  auto options = arrow::ipc::IpcReadOptions::Defaults();
  options.use_threads = false;
  // Fetched batches sit at arbitrary offsets: Arrow copies only the misaligned buffers.
  options.ensure_alignment = arrow::ipc::Alignment::kDataTypeSpecificAlignment;
  options.memory_pool = DecodeMemoryPool();
  const DecodeMemoryLimit limit(DecodedBufferLimit(batch->size()));
  auto rb = arrow::ipc::ReadRecordBatch(**message, schema, nullptr, options);
  if (!rb.ok()) return Malformed(rb.status(), "decoding the Arrow record batch of a log batch");
  if ((*rb)->num_rows() != header.record_count)
    return Status::Protocol("Arrow batch has " + std::to_string((*rb)->num_rows()) +
                            " rows but the batch header says " + std::to_string(header.record_count));
  // The IPC reader checks buffer sizes only: offsets pointing outside their data, invalid UTF-8
  // or decimals beyond their precision would reach every reader of the batch (and crash some).
  // Java's reader trusts the server here; a client that never crashes on bad bytes cannot.
  auto valid = ValidateBatchFull(**rb);
  if (!valid.ok()) return Malformed(valid, "validating the Arrow record batch of a log batch");
  return StripCharPadding(std::move(*rb));
}

}  // namespace fluss::record

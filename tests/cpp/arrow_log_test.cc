// ARROW log format (protocol-data.md section 2): a log batch is the 48-byte header followed by
// ONE bare Arrow IPC RecordBatch message (no schema message, no end-of-stream marker):
//
//   message offset 0   ff ff ff ff            continuation token
//                  4   int32 LE M             flatbuffer length, padded so 8 + M is a multiple of 8
//                  8   M bytes                flatbuffer Message{version, header: RecordBatch, bodyLength}
//              8 + M   bodyLength bytes       buffers, each at an 8-aligned body offset
//
// The flatbuffer is walked by hand here (a ~50 line reader below, written from the Arrow
// format's Message.fbs / Schema.fbs) so the structure check does not depend on Arrow's own
// reader; Arrow's ReadMessage is used as a second opinion.
//
// The second half decodes batches captured from a real Fluss 0.9.1 server, written by the
// official Java client (tests/data/README.md says how).
#include <gtest/gtest.h>

#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/message.h>
#include <arrow/json/from_string.h>
#include <arrow/util/compression.h>
#include <arrow/util/decimal.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "fluss/metadata/table_json.h"
#include "fluss/record/arrow_log.h"
#include "fluss/record/log_batch.h"
#include "fluss/util/bytes.h"

namespace {

using fluss::StatusCode;
using fluss::record::ComputeBatchCrc;
using fluss::record::DecodeArrowLogBatch;
using fluss::record::EncodeArrowLogBatch;
using fluss::record::LogBatchHeader;
using fluss::record::ParseLogBatchHeader;
using fluss::util::GetLe;

// ---------------------------------------------------------------------------------------------
// A minimal flatbuffer reader. A table starts with an int32 soffset: vtable = table - soffset.
// The vtable is uint16 [vtable size, table size, field offsets...]; offset 0 = field absent
// (default value). Offsets to sub-tables and vectors are uint32, relative to where they are
// stored; a vector is a uint32 count followed by its elements.

class Flatbuffer {
 public:
  Flatbuffer(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool ok() const { return ok_; }
  size_t Root() { return U32(0); }

  // Position of field `id` of the table at `table`, 0 if absent.
  size_t Field(size_t table, int id) {
    const size_t vtable = table - static_cast<size_t>(static_cast<int64_t>(I32(table)));
    const uint16_t vtable_size = U16(vtable);
    const size_t entry = 4 + 2 * static_cast<size_t>(id);
    if (entry + 2 > vtable_size) return 0;
    const uint16_t off = U16(vtable + entry);
    return off == 0 ? 0 : table + off;
  }
  template <typename T>
  T Scalar(size_t table, int id, T def) {
    const size_t p = Field(table, id);
    return p == 0 ? def : Read<T>(p);
  }
  // Sub-table (or vector) referenced by field `id`; 0 if absent.
  size_t Ref(size_t table, int id) {
    const size_t p = Field(table, id);
    return p == 0 ? 0 : p + U32(p);
  }
  // Vector of 16-byte structs {int64, int64} (FieldNode, Buffer).
  std::vector<std::pair<int64_t, int64_t>> StructVector(size_t table, int id) {
    std::vector<std::pair<int64_t, int64_t>> out;
    const size_t v = Ref(table, id);
    if (v == 0) return out;
    const uint32_t n = U32(v);
    for (uint32_t i = 0; i < n && ok_; ++i)
      out.emplace_back(Read<int64_t>(v + 4 + 16 * i), Read<int64_t>(v + 4 + 16 * i + 8));
    return out;
  }

 private:
  template <typename T>
  T Read(size_t p) {
    if (p + sizeof(T) > size_ || p + sizeof(T) < p) {
      ok_ = false;
      ADD_FAILURE() << "flatbuffer read out of bounds at " << p << " (size " << size_ << ")";
      return T{};
    }
    return GetLe<T>(data_ + p);
  }
  uint32_t U32(size_t p) { return Read<uint32_t>(p); }
  int32_t I32(size_t p) { return Read<int32_t>(p); }
  uint16_t U16(size_t p) { return Read<uint16_t>(p); }

  const uint8_t* data_;
  size_t size_;
  bool ok_ = true;
};

// What the hand walk finds in one encapsulated RecordBatch message.
struct IpcWalk {
  int32_t metadata_length = -1;  // M
  int16_t version = -1;          // MetadataVersion, V5 = 4
  uint8_t header_type = 0;       // MessageHeader union type, RecordBatch = 3
  int64_t body_length = -1;
  int64_t length = -1;  // RecordBatch.length: the row count
  std::vector<std::pair<int64_t, int64_t>> nodes;    // (length, null_count)
  std::vector<std::pair<int64_t, int64_t>> buffers;  // (offset, length) within the body
  bool compressed = false;
  int8_t codec = -1;   // CompressionType: LZ4_FRAME 0, ZSTD 1
  int8_t method = -1;  // BodyCompressionMethod: BUFFER 0
  const uint8_t* body = nullptr;
};

// Walks the message at `msg` that must fill exactly `size` bytes (the rest of a log batch).
IpcWalk WalkIpcMessage(const uint8_t* msg, size_t size) {
  IpcWalk w;
  if (size < 8) {
    ADD_FAILURE() << "message shorter than its 8-byte prefix";
    return w;
  }
  EXPECT_EQ(GetLe<uint32_t>(msg), 0xFFFFFFFFu) << "continuation token";
  w.metadata_length = GetLe<int32_t>(msg + 4);
  EXPECT_GT(w.metadata_length, 0);
  EXPECT_EQ((8 + w.metadata_length) % 8, 0) << "metadata is padded to 8 bytes";
  if (w.metadata_length <= 0 || static_cast<size_t>(w.metadata_length) + 8 > size) {
    ADD_FAILURE() << "metadata length " << w.metadata_length << " does not fit in " << size;
    return w;
  }
  Flatbuffer fb(msg + 8, static_cast<size_t>(w.metadata_length));
  const size_t message = fb.Root();
  w.version = fb.Scalar<int16_t>(message, 0, 0);
  w.header_type = fb.Scalar<uint8_t>(message, 1, 0);
  const size_t rb = fb.Ref(message, 2);
  w.body_length = fb.Scalar<int64_t>(message, 3, 0);
  if (rb == 0 || !fb.ok()) {
    ADD_FAILURE() << "Message without a header";
    return w;
  }
  w.length = fb.Scalar<int64_t>(rb, 0, 0);
  w.nodes = fb.StructVector(rb, 1);
  w.buffers = fb.StructVector(rb, 2);
  const size_t compression = fb.Ref(rb, 3);
  if (compression != 0) {
    w.compressed = true;
    w.codec = fb.Scalar<int8_t>(compression, 0, 0);
    w.method = fb.Scalar<int8_t>(compression, 1, 0);
  }
  w.body = msg + 8 + w.metadata_length;
  // The message ends exactly where the log batch ends.
  EXPECT_EQ(8 + static_cast<size_t>(w.metadata_length) + static_cast<size_t>(w.body_length), size);
  for (const auto& [offset, length] : w.buffers) {
    EXPECT_EQ(offset % 8, 0) << "buffer offset " << offset << " is not 8-aligned";
    EXPECT_GE(offset, 0);
    EXPECT_GE(length, 0);
    EXPECT_LE(offset + length, w.body_length) << "buffer (" << offset << ", " << length << ") outside the body";
  }
  return w;
}

// Second opinion from Arrow's own message reader.
void CheckWithArrowReader(const uint8_t* msg, size_t size, const IpcWalk& w) {
  arrow::io::BufferReader reader(std::make_shared<arrow::Buffer>(msg, static_cast<int64_t>(size)));
  auto message = arrow::ipc::ReadMessage(&reader);
  ASSERT_TRUE(message.ok()) << message.status().ToString();
  ASSERT_NE(*message, nullptr);
  EXPECT_EQ((*message)->type(), arrow::ipc::MessageType::RECORD_BATCH);
  EXPECT_EQ((*message)->metadata_version(), arrow::ipc::MetadataVersion::V5);
  EXPECT_EQ((*message)->body_length(), w.body_length);
  EXPECT_EQ((*message)->metadata()->size(), w.metadata_length);
}

std::shared_ptr<arrow::Buffer> Bytes(std::string s) { return arrow::Buffer::FromString(std::move(s)); }

std::string Str(const uint8_t* p, int64_t n) { return std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(n)); }

LogBatchHeader MustParse(const std::shared_ptr<arrow::Buffer>& b) {
  auto h = ParseLogBatchHeader(b->data(), static_cast<size_t>(b->size()));
  EXPECT_TRUE(h.ok()) << h.status().ToString();
  return h.ok() ? *h : LogBatchHeader{};
}

// ---------------------------------------------------------------------------------------------
// Our encoder, on a batch whose every buffer we build by hand:
//   a INT    = [1, NULL, 3]          validity 0b101 = 05; data 01000000 00000000 03000000
//   b STRING = ["fluss", NULL, "é"]  validity 05; offsets [0, 5, 5, 7]; data "fluss" c3 a9

const std::string kValidity("\x05", 1);
const std::string kIntData("\x01\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00", 12);
const std::string kOffsets("\x00\x00\x00\x00\x05\x00\x00\x00\x05\x00\x00\x00\x07\x00\x00\x00", 16);
const std::string kUtf8Data("fluss\xC3\xA9", 7);

std::shared_ptr<arrow::Schema> SmallSchema() {
  return arrow::schema({arrow::field("a", arrow::int32()), arrow::field("b", arrow::utf8())});
}

std::shared_ptr<arrow::RecordBatch> SmallBatch() {
  auto a = arrow::MakeArray(arrow::ArrayData::Make(arrow::int32(), 3, {Bytes(kValidity), Bytes(kIntData)}, 1));
  auto b = arrow::MakeArray(
      arrow::ArrayData::Make(arrow::utf8(), 3, {Bytes(kValidity), Bytes(kOffsets), Bytes(kUtf8Data)}, 1));
  EXPECT_TRUE(a->ValidateFull().ok());
  EXPECT_TRUE(b->ValidateFull().ok());
  return arrow::RecordBatch::Make(SmallSchema(), 3, {a, b});
}

std::shared_ptr<arrow::Buffer> Encode(const arrow::RecordBatch& rb, const std::string& codec, int16_t schema_id = 7) {
  auto options = fluss::record::ArrowWriteOptions(codec, 3);
  EXPECT_TRUE(options.ok()) << options.status().ToString();
  auto buf = EncodeArrowLogBatch(rb, schema_id, *options);
  EXPECT_TRUE(buf.ok()) << buf.status().ToString();
  return buf.ok() ? *buf : nullptr;
}

void ExpectSmallValues(const std::shared_ptr<arrow::RecordBatch>& rb) {
  ASSERT_NE(rb, nullptr);
  ASSERT_EQ(rb->num_rows(), 3);
  ASSERT_EQ(rb->num_columns(), 2);
  auto a = std::static_pointer_cast<arrow::Int32Array>(rb->column(0));
  auto b = std::static_pointer_cast<arrow::StringArray>(rb->column(1));
  EXPECT_EQ(a->Value(0), 1);
  EXPECT_TRUE(a->IsNull(1));
  EXPECT_EQ(a->Value(2), 3);
  EXPECT_EQ(b->GetString(0), "fluss");
  EXPECT_TRUE(b->IsNull(1));
  EXPECT_EQ(b->GetString(2), "\xC3\xA9");
}

TEST(ArrowLog, UncompressedBatchStructure) {
  auto buf = Encode(*SmallBatch(), "NONE");
  ASSERT_NE(buf, nullptr);
  // Header: Length = size - 12, append-only, RecordCount 3, LastOffsetDelta 2, no writer id.
  LogBatchHeader h = MustParse(buf);
  EXPECT_EQ(h.batch_size(), static_cast<size_t>(buf->size()));
  EXPECT_EQ(h.base_offset, 0);
  EXPECT_EQ(h.commit_timestamp, 0);
  EXPECT_EQ(h.schema_id, 7);
  EXPECT_EQ(h.attributes, 1);
  EXPECT_EQ(h.record_count, 3);
  EXPECT_EQ(h.last_offset_delta, 2);
  EXPECT_EQ(h.writer_id, -1);
  EXPECT_EQ(h.batch_sequence, -1);
  EXPECT_EQ(h.crc, ComputeBatchCrc(buf->data(), static_cast<size_t>(buf->size())));

  const uint8_t* msg = buf->data() + 48;
  const size_t msg_size = static_cast<size_t>(buf->size()) - 48;
  IpcWalk w = WalkIpcMessage(msg, msg_size);
  EXPECT_EQ(w.version, 4);      // V5
  EXPECT_EQ(w.header_type, 3);  // RecordBatch
  EXPECT_EQ(w.length, 3);       // = RecordCount
  EXPECT_FALSE(w.compressed);
  // One FieldNode per column: (length 3, null_count 1).
  EXPECT_EQ(w.nodes, (std::vector<std::pair<int64_t, int64_t>>{{3, 1}, {3, 1}}));
  // Buffers in Arrow's per-type order (Int32: validity, data; Utf8: validity, offsets, data),
  // exact unpadded lengths, each starting at the next multiple of 8:
  //   (0,1) validity a | (8,12) data a | (24,1) validity b | (32,16) offsets b | (48,7) data b
  EXPECT_EQ(w.buffers, (std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {8, 12}, {24, 1}, {32, 16}, {48, 7}}));
  EXPECT_EQ(w.body_length, 56);  // 48 + 7 rounded up to 8
  // The body, byte for byte: the buffers above with zero padding.
  const std::string expected_body = kValidity + std::string(7, '\0') + kIntData + std::string(4, '\0') +
                                    kValidity + std::string(7, '\0') + kOffsets + kUtf8Data + std::string(1, '\0');
  ASSERT_EQ(expected_body.size(), 56u);
  EXPECT_EQ(Str(w.body, w.body_length), expected_body);
  CheckWithArrowReader(msg, msg_size, w);

  auto rb = DecodeArrowLogBatch(buf, h, SmallSchema());
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  ExpectSmallValues(*rb);
}

TEST(ArrowLog, SingleIntColumnWithoutNulls) {
  // protocol-data.md 2.2's structure example: one nullable INT column, one row, value 7.
  // Arrow Java writes the validity bitmap even without nulls: buffers (0,1) (8,4), body 16.
  // Arrow C++ (our writer) leaves it empty when null_count = 0, which the IPC format allows
  // (a reader treats an empty validity buffer as "all valid"): buffers (0,0) (0,4), body 8.
  auto schema = arrow::schema({arrow::field("x", arrow::int32())});
  auto x = arrow::MakeArray(arrow::ArrayData::Make(arrow::int32(), 1, {nullptr, Bytes(std::string("\x07\0\0\0", 4))}, 0));
  auto buf = Encode(*arrow::RecordBatch::Make(schema, 1, {x}), "NONE");
  ASSERT_NE(buf, nullptr);
  IpcWalk w = WalkIpcMessage(buf->data() + 48, static_cast<size_t>(buf->size()) - 48);
  EXPECT_EQ(w.nodes, (std::vector<std::pair<int64_t, int64_t>>{{1, 0}}));
  EXPECT_EQ(w.buffers, (std::vector<std::pair<int64_t, int64_t>>{{0, 0}, {0, 4}}));
  EXPECT_EQ(w.body_length, 8);
  EXPECT_EQ(Str(w.body, 8), std::string("\x07\0\0\0\0\0\0\0", 8));
  auto rb = DecodeArrowLogBatch(buf, MustParse(buf), schema);
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  EXPECT_EQ(std::static_pointer_cast<arrow::Int32Array>((*rb)->column(0))->Value(0), 7);
  EXPECT_EQ((*rb)->column(0)->null_count(), 0);
}

TEST(ArrowLog, ZstdBatchStructure) {
  auto buf = Encode(*SmallBatch(), "ZSTD");
  ASSERT_NE(buf, nullptr);
  LogBatchHeader h = MustParse(buf);
  EXPECT_EQ(h.record_count, 3);
  EXPECT_EQ(h.crc, ComputeBatchCrc(buf->data(), static_cast<size_t>(buf->size())));
  const uint8_t* msg = buf->data() + 48;
  const size_t msg_size = static_cast<size_t>(buf->size()) - 48;
  IpcWalk w = WalkIpcMessage(msg, msg_size);
  EXPECT_EQ(w.header_type, 3);
  EXPECT_EQ(w.length, 3);
  EXPECT_EQ(w.nodes, (std::vector<std::pair<int64_t, int64_t>>{{3, 1}, {3, 1}}));
  // BodyCompression{codec ZSTD = 1, method BUFFER = 0}.
  ASSERT_TRUE(w.compressed);
  EXPECT_EQ(w.codec, 1);
  EXPECT_EQ(w.method, 0);
  // Every buffer is [int64 LE uncompressed length][zstd frame], or -1 and the raw bytes when
  // compressing would not help. Decompress each and compare with what we put in.
  const std::vector<std::string> raw = {kValidity, kIntData, kValidity, kOffsets, kUtf8Data};
  ASSERT_EQ(w.buffers.size(), raw.size());
  auto codec = arrow::util::Codec::Create(arrow::Compression::ZSTD);
  ASSERT_TRUE(codec.ok());
  for (size_t i = 0; i < raw.size(); ++i) {
    const auto [offset, length] = w.buffers[i];
    ASSERT_GE(length, 8) << "buffer " << i;
    const uint8_t* p = w.body + offset;
    const int64_t prefix = GetLe<int64_t>(p);
    if (prefix == -1) {
      EXPECT_EQ(Str(p + 8, length - 8), raw[i]) << "buffer " << i;
      continue;
    }
    ASSERT_EQ(prefix, static_cast<int64_t>(raw[i].size())) << "buffer " << i;
    std::string out(raw[i].size(), '\xEE');
    auto n = (*codec)->Decompress(length - 8, p + 8, static_cast<int64_t>(out.size()),
                                  reinterpret_cast<uint8_t*>(out.data()));
    ASSERT_TRUE(n.ok()) << "buffer " << i << ": " << n.status().ToString();
    EXPECT_EQ(*n, prefix);
    EXPECT_EQ(out, raw[i]) << "buffer " << i;
  }
  CheckWithArrowReader(msg, msg_size, w);
  auto rb = DecodeArrowLogBatch(buf, h, SmallSchema());
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  ExpectSmallValues(*rb);
}

TEST(ArrowLog, ZstdActuallyCompresses) {
  // 1000 zero int64 values: an 8000-byte data buffer that zstd shrinks to a few bytes.
  arrow::Int64Builder builder;
  ASSERT_TRUE(builder.AppendEmptyValues(1000).ok());
  auto col = *builder.Finish();
  auto schema = arrow::schema({arrow::field("z", arrow::int64(), false)});
  auto buf = Encode(*arrow::RecordBatch::Make(schema, 1000, {col}), "zstd");  // case-insensitive
  ASSERT_NE(buf, nullptr);
  IpcWalk w = WalkIpcMessage(buf->data() + 48, static_cast<size_t>(buf->size()) - 48);
  ASSERT_EQ(w.buffers.size(), 2u);
  const auto [offset, length] = w.buffers[1];
  EXPECT_EQ(GetLe<int64_t>(w.body + offset), 8000);
  EXPECT_LT(length, 100);
  auto rb = DecodeArrowLogBatch(buf, MustParse(buf), schema);
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  EXPECT_EQ((*rb)->num_rows(), 1000);
  EXPECT_EQ(std::static_pointer_cast<arrow::Int64Array>((*rb)->column(0))->Value(999), 0);
}

TEST(ArrowLog, WriteOptionsFollowTheTableProperty) {
  auto none = fluss::record::ArrowWriteOptions("none", 3);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->codec, nullptr);
  auto zstd = fluss::record::ArrowWriteOptions("ZSTD", 5);
  ASSERT_TRUE(zstd.ok());
  ASSERT_NE(zstd->codec, nullptr);
  EXPECT_EQ(zstd->codec->compression_type(), arrow::Compression::ZSTD);
  auto lz4 = fluss::record::ArrowWriteOptions("LZ4_FRAME", 3);
  ASSERT_TRUE(lz4.ok());
  EXPECT_NE(lz4->codec, nullptr);
  auto bad = fluss::record::ArrowWriteOptions("snappy", 3);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("table.log.arrow.compression.type"), std::string::npos);
  EXPECT_NE(bad.status().message().find("snappy"), std::string::npos);
}

// ---- decoding edge cases ----

TEST(ArrowLog, ChangeTypeVectorIsSkipped) {
  // A changelog batch (Attributes bit 0 clear) has RecordCount change-type bytes between the
  // header and the IPC message (section 2.1). Build one from an append-only batch: insert
  // +I, +U, -D (1, 3, 4), clear the flag, grow Length by 3, recompute the CRC.
  auto plain = Encode(*SmallBatch(), "NONE");
  ASSERT_NE(plain, nullptr);
  std::string bytes = Str(plain->data(), plain->size());
  bytes.insert(48, std::string("\x01\x03\x04", 3));
  bytes[27] = 0;
  fluss::util::PutLe<int32_t>(reinterpret_cast<uint8_t*>(bytes.data()) + 8, static_cast<int32_t>(bytes.size() - 12));
  auto buf = Bytes(bytes);
  auto mutable_buf = *arrow::AllocateBuffer(buf->size());
  std::memcpy(mutable_buf->mutable_data(), buf->data(), static_cast<size_t>(buf->size()));
  fluss::record::SetWriterAndSequence(mutable_buf->mutable_data(), static_cast<size_t>(buf->size()), -1, -1);
  std::shared_ptr<arrow::Buffer> changelog(std::move(mutable_buf));
  LogBatchHeader h = MustParse(changelog);
  EXPECT_FALSE(h.append_only());
  EXPECT_EQ(h.crc, ComputeBatchCrc(changelog->data(), static_cast<size_t>(changelog->size())));
  auto rb = DecodeArrowLogBatch(changelog, h, SmallSchema());
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  ExpectSmallValues(*rb);
}

TEST(ArrowLog, MisalignedBatchDecodes) {
  // Batches sit at arbitrary offsets in a fetch response: decode from an odd address.
  auto plain = Encode(*SmallBatch(), "NONE");
  ASSERT_NE(plain, nullptr);
  for (int64_t shift : {1, 3, 5}) {
    auto big = *arrow::AllocateBuffer(plain->size() + shift);
    std::memcpy(big->mutable_data() + shift, plain->data(), static_cast<size_t>(plain->size()));
    std::shared_ptr<arrow::Buffer> whole(std::move(big));
    auto slice = arrow::SliceBuffer(whole, shift, plain->size());
    auto rb = DecodeArrowLogBatch(slice, MustParse(slice), SmallSchema());
    ASSERT_TRUE(rb.ok()) << "shift " << shift << ": " << rb.status().ToString();
    ExpectSmallValues(*rb);
    // The decoded arrays are safe for zero-copy consumers (C Data Interface, numpy): int32
    // values and Utf8 offsets are 4-byte aligned although the batch started at an odd address.
    auto a = std::static_pointer_cast<arrow::Int32Array>((*rb)->column(0));
    auto b = std::static_pointer_cast<arrow::StringArray>((*rb)->column(1));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a->raw_values()) % alignof(int32_t), 0u) << "shift " << shift;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b->raw_value_offsets()) % alignof(int32_t), 0u) << "shift " << shift;
  }
}

TEST(ArrowLog, HeaderOnlyBatchDecodesToNothing) {
  // RecordCount 0: no change types and no Arrow message at all.
  auto empty = *arrow::AllocateBuffer(48);
  fluss::record::WriteLogBatchHeader(empty->mutable_data(), 48, 1, 0, -1, -1);
  std::shared_ptr<arrow::Buffer> buf(std::move(empty));
  auto rb = DecodeArrowLogBatch(buf, MustParse(buf), SmallSchema());
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  EXPECT_EQ(*rb, nullptr);
}

TEST(ArrowLog, RecordCountMismatchAndTruncationAreErrors) {
  auto plain = Encode(*SmallBatch(), "NONE");
  ASSERT_NE(plain, nullptr);
  LogBatchHeader h = MustParse(plain);
  LogBatchHeader wrong = h;
  wrong.record_count = 4;
  auto mismatch = DecodeArrowLogBatch(plain, wrong, SmallSchema());
  ASSERT_FALSE(mismatch.ok());
  EXPECT_EQ(mismatch.status().code(), StatusCode::kProtocol);
  EXPECT_NE(mismatch.status().message().find("3 rows"), std::string::npos) << mismatch.status().message();

  // Cut inside the body and inside the metadata: an error, never a crash.
  for (int64_t cut : {plain->size() - 10, int64_t{48 + 20}, int64_t{48 + 4}}) {
    auto truncated = arrow::SliceBuffer(plain, 0, cut);
    auto rb = DecodeArrowLogBatch(truncated, h, SmallSchema());
    EXPECT_FALSE(rb.ok()) << "cut at " << cut;
  }
}

// ---------------------------------------------------------------------------------------------
// Batches captured from a real Fluss 0.9.1 server, written by the Java client
// (tests/tools/CaptureWrite.java; tests/data/README.md). Table unit_capture.java_zstd /
// java_none, 16 columns, schema id 1. Expected values, from the Java rows and the Arrow
// conversions of protocol-data.md section 11:
//   DATE -> Date32 days: 2024-01-01 = 54*365 + 13 leap days = 19723
//   TIME(3) -> Time32(ms): 12:34:56.789 = 12*3600000 + 34*60000 + 56789 = 45296789
//   TIMESTAMP(6) -> Timestamp(us) = millis*1000 + nanoOfMilli/1000:
//        (1704112496123, 456000) -> 1704112496123456;  (-1, 999000) -> -1000 + 999 = -1
//   TIMESTAMP_LTZ(3) -> Timestamp(ms) = epoch millis (read as tz UTC)
//   DECIMAL(10,2) -> Decimal128 unscaled: 12345.67 -> 1234567, -0.01 -> -1, 99999999.99 -> 9999999999

struct JavaRow {
  int32_t id;
  std::optional<bool> flag;
  std::optional<int8_t> tiny;
  std::optional<int16_t> small;
  std::optional<int64_t> big;
  std::optional<float> f32;
  std::optional<double> f64;
  std::optional<std::string> name, code, raw, fixed;
  std::optional<int64_t> amount;  // unscaled, scale 2
  std::optional<int32_t> day;
  std::optional<int32_t> tod;
  std::optional<int64_t> ts;   // microseconds
  std::optional<int64_t> ltz;  // milliseconds
};

const JavaRow kJavaRows[] = {
    {1, true, -128, -32768, std::numeric_limits<int64_t>::max(), 1.5f, -2.25, "hello", "ab",
     std::string("\x00\x01\xFF", 3), "abc", 1234567, 19723, 45296789, 1704112496123456, 1704112496123},
    {2, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}},
    {3, false, 127, 32767, -1, -0.5f, 1e300, "Gr\xC3\xBC\xC3\x9F" "e \xE2\x9C\x93", "wxyz", std::string(),
     std::string(3, '\0'), -1, -1, 0, -1, 0},
    {4, {}, 0, {}, 0, {}, 0.0, {}, {}, {}, "xyz", 9999999999, {}, 86399999, {}, -1000},
};

template <typename ArrayT, typename T>
void ExpectValue(const std::shared_ptr<arrow::Array>& col, int64_t i, const std::optional<T>& v, const char* name) {
  auto a = std::static_pointer_cast<ArrayT>(col);
  if (!v) {
    EXPECT_TRUE(a->IsNull(i)) << name << " row " << i;
    return;
  }
  ASSERT_FALSE(a->IsNull(i)) << name << " row " << i;
  if constexpr (std::is_same_v<T, std::string>) {
    EXPECT_EQ(a->GetString(i), *v) << name << " row " << i;
  } else {
    EXPECT_EQ(a->Value(i), *v) << name << " row " << i;
  }
}

// Checks row `i` of `rb` against kJavaRows[first + i].
void ExpectJavaRows(const arrow::RecordBatch& rb, int first) {
  for (int64_t i = 0; i < rb.num_rows(); ++i) {
    const JavaRow& r = kJavaRows[first + i];
    SCOPED_TRACE("java row " + std::to_string(first + i));
    ExpectValue<arrow::Int32Array>(rb.column(0), i, std::optional<int32_t>(r.id), "id");
    ExpectValue<arrow::BooleanArray>(rb.column(1), i, r.flag, "flag");
    ExpectValue<arrow::Int8Array>(rb.column(2), i, r.tiny, "tiny");
    ExpectValue<arrow::Int16Array>(rb.column(3), i, r.small, "small");
    ExpectValue<arrow::Int64Array>(rb.column(4), i, r.big, "big");
    ExpectValue<arrow::FloatArray>(rb.column(5), i, r.f32, "f32");
    ExpectValue<arrow::DoubleArray>(rb.column(6), i, r.f64, "f64");
    ExpectValue<arrow::StringArray>(rb.column(7), i, r.name, "name");
    ExpectValue<arrow::StringArray>(rb.column(8), i, r.code, "code");  // CHAR(4): not padded
    ExpectValue<arrow::BinaryArray>(rb.column(9), i, r.raw, "raw");
    ExpectValue<arrow::FixedSizeBinaryArray>(rb.column(10), i, r.fixed, "fixed");
    auto amount = std::static_pointer_cast<arrow::Decimal128Array>(rb.column(11));
    if (r.amount) {
      ASSERT_FALSE(amount->IsNull(i));
      EXPECT_EQ(arrow::Decimal128(amount->Value(i)), arrow::Decimal128(*r.amount)) << "amount";
    } else {
      EXPECT_TRUE(amount->IsNull(i)) << "amount";
    }
    ExpectValue<arrow::Date32Array>(rb.column(12), i, r.day, "day");
    ExpectValue<arrow::Time32Array>(rb.column(13), i, r.tod, "tod");
    ExpectValue<arrow::TimestampArray>(rb.column(14), i, r.ts, "ts");
    ExpectValue<arrow::TimestampArray>(rb.column(15), i, r.ltz, "ltz");
  }
}

std::string ReadFile(const std::string& name) {
  std::ifstream in(std::string(FLUSS_TEST_DATA_DIR) + "/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::shared_ptr<arrow::Schema> CapturedSchema() {
  const std::string json = ReadFile("java_zstd.table.json");
  EXPECT_FALSE(json.empty()) << "missing tests/data/java_zstd.table.json";
  auto d = fluss::metadata::TableDescriptorFromJson(json);
  EXPECT_TRUE(d.ok()) << d.status().ToString();
  if (!d.ok()) return nullptr;
  auto s = d->schema.arrow_schema;
  // The schema the values above assume (protocol-data.md section 11 + LTZ shown as UTC).
  auto expected = arrow::schema({
      arrow::field("id", arrow::int32(), false), arrow::field("flag", arrow::boolean()),
      arrow::field("tiny", arrow::int8()), arrow::field("small", arrow::int16()),
      arrow::field("big", arrow::int64()), arrow::field("f32", arrow::float32()),
      arrow::field("f64", arrow::float64()), arrow::field("name", arrow::utf8()),
      arrow::field("code", arrow::utf8()), arrow::field("raw", arrow::binary()),
      arrow::field("fixed", arrow::fixed_size_binary(3)), arrow::field("amount", arrow::decimal128(10, 2)),
      arrow::field("day", arrow::date32()), arrow::field("tod", arrow::time32(arrow::TimeUnit::MILLI)),
      arrow::field("ts", arrow::timestamp(arrow::TimeUnit::MICRO)),
      arrow::field("ltz", arrow::timestamp(arrow::TimeUnit::MILLI, "UTC")),
  });
  EXPECT_TRUE(s->Equals(*expected)) << s->ToString();
  return s;
}

struct CapturedBatch {
  LogBatchHeader header;
  std::shared_ptr<arrow::Buffer> bytes;  // exactly one batch
};

std::vector<CapturedBatch> WalkCaptured(const std::shared_ptr<arrow::Buffer>& records, fluss::Status* status) {
  std::vector<CapturedBatch> out;
  fluss::record::LogBatchIterator it(records->data(), static_cast<size_t>(records->size()));
  LogBatchHeader h;
  const uint8_t* p = nullptr;
  while (it.Next(&h, &p, status))
    out.push_back({h, arrow::SliceBuffer(records, p - records->data(), static_cast<int64_t>(h.batch_size()))});
  return out;
}

// Node null counts per column, from the rows above (NULLs in rows first..first+n-1).
std::vector<std::pair<int64_t, int64_t>> ExpectedNodes(int first, int n) {
  std::vector<std::pair<int64_t, int64_t>> nodes(16, {n, 0});
  for (int r = first; r < first + n; ++r) {
    const JavaRow& j = kJavaRows[r];
    const bool nulls[16] = {false, !j.flag, !j.tiny, !j.small, !j.big, !j.f32, !j.f64, !j.name,
                            !j.code, !j.raw, !j.fixed, !j.amount, !j.day, !j.tod, !j.ts, !j.ltz};
    for (int c = 0; c < 16; ++c) nodes[c].second += nulls[c] ? 1 : 0;
  }
  return nodes;
}

// 16 columns: 13 with (validity, data) - BINARY(3) is FixedSizeBinary - and 3 variable-width
// ones, STRING, CHAR(4) and BYTES, with (validity, offsets, data).
constexpr size_t kJavaBufferCount = 13 * 2 + 3 * 3;

TEST(CapturedJavaBatch, ZstdOneBatchOfFourRows) {
  auto schema = CapturedSchema();
  ASSERT_NE(schema, nullptr);
  const std::string file = ReadFile("java_zstd.bin");
  ASSERT_FALSE(file.empty()) << "missing tests/data/java_zstd.bin";
  auto records = Bytes(file);
  fluss::Status st;
  auto batches = WalkCaptured(records, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(batches.size(), 1u);
  const auto& [h, bytes] = batches[0];
  EXPECT_EQ(h.batch_size(), file.size());  // one batch fills the fetch answer
  // Set by the server: offset 0 of a fresh table and a commit timestamp.
  EXPECT_EQ(h.base_offset, 0);
  EXPECT_GT(h.commit_timestamp, 1700000000000);
  // Set by the Java writer: magic 0, schema 1, append-only, 4 records, idempotence on (the
  // Java default) so a real writer id and the bucket's first batch sequence 0.
  EXPECT_EQ(h.magic, 0);
  EXPECT_EQ(h.schema_id, 1);
  EXPECT_EQ(h.attributes, 1);
  EXPECT_EQ(h.record_count, 4);
  EXPECT_EQ(h.last_offset_delta, 3);
  EXPECT_EQ(h.next_offset(), 4);
  EXPECT_GE(h.writer_id, 0);
  EXPECT_EQ(h.batch_sequence, 0);
  // The Java client's CRC-32C agrees with ours over the real bytes...
  EXPECT_EQ(ComputeBatchCrc(bytes->data(), static_cast<size_t>(bytes->size())), h.crc);
  // ...and any change in the covered bytes is caught.
  std::string tampered = Str(bytes->data(), bytes->size());
  tampered[tampered.size() - 20] ^= 0x10;
  EXPECT_NE(ComputeBatchCrc(reinterpret_cast<const uint8_t*>(tampered.data()), tampered.size()), h.crc);

  // Arrow Java's message: RecordBatch of 4 rows, ZSTD body compression.
  IpcWalk w = WalkIpcMessage(bytes->data() + 48, static_cast<size_t>(bytes->size()) - 48);
  EXPECT_EQ(w.version, 4);
  EXPECT_EQ(w.header_type, 3);
  EXPECT_EQ(w.length, 4);
  ASSERT_TRUE(w.compressed);
  EXPECT_EQ(w.codec, 1);
  EXPECT_EQ(w.method, 0);
  EXPECT_EQ(w.nodes, ExpectedNodes(0, 4));
  EXPECT_EQ(w.buffers.size(), kJavaBufferCount);
  CheckWithArrowReader(bytes->data() + 48, static_cast<size_t>(bytes->size()) - 48, w);

  auto rb = DecodeArrowLogBatch(bytes, h, schema);
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  ASSERT_NE(*rb, nullptr);
  ASSERT_EQ((*rb)->num_rows(), 4);
  ASSERT_TRUE((*rb)->ValidateFull().ok());
  ExpectJavaRows(**rb, 0);
}

TEST(CapturedJavaBatch, UncompressedTwoBatches) {
  auto schema = CapturedSchema();
  ASSERT_NE(schema, nullptr);
  const std::string file = ReadFile("java_none.bin");
  ASSERT_FALSE(file.empty()) << "missing tests/data/java_none.bin";
  auto records = Bytes(file);
  fluss::Status st;
  auto batches = WalkCaptured(records, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  // Two flushes of two rows each -> two batches back to back, offsets 0-1 and 2-3, batch
  // sequences 0 and 1 of the same writer.
  ASSERT_EQ(batches.size(), 2u);
  EXPECT_EQ(batches[0].header.batch_size() + batches[1].header.batch_size(), file.size());
  for (int b = 0; b < 2; ++b) {
    SCOPED_TRACE("batch " + std::to_string(b));
    const auto& [h, bytes] = batches[b];
    EXPECT_EQ(h.base_offset, 2 * b);
    EXPECT_EQ(h.record_count, 2);
    EXPECT_EQ(h.last_offset_delta, 1);
    EXPECT_EQ(h.next_offset(), 2 * b + 2);
    EXPECT_EQ(h.schema_id, 1);
    EXPECT_TRUE(h.append_only());
    EXPECT_EQ(h.batch_sequence, b);
    EXPECT_EQ(h.writer_id, batches[0].header.writer_id);
    EXPECT_EQ(ComputeBatchCrc(bytes->data(), static_cast<size_t>(bytes->size())), h.crc);

    IpcWalk w = WalkIpcMessage(bytes->data() + 48, static_cast<size_t>(bytes->size()) - 48);
    EXPECT_EQ(w.header_type, 3);
    EXPECT_EQ(w.length, 2);
    EXPECT_FALSE(w.compressed);  // table.log.arrow.compression.type = NONE
    EXPECT_EQ(w.nodes, ExpectedNodes(2 * b, 2));
    EXPECT_EQ(w.buffers.size(), kJavaBufferCount);

    auto rb = DecodeArrowLogBatch(bytes, h, schema);
    ASSERT_TRUE(rb.ok()) << rb.status().ToString();
    ASSERT_NE(*rb, nullptr);
    ASSERT_EQ((*rb)->num_rows(), 2);
    ASSERT_TRUE((*rb)->ValidateFull().ok());
    ExpectJavaRows(**rb, 2 * b);
  }
}

TEST(CapturedJavaBatch, FetchCutInsideTheSecondBatch) {
  // A fetch cut at max_fetch_bytes ends inside a batch: only complete batches come out.
  const std::string file = ReadFile("java_none.bin");
  ASSERT_FALSE(file.empty());
  auto first = ParseLogBatchHeader(reinterpret_cast<const uint8_t*>(file.data()), file.size());
  ASSERT_TRUE(first.ok());
  auto cut = Bytes(file.substr(0, first->batch_size() + 100));
  fluss::Status st;
  auto batches = WalkCaptured(cut, &st);
  EXPECT_TRUE(st.ok());
  ASSERT_EQ(batches.size(), 1u);
  EXPECT_EQ(batches[0].header.base_offset, 0);
}

// (found by the Python property tests) The changelog of a kv format INDEXED table carries CHAR(n)
// values with their 0x00 padding at every nesting level: the reader strips it inside ARRAY, MAP
// and ROW values as at the top, keeping nulls and the positions enclosing offsets refer to.
TEST(ArrowLog, CharPaddingIsStrippedAtEveryLevel) {
  auto char2 = arrow::key_value_metadata({"fluss.char_length"}, {"2"});
  auto item = arrow::field("item", arrow::utf8(), true, char2);
  auto row_type = arrow::struct_({arrow::field("c", arrow::utf8(), true, char2), arrow::field("n", arrow::int32())});
  auto map_type = std::make_shared<arrow::MapType>(arrow::field("key", arrow::utf8(), false, char2),
                                                   arrow::field("value", arrow::utf8(), true, char2));
  auto schema = arrow::schema({arrow::field("top", arrow::utf8(), true, char2), arrow::field("tags", arrow::list(item)),
                               arrow::field("r", row_type), arrow::field("m", map_type)});
  auto json = [](const std::shared_ptr<arrow::DataType>& t, const char* text) {
    return arrow::json::ArrayFromJSONString(t, text).ValueOrDie();
  };
  std::vector<std::shared_ptr<arrow::Array>> padded = {
      json(arrow::utf8(), R"(["a\u0000", null, "\u0000\u0000"])"),
      json(arrow::list(item), R"([["\u0000\u0000", null, "ab"], null, ["b\u0000"]])"),
      json(row_type, R"([{"c": "x\u0000", "n": 1}, null, {"c": null, "n": 2}])"),
      json(map_type, R"([[["k\u0000", "\u0000\u0000"]], null, [["cd", null]]])")};
  // Sliced, so that the children sit at offsets of their own.
  for (auto& a : padded) a = a->Slice(0);
  auto buf = Encode(*arrow::RecordBatch::Make(schema, 3, padded), "NONE");
  ASSERT_NE(buf, nullptr);
  auto rb = DecodeArrowLogBatch(buf, MustParse(buf), schema);
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  const std::vector<std::shared_ptr<arrow::Array>> want = {
      json(arrow::utf8(), R"(["a", null, ""])"), json(arrow::list(item), R"([["", null, "ab"], null, ["b"]])"),
      json(row_type, R"([{"c": "x", "n": 1}, null, {"c": null, "n": 2}])"),
      json(map_type, R"([[["k", ""]], null, [["cd", null]]])")};
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE((*rb)->column(i)->ValidateFull().ok()) << i;
    EXPECT_TRUE((*rb)->column(i)->Equals(*want[static_cast<size_t>(i)])) << (*rb)->column(i)->ToString();
  }
}

}  // namespace

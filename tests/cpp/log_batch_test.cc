// Log record batch header, magic 0 (protocol-data.md sections 1.2-1.4). All little-endian:
//   0 BaseOffset i64 | 8 Length i32 | 12 Magic i8 | 13 CommitTimestamp i64 | 21 CRC u32 |
//   25 SchemaId i16 | 27 Attributes i8 | 28 LastOffsetDelta i32 | 32 WriterId i64 |
//   40 BatchSequence i32 | 44 RecordCount i32 | 48 records
// CRC-32C over [25, end of batch).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "fluss/record/log_batch.h"
#include "fluss/util/bytes.h"
#include "fluss/util/crc32c.h"

namespace {

using fluss::StatusCode;
using fluss::record::ComputeBatchCrc;
using fluss::record::LogBatchHeader;
using fluss::record::LogBatchIterator;
using fluss::record::ParseLogBatchHeader;
using fluss::record::WriteLogBatchHeader;
using Bytes = std::vector<uint8_t>;

// protocol-data.md 1.4: table (a INT, b STRING, c BIGINT), schema id 1, row (1, 'a', 100),
// INDEXED log format. The records area (offset 48..70) is one IndexedLogRecord:
//   13 00 00 00   record Length 19 (1 change type byte + 18 IndexedRow bytes)
//   00            ChangeType +A
//   00 | 01 00 00 00 | 01 00 00 00 | 61 | 64 00 00 00 00 00 00 00
//   null bitmap, a=1, length of b=1, 'a', c=100   (IndexedRow, section 4.2 E1)
const Bytes kIndexedRecords = {0x13, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00,
                               0x00, 0x00, 0x61, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

// The whole 71-byte batch of section 1.4, header field by field.
const Bytes kIndexedBatch = {
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // BaseOffset 0 (set by the server)
    0x3b, 0x00, 0x00, 0x00,                          // Length 59 = 71 - 12
    0x00,                                            // Magic 0
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // CommitTimestamp 0 (set by the server)
    0x76, 0x57, 0x73, 0x89,                          // CRC 0x89735776 over bytes 25..70
    0x01, 0x00,                                      // SchemaId 1
    0x01,                                            // Attributes: append-only
    0x00, 0x00, 0x00, 0x00,                          // LastOffsetDelta 0 = 1 record - 1
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,  // WriterId -1 (no idempotence)
    0xff, 0xff, 0xff, 0xff,                          // BatchSequence -1
    0x01, 0x00, 0x00, 0x00,                          // RecordCount 1
    // records
    0x13, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x61, 0x64,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

// COMPACTED variant of the same row (section 1.4): 58 bytes, Length 46, CRC 0xC4B0A983.
// Record: 06 00 00 00 (length 6) | 00 (+A) | 00 (null bitmap) 01 (a=1 varint) 01 61 ('a')
// 64 (c=100 varint).
const Bytes kCompactedRecords = {0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x61, 0x64};

Bytes BatchWithRecords(const Bytes& records, int16_t schema_id, int32_t record_count,
                       int64_t writer_id = -1, int32_t sequence = -1) {
  Bytes b(48, 0xEE);  // 0xEE: catches header bytes the writer forgets to set
  b.insert(b.end(), records.begin(), records.end());
  WriteLogBatchHeader(b.data(), b.size(), schema_id, record_count, writer_id, sequence);
  return b;
}

TEST(LogBatchHeader, IndexedWorkedExampleByteForByte) {
  ASSERT_EQ(kIndexedBatch.size(), 71u);
  Bytes b = BatchWithRecords(kIndexedRecords, 1, 1);
  ASSERT_EQ(b.size(), 71u);
  for (size_t i = 0; i < b.size(); ++i) EXPECT_EQ(b[i], kIndexedBatch[i]) << "byte " << i;
}

TEST(LogBatchHeader, CompactedWorkedExample) {
  Bytes b = BatchWithRecords(kCompactedRecords, 1, 1);
  ASSERT_EQ(b.size(), 58u);
  Bytes expected = kIndexedBatch;
  expected.resize(48);
  expected[8] = 0x2e;  // Length 46 = 58 - 12
  expected[21] = 0x83;  // CRC 0xC4B0A983, little-endian
  expected[22] = 0xa9;
  expected[23] = 0xb0;
  expected[24] = 0xc4;
  expected.insert(expected.end(), kCompactedRecords.begin(), kCompactedRecords.end());
  EXPECT_EQ(b, expected);
}

TEST(LogBatchHeader, ParseWorkedExample) {
  auto h = ParseLogBatchHeader(kIndexedBatch.data(), kIndexedBatch.size());
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->base_offset, 0);
  EXPECT_EQ(h->length, 59);
  EXPECT_EQ(h->magic, 0);
  EXPECT_EQ(h->commit_timestamp, 0);
  EXPECT_EQ(h->crc, 0x89735776u);
  EXPECT_EQ(h->schema_id, 1);
  EXPECT_EQ(h->attributes, 1);
  EXPECT_TRUE(h->append_only());
  EXPECT_EQ(h->last_offset_delta, 0);
  EXPECT_EQ(h->writer_id, -1);
  EXPECT_EQ(h->batch_sequence, -1);
  EXPECT_EQ(h->record_count, 1);
  EXPECT_EQ(h->batch_size(), 71u);
  EXPECT_EQ(h->header_size(), 48u);
  EXPECT_EQ(ComputeBatchCrc(kIndexedBatch.data(), kIndexedBatch.size()), 0x89735776u);
}

TEST(LogBatchHeader, ParseEveryFieldAtItsOffset) {
  // A header with a distinct value in every field, written by hand (LE):
  Bytes b = {
      0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,  // BaseOffset 0x0102030405060708
      0x24, 0x00, 0x00, 0x00,                          // Length 36: header only
      0x00,                                            // Magic
      0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x00,  // CommitTimestamp 0x0017161514131211
      0xa1, 0xb2, 0xc3, 0xd4,                          // CRC 0xD4C3B2A1
      0xff, 0x7f,                                      // SchemaId 32767 (max int16)
      0x00,                                            // Attributes 0: not append-only
      0x04, 0x00, 0x00, 0x00,                          // LastOffsetDelta 4
      0x39, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // WriterId 12345
      0x02, 0x01, 0x00, 0x00,                          // BatchSequence 258
      0x00, 0x00, 0x00, 0x00};                         // RecordCount 0
  auto h = ParseLogBatchHeader(b.data(), b.size());
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->base_offset, 0x0102030405060708);
  EXPECT_EQ(h->length, 36);
  EXPECT_EQ(h->commit_timestamp, 0x0017161514131211);
  EXPECT_EQ(h->crc, 0xD4C3B2A1u);
  EXPECT_EQ(h->schema_id, 32767);
  EXPECT_FALSE(h->append_only());
  EXPECT_EQ(h->last_offset_delta, 4);
  EXPECT_EQ(h->writer_id, 12345);
  EXPECT_EQ(h->batch_sequence, 258);
  EXPECT_EQ(h->record_count, 0);
  // Offsets come from LastOffsetDelta, not from RecordCount (a changelog batch with no
  // records still consumes offsets).
  EXPECT_EQ(h->last_offset(), 0x0102030405060708 + 4);
  EXPECT_EQ(h->next_offset(), 0x0102030405060708 + 5);
}

TEST(LogBatchHeader, LastOffsetDeltaAndEmptyBatch) {
  // RecordCount 3 -> LastOffsetDelta 2.
  Bytes three = BatchWithRecords(Bytes(5, 0xAB), 2, 3, 77, 9);
  EXPECT_EQ(Bytes(three.begin() + 28, three.begin() + 32), (Bytes{0x02, 0x00, 0x00, 0x00}));
  EXPECT_EQ(Bytes(three.begin() + 44, three.begin() + 48), (Bytes{0x03, 0x00, 0x00, 0x00}));
  EXPECT_EQ(Bytes(three.begin() + 32, three.begin() + 40), (Bytes{77, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(Bytes(three.begin() + 40, three.begin() + 44), (Bytes{9, 0, 0, 0}));
  // No records: LastOffsetDelta 0 (not -1), Length 36.
  Bytes empty = BatchWithRecords({}, 1, 0);
  ASSERT_EQ(empty.size(), 48u);
  EXPECT_EQ(Bytes(empty.begin() + 8, empty.begin() + 12), (Bytes{0x24, 0x00, 0x00, 0x00}));
  EXPECT_EQ(Bytes(empty.begin() + 28, empty.begin() + 32), (Bytes{0x00, 0x00, 0x00, 0x00}));
  EXPECT_EQ(Bytes(empty.begin() + 44, empty.begin() + 48), (Bytes{0x00, 0x00, 0x00, 0x00}));
  // The CRC of a header-only batch covers the 23 bytes 25..47.
  EXPECT_EQ(fluss::util::GetLe<uint32_t>(empty.data() + 21), fluss::util::Crc32c(empty.data() + 25, 23));
}

TEST(LogBatchHeader, CrcCoversSchemaIdToEndOnly) {
  Bytes b = kIndexedBatch;
  const uint32_t crc = ComputeBatchCrc(b.data(), b.size());
  // BaseOffset, Length, Magic and CommitTimestamp are outside the CRC so the server can rewrite
  // them; the stored CRC itself too.
  for (size_t i = 0; i < 25; ++i) {
    Bytes m = b;
    m[i] ^= 0x5A;
    EXPECT_EQ(ComputeBatchCrc(m.data(), m.size()), crc) << "byte " << i;
  }
  // Everything from SchemaId to the last record byte is covered.
  for (size_t i = 25; i < b.size(); ++i) {
    Bytes m = b;
    m[i] ^= 0x01;
    EXPECT_NE(ComputeBatchCrc(m.data(), m.size()), crc) << "byte " << i;
  }
}

TEST(LogBatchHeader, SetWriterAndSequenceRewritesAndReChecksums) {
  Bytes b = kIndexedBatch;
  fluss::record::SetWriterAndSequence(b.data(), b.size(), 0x0102030405060708, 5);
  EXPECT_EQ(Bytes(b.begin() + 32, b.begin() + 40), (Bytes{0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01}));
  EXPECT_EQ(Bytes(b.begin() + 40, b.begin() + 44), (Bytes{0x05, 0x00, 0x00, 0x00}));
  // Only WriterId, BatchSequence and the CRC change.
  for (size_t i = 0; i < b.size(); ++i) {
    if ((i >= 21 && i < 25) || (i >= 32 && i < 44)) continue;
    EXPECT_EQ(b[i], kIndexedBatch[i]) << "byte " << i;
  }
  const uint32_t stored = fluss::util::GetLe<uint32_t>(b.data() + 21);
  EXPECT_NE(stored, 0x89735776u);
  EXPECT_EQ(stored, fluss::util::Crc32c(b.data() + 25, b.size() - 25));
}

TEST(LogBatchHeader, ParseRejectsShortUnknownMagicAndBadLength) {
  auto short_h = ParseLogBatchHeader(kIndexedBatch.data(), 47);
  ASSERT_FALSE(short_h.ok());
  EXPECT_EQ(short_h.status().code(), StatusCode::kProtocol);

  Bytes magic1 = kIndexedBatch;
  magic1[12] = 1;  // 0.8/0.9 never write magic 1; HEAD's magic 1 has another layout
  auto m = ParseLogBatchHeader(magic1.data(), magic1.size());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(m.status().message().find("magic 1"), std::string::npos) << m.status().message();

  Bytes small_len = kIndexedBatch;
  small_len[8] = 35;  // below the 36 bytes of header after the Length field
  auto l = ParseLogBatchHeader(small_len.data(), small_len.size());
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.status().code(), StatusCode::kProtocol);
}

// ---- batch lists (section 1.3) ----

struct Walked {
  std::vector<LogBatchHeader> headers;
  std::vector<const uint8_t*> starts;
  fluss::Status status;
};

Walked Walk(const Bytes& data, size_t size) {
  Walked w;
  LogBatchIterator it(data.data(), size);
  LogBatchHeader h;
  const uint8_t* p = nullptr;
  while (it.Next(&h, &p, &w.status)) {
    w.headers.push_back(h);
    w.starts.push_back(p);
  }
  return w;
}

Bytes TwoBatches() {
  // INDEXED batch at offset 0, COMPACTED batch with BaseOffset 1 right behind it, as a fetch
  // response would hold them (no padding, no count).
  Bytes data = kIndexedBatch;
  Bytes second = BatchWithRecords(kCompactedRecords, 1, 1);
  second[0] = 1;  // BaseOffset 1, outside the CRC
  data.insert(data.end(), second.begin(), second.end());
  return data;
}

TEST(LogBatchIterator, WalksBatchesBackToBack) {
  Bytes data = TwoBatches();
  ASSERT_EQ(data.size(), 71u + 58u);
  Walked w = Walk(data, data.size());
  ASSERT_TRUE(w.status.ok()) << w.status.ToString();
  ASSERT_EQ(w.headers.size(), 2u);
  EXPECT_EQ(w.starts[0], data.data());
  EXPECT_EQ(w.starts[1], data.data() + 71);
  EXPECT_EQ(w.headers[0].base_offset, 0);
  EXPECT_EQ(w.headers[0].batch_size(), 71u);
  EXPECT_EQ(w.headers[1].base_offset, 1);
  EXPECT_EQ(w.headers[1].batch_size(), 58u);
  EXPECT_EQ(w.headers[1].crc, 0xC4B0A983u);
  EXPECT_EQ(w.headers[1].next_offset(), 2);
}

TEST(LogBatchIterator, TruncatedTrailingBatchEndsTheWalkQuietly) {
  // An un-projected fetch is cut at max_fetch_bytes: the last batch may be incomplete.
  Bytes data = TwoBatches();
  for (size_t cut : {71u + 57u, 71u + 48u, 71u + 47u, 71u + 12u, 71u + 5u, 71u}) {
    Walked w = Walk(data, cut);
    EXPECT_TRUE(w.status.ok()) << "cut " << cut;
    ASSERT_EQ(w.headers.size(), 1u) << "cut " << cut;
    EXPECT_EQ(w.headers[0].batch_size(), 71u);
  }
  Walked none = Walk(data, 70);
  EXPECT_TRUE(none.status.ok());
  EXPECT_TRUE(none.headers.empty());
  Walked empty = Walk(data, 0);
  EXPECT_TRUE(empty.status.ok());
  EXPECT_TRUE(empty.headers.empty());
}

TEST(LogBatchIterator, MalformedBatchSetsStatus) {
  Bytes negative = TwoBatches();
  negative[71 + 8 + 3] = 0x80;  // Length of the second batch < 0
  Walked w = Walk(negative, negative.size());
  EXPECT_EQ(w.headers.size(), 1u);
  EXPECT_EQ(w.status.code(), StatusCode::kProtocol);

  Bytes bad_magic = TwoBatches();
  bad_magic[71 + 12] = 2;
  Walked m = Walk(bad_magic, bad_magic.size());
  EXPECT_EQ(m.headers.size(), 1u);
  EXPECT_EQ(m.status.code(), StatusCode::kUnsupported);
}

}  // namespace

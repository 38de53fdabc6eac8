// ProduceLogRequest (api key 1014) encoded by hand in protobuf wire format, so record batches
// go to the socket without being copied through protobuf strings (protocol-rpc.md 11.1):
//   1 acks int32 | 2 table_id int64 | 3 timeout_ms int32 |
//   4 buckets_req repeated { 1 partition_id int64 opt | 2 bucket_id int32 | 3 records bytes }
// Fields are written in field-number order, as protobuf serialisers do, so the bytes equal the
// generated serialiser's output.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fluss::protocol {

struct ProduceBucket {
  std::optional<int64_t> partition_id;
  int32_t bucket_id = 0;
  std::shared_ptr<const void> owner;  // keeps `records` alive
  const uint8_t* records = nullptr;
  size_t size = 0;
};

/// One piece of an encoded request: owned bytes (`bytes`) or a borrowed record batch.
struct EncodedPiece {
  std::string bytes;                  // used when `owner` is null
  std::shared_ptr<const void> owner;  // a borrowed batch: [data, data + size)
  const uint8_t* data = nullptr;
  size_t size = 0;
};

/// Encodes the request body as pieces: the first holds `reserve` zero bytes (the frame prefix)
/// followed by the leading fields; record batches are borrowed, not copied.
std::vector<EncodedPiece> EncodeProduceLogRequest(int32_t acks, int64_t table_id, int32_t timeout_ms,
                                                  const std::vector<ProduceBucket>& buckets, size_t reserve);

/// The first piece of a ProduceLog or PutKv request, whose leading fields are the same:
/// `reserve` zero bytes, then 1 acks int32 | 2 table_id int64 | 3 timeout_ms int32.
std::vector<EncodedPiece> StartWriteRequest(int32_t acks, int64_t table_id, int32_t timeout_ms, size_t reserve);

/// Appends one per-bucket message { 1 partition_id int64 opt | 2 bucket_id int32 | 3 records bytes }
/// per bucket, as length-delimited field `field`, to the owned bytes of `pieces->back()`; each
/// bucket's records become a borrowed piece, followed by a new (maybe empty) owned piece for the
/// fields after it. The shared bucket loop of ProduceLog (field 4) and PutKv (field 5).
void AppendBucketRecords(std::vector<EncodedPiece>* pieces, int field, const std::vector<ProduceBucket>& buckets);

}  // namespace fluss::protocol

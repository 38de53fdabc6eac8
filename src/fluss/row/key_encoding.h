// Which key encoders and which bucket function a table uses (protocol-data.md sections 6.1,
// 6.5 and 7.2; Java KeyEncoder.ofPrimaryKeyEncoder / ofBucketKeyEncoder, BucketingFunction.of,
// PrefixKeyLookuper):
//
//   physical primary key = primary-key columns minus partition columns, in PK order
//   bucket key           = the table's bucket keys; for a primary-key table by default the
//                          physical primary key (then it is the "default bucket key")
//   bucket-key bytes     = lake format none / lance: CompactedKey; paimon: Paimon BinaryRow;
//                          iceberg: Iceberg encoding (one column)
//   primary-key bytes    = kv format version 1 (property absent or "1"; every 0.8 table): the
//                          bucket-key encoder's kind over the physical primary key;
//                          version 2 (what 0.9 coordinators write into new tables): the same if
//                          the bucket key is the default one, else CompactedKey, so that the
//                          bucket-key bytes are a byte prefix of the primary-key bytes
//   bucket function      = Fluss default (none, lance), Paimon, Iceberg (bucketing.h)
//   prefix-lookup key    = the bucket-key columns by the primary-key rules: CompactedKey on
//                          version 2 or without a lake format; a version-1 lake table cannot
//                          serve prefix lookups (kUnsupported)
//
// Thread affinity: a KeyEncoding is immutable after Make; its encoders may be used from any
// thread concurrently.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/row/bucketing.h"
#include "fluss/row/key_encoder.h"
#include "fluss/status.h"

namespace fluss::row {

inline constexpr const char* kDataLakeFormatProperty = "table.datalake.format";
inline constexpr const char* kKvFormatVersionProperty = "table.kv.format-version";

/// `table.datalake.format` values (HEAD's hudi is not supported by this client).
enum class LakeFormat : uint8_t { kNone, kPaimon, kIceberg, kLance };

/// The lake format of a table from its properties (absent = kNone; values case-insensitive).
/// Fails with kUnsupported naming the value for any other format.
Result<LakeFormat> LakeFormatOf(const std::map<std::string, std::string>& properties);

/// `table.kv.format-version` of a table: 1 when absent, 1 or 2 otherwise. Fails with
/// kUnsupported for another value.
Result<int> KvFormatVersionOf(const std::map<std::string, std::string>& properties);

/// A key encoder of `lake` format's bucket-key kind over `key_columns` (indexes into `schema`):
/// CompactedKeyEncoder, PaimonKeyEncoder or IcebergKeyEncoder.
Result<std::shared_ptr<const KeyEncoder>> MakeLakeKeyEncoder(LakeFormat lake, std::shared_ptr<arrow::Schema> schema,
                                                             std::vector<int> key_columns);

/// The key encoders and bucket function of one table (see the header comment).
struct KeyEncoding {
  LakeFormat lake_format = LakeFormat::kNone;
  int kv_format_version = 1;
  /// Indexes into the schema.
  std::vector<int> physical_primary_key;  ///< empty for a log table
  std::vector<int> bucket_key;            ///< empty: no bucket key (a log table without one)
  std::vector<int> partition_key;
  /// The bucket key is the physical primary key (the default bucket key of a PK table).
  bool default_bucket_key = false;
  /// Encodes the physical primary key of a full row (PutKv keys, Lookup keys); null for a log table.
  std::shared_ptr<const KeyEncoder> primary_key_encoder;
  /// Encodes the bucket key of a full row; null without a bucket key.
  std::shared_ptr<const KeyEncoder> bucket_key_encoder;
  /// True when the primary-key bytes are also the bucket-key bytes (same columns, same
  /// encoding), so a writer can hash them without encoding twice.
  bool primary_key_bytes_are_bucket_key_bytes = false;
  BucketingFunction bucketing = BucketingFunction::kFluss;

  /// Resolves the encoding of a table: `schema` its columns (Arrow, data_type.h),
  /// `primary_keys`, `bucket_keys`, `partition_keys` column names as in the table descriptor
  /// (empty bucket_keys = the default), `properties` the table properties. Fails with
  /// kInvalidArgument naming the column for an unknown column, a partition column outside the
  /// primary key, a bucket key that is not part of the physical primary key, a primary key made
  /// only of partition columns or a key column the chosen encoder cannot take (e.g. an iceberg
  /// key of two columns); kUnsupported for an unknown lake format or kv format version.
  static Result<KeyEncoding> Make(std::shared_ptr<arrow::Schema> schema, const std::vector<std::string>& primary_keys,
                                  const std::vector<std::string>& bucket_keys,
                                  const std::vector<std::string>& partition_keys,
                                  const std::map<std::string, std::string>& properties);

  /// The encoder of prefix-lookup keys for `lookup_columns` (names; the bucket-key columns, plus
  /// every partition column of a partitioned table, in any position). The encoder reads the
  /// bucket-key columns of a full row; its bytes are a prefix of the primary-key bytes of every
  /// matching row. Fails with kInvalidArgument for a log table, lookup columns that are not the
  /// bucket key (plus partition keys), or a bucket key that is the whole physical primary key or
  /// not a leading part of it; kUnsupported for a kv-format-version-1 table with a paimon or
  /// iceberg lake format (its primary-key bytes have no prefix property).
  Result<std::shared_ptr<const KeyEncoder>> PrefixKeyEncoder(const std::vector<std::string>& lookup_columns) const;

  /// The bucket of the bucket-key bytes `key` among `num_buckets` (BucketOf with `bucketing`).
  int32_t BucketOfKey(std::string_view key, int32_t num_buckets) const { return BucketOf(bucketing, key, num_buckets); }

  std::shared_ptr<arrow::Schema> schema;
};

}  // namespace fluss::row

#include "fluss/row/key_encoding.h"

#include <algorithm>
#include <cctype>

#include <arrow/type.h>

#include "fluss/row/iceberg_key_encoder.h"
#include "fluss/row/paimon_key_encoder.h"

namespace fluss::row {

namespace {

std::string Lower(const std::string& s) {
  std::string out;
  for (char c : s) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

template <typename Encoder>
Result<std::shared_ptr<const KeyEncoder>> Shared(Result<Encoder> r) {
  if (!r.ok()) return r.status();
  return std::shared_ptr<const KeyEncoder>(std::make_shared<Encoder>(std::move(*r)));
}

Status Indexes(const arrow::Schema& schema, const std::vector<std::string>& names, const char* what,
               std::vector<int>* out) {
  out->clear();
  for (const auto& n : names) {
    const int i = schema.GetFieldIndex(n);
    if (i < 0) return Status::InvalidArgument(std::string(what) + ": column '" + n + "' is not in the schema");
    out->push_back(i);
  }
  return Status::OK();
}

bool Contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

}  // namespace

Result<LakeFormat> LakeFormatOf(const std::map<std::string, std::string>& properties) {
  auto it = properties.find(kDataLakeFormatProperty);
  if (it == properties.end()) return LakeFormat::kNone;
  const std::string v = Lower(it->second);
  if (v == "paimon") return LakeFormat::kPaimon;
  if (v == "iceberg") return LakeFormat::kIceberg;
  if (v == "lance") return LakeFormat::kLance;
  return Status::Unsupported(std::string(kDataLakeFormatProperty) + " '" + it->second +
                             "' is not supported by this client");
}

Result<int> KvFormatVersionOf(const std::map<std::string, std::string>& properties) {
  auto it = properties.find(kKvFormatVersionProperty);
  if (it == properties.end()) return 1;
  if (it->second == "1") return 1;
  if (it->second == "2") return 2;
  return Status::Unsupported(std::string(kKvFormatVersionProperty) + " '" + it->second +
                             "' is not supported by this client (1 or 2)");
}

Result<std::shared_ptr<const KeyEncoder>> MakeLakeKeyEncoder(LakeFormat lake, std::shared_ptr<arrow::Schema> schema,
                                                             std::vector<int> key_columns) {
  switch (lake) {
    case LakeFormat::kPaimon: return Shared(PaimonKeyEncoder::Create(std::move(schema), std::move(key_columns)));
    case LakeFormat::kIceberg: return Shared(IcebergKeyEncoder::Create(std::move(schema), std::move(key_columns)));
    case LakeFormat::kNone:
    case LakeFormat::kLance: break;
  }
  return Shared(CompactedKeyEncoder::Create(std::move(schema), std::move(key_columns)));
}

Result<KeyEncoding> KeyEncoding::Make(std::shared_ptr<arrow::Schema> schema, const std::vector<std::string>& primary_keys,
                                      const std::vector<std::string>& bucket_keys,
                                      const std::vector<std::string>& partition_keys,
                                      const std::map<std::string, std::string>& properties) {
  if (!schema) return Status::InvalidArgument("key encoding: no schema");
  KeyEncoding e;
  e.schema = schema;
  FLUSS_ASSIGN_OR_RETURN(e.lake_format, LakeFormatOf(properties));
  FLUSS_ASSIGN_OR_RETURN(e.kv_format_version, KvFormatVersionOf(properties));
  std::vector<int> pk;
  FLUSS_RETURN_NOT_OK(Indexes(*schema, primary_keys, "primary key", &pk));
  FLUSS_RETURN_NOT_OK(Indexes(*schema, partition_keys, "partition key", &e.partition_key));
  FLUSS_RETURN_NOT_OK(Indexes(*schema, bucket_keys, "bucket key", &e.bucket_key));
  switch (e.lake_format) {
    case LakeFormat::kPaimon: e.bucketing = BucketingFunction::kPaimon; break;
    case LakeFormat::kIceberg: e.bucketing = BucketingFunction::kIceberg; break;
    default: e.bucketing = BucketingFunction::kFluss; break;
  }

  if (!pk.empty()) {
    for (size_t i = 0; i < e.partition_key.size(); ++i)
      if (!Contains(pk, e.partition_key[i]))
        return Status::InvalidArgument("partition key: column '" + partition_keys[i] +
                                       "' of a primary-key table must be part of the primary key");
    for (int c : pk)
      if (!Contains(e.partition_key, c)) e.physical_primary_key.push_back(c);
    if (e.physical_primary_key.empty())
      return Status::InvalidArgument("primary key: every primary-key column is a partition column");
    if (e.bucket_key.empty()) e.bucket_key = e.physical_primary_key;
    for (size_t i = 0; i < e.bucket_key.size(); ++i)
      if (!Contains(e.physical_primary_key, e.bucket_key[i]))
        return Status::InvalidArgument("bucket key: column '" + schema->field(e.bucket_key[i])->name() +
                                       "' is not part of the physical primary key (the primary key minus the "
                                       "partition columns)");
    e.default_bucket_key = e.bucket_key == e.physical_primary_key;
  }

  if (!e.bucket_key.empty()) {
    FLUSS_ASSIGN_OR_RETURN(e.bucket_key_encoder, MakeLakeKeyEncoder(e.lake_format, schema, e.bucket_key));
  }
  if (!e.physical_primary_key.empty()) {
    const bool lake_encoder = e.kv_format_version == 1 || e.default_bucket_key;
    if (lake_encoder) {
      FLUSS_ASSIGN_OR_RETURN(e.primary_key_encoder, MakeLakeKeyEncoder(e.lake_format, schema, e.physical_primary_key));
    } else {
      FLUSS_ASSIGN_OR_RETURN(e.primary_key_encoder, Shared(CompactedKeyEncoder::Create(schema, e.physical_primary_key)));
    }
    e.primary_key_bytes_are_bucket_key_bytes = e.default_bucket_key && lake_encoder;
  }
  return e;
}

Result<std::shared_ptr<const KeyEncoder>> KeyEncoding::PrefixKeyEncoder(
    const std::vector<std::string>& lookup_columns) const {
  if (physical_primary_key.empty())
    return Status::InvalidArgument("prefix lookup: the table has no primary key");
  std::vector<int> lookup;
  FLUSS_RETURN_NOT_OK(Indexes(*schema, lookup_columns, "prefix lookup", &lookup));
  std::vector<int> physical_lookup;
  for (int c : lookup)
    if (!Contains(partition_key, c)) physical_lookup.push_back(c);
  auto names = [&](const std::vector<int>& cols) {
    std::string s = "[";
    for (size_t i = 0; i < cols.size(); ++i) s += (i ? ", " : "") + schema->field(cols[i])->name();
    return s + "]";
  };
  for (int p : partition_key)
    if (!Contains(lookup, p))
      return Status::InvalidArgument("prefix lookup: the lookup columns " + names(lookup) +
                                     " must include the partition column '" + schema->field(p)->name() + "'");
  if (physical_lookup != bucket_key)
    return Status::InvalidArgument("prefix lookup: the lookup columns " + names(physical_lookup) +
                                   " (partition columns aside) must be the bucket key " + names(bucket_key));
  if (default_bucket_key)
    return Status::InvalidArgument("prefix lookup: the bucket key " + names(bucket_key) +
                                   " is the whole physical primary key; use a primary-key lookup");
  if (!std::equal(bucket_key.begin(), bucket_key.end(), physical_primary_key.begin()))
    return Status::InvalidArgument("prefix lookup: the bucket key " + names(bucket_key) +
                                   " is not a leading part of the physical primary key " + names(physical_primary_key));
  const bool lake = lake_format == LakeFormat::kPaimon || lake_format == LakeFormat::kIceberg;
  if (kv_format_version == 1 && lake)
    return Status::Unsupported(
        "prefix lookup: a table with a " + std::string(lake_format == LakeFormat::kPaimon ? "paimon" : "iceberg") +
        " lake format and " + kKvFormatVersionProperty +
        " 1 encodes primary keys with the lake encoder, whose bytes have no key prefix");
  return Shared(CompactedKeyEncoder::Create(schema, bucket_key));
}

}  // namespace fluss::row

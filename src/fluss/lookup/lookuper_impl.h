// Point and prefix lookupers of a primary-key table: encode the key of each call exactly as
// the Java client does (row/key_encoding.h), pick its bucket, queue it on a LookupSender and
// decode the value bytes that come back into Arrow rows of the table's schema.
//
// Thread affinity: LookupAsync may be called from any thread; immutable after Create. The
// callbacks run on the I/O thread.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fluss/client.h"
#include "fluss/lookup/lookup_sender.h"
#include "fluss/lookup/lookup_senders.h"
#include "fluss/metadata/table_schemas.h"
#include "fluss/row/key_encoding.h"
#include "fluss/row/kv_value.h"
#include "fluss/row/partition_name.h"
#include "fluss/row/value_rows.h"

namespace fluss::lookup {

/// What both lookupers share: the table, its key encoding, its schemas and the value decoder.
struct LookupTable {
  TableInfo info;
  row::KeyEncoding keys;
  std::shared_ptr<metadata::TableSchemas> schemas;
  std::shared_ptr<row::ValueRowDecoder> decoder;  // I/O thread: Decode and AddSchema
  std::optional<row::PartitionNamer> partitions;  // partitioned tables: the partition of a key

  /// Fails with kInvalidArgument for a log table.
  static Result<std::shared_ptr<const LookupTable>> Make(std::shared_ptr<metadata::Cluster> cluster,
                                                         const TableInfo& info);
  /// Decodes value bytes (`values`, each [schema id][row]) into one record batch of the
  /// table handle's schema, in order, and passes it to `done`: at once when every schema id
  /// is known, else after fetching the others (values written under another schema, matched
  /// by column id). Fails with kProtocol for a malformed value. I/O thread.
  void Decode(std::vector<std::string_view> values, Callback<std::shared_ptr<arrow::RecordBatch>> done) const;
  /// Checks the call shape (one value per column).
  Status CheckCount(size_t count) const;
  /// The partition name of a key row (its partition columns), empty for a non-partitioned table.
  /// Fails with kInvalidArgument naming the partition column for a null or refused value.
  Result<std::string> PartitionOf(const Value* values) const;
  std::string Where() const { return "table " + info.table_path.ToString(); }
};

class LookuperImpl final : public Lookuper {
 public:
  /// `senders`: the connection's lookup senders (the table's point sender is shared).
  static Result<std::shared_ptr<LookuperImpl>> Create(std::shared_ptr<metadata::Cluster> cluster, LookupSenders& senders,
                                                      const TableInfo& info);
  void LookupAsync(const Value* values, size_t count, Callback<std::shared_ptr<arrow::RecordBatch>> done) override;
  const std::shared_ptr<arrow::Schema>& schema() const override { return table_->info.descriptor.schema.arrow_schema; }
  int64_t requests_sent() const override { return sender_->requests_sent(); }

 private:
  LookuperImpl(std::shared_ptr<const LookupTable> table, std::shared_ptr<LookupSender<PointLookup>> sender)
      : table_(std::move(table)), sender_(std::move(sender)) {}
  std::shared_ptr<const LookupTable> table_;
  std::shared_ptr<LookupSender<PointLookup>> sender_;
};

class PrefixLookuperImpl final : public PrefixLookuper {
 public:
  /// `lookup_columns`: names of the bucket-key columns (see Table::NewPrefixLookuper).
  static Result<std::shared_ptr<PrefixLookuperImpl>> Create(std::shared_ptr<metadata::Cluster> cluster,
                                                            LookupSenders& senders, const TableInfo& info,
                                                            const std::vector<std::string>& lookup_columns);
  void LookupAsync(const Value* values, size_t count, Callback<std::shared_ptr<arrow::RecordBatch>> done) override;
  const std::shared_ptr<arrow::Schema>& schema() const override { return table_->info.descriptor.schema.arrow_schema; }
  const std::vector<int32_t>& lookup_columns() const override { return lookup_columns_; }
  int64_t requests_sent() const override { return sender_->requests_sent(); }

 private:
  PrefixLookuperImpl(std::shared_ptr<const LookupTable> table, std::shared_ptr<const row::KeyEncoder> prefix,
                     std::vector<int32_t> lookup_columns, std::shared_ptr<LookupSender<PrefixLookup>> sender)
      : table_(std::move(table)), prefix_(std::move(prefix)), lookup_columns_(std::move(lookup_columns)),
        sender_(std::move(sender)) {}
  std::shared_ptr<const LookupTable> table_;
  std::shared_ptr<const row::KeyEncoder> prefix_;
  std::vector<int32_t> lookup_columns_;
  std::shared_ptr<LookupSender<PrefixLookup>> sender_;
};

}  // namespace fluss::lookup

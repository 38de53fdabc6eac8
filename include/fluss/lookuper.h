// fluss::Lookuper and fluss::PrefixLookuper: point and prefix lookups on a primary-key table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/type_fwd.h>

#include "fluss/callbacks.h"
#include "fluss/value.h"

namespace fluss {

/// Looks rows up by primary key (Lookup, to each bucket's leader). Concurrent lookups are
/// batched per leader (up to client.lookup.max-batch-size keys per request) and never wait
/// for each other's answers; leader changes are retried until client.request-timeout.
/// For a partitioned table the key's partition columns name the partition (resolved at the
/// coordinator when first needed); a key of a partition that does not exist is not found.
/// A dropped (or dropped and re-created) table fails lookups with TABLE_NOT_EXIST (7).
class Lookuper {
 public:
  virtual ~Lookuper() = default;
  /// Looks up the row whose primary key `values` holds (one Value per table column; only the
  /// primary-key columns are read and must not be null: kInvalidArgument naming the column).
  /// The key is encoded before this returns, so `values` may go away afterwards. `done` gets a
  /// one-row record batch of the table's schema, or nullptr when no row has that key.
  virtual void LookupAsync(const Value* values, size_t count, Callback<std::shared_ptr<arrow::RecordBatch>> done) = 0;
  /// The schema of returned rows (the table's columns).
  virtual const std::shared_ptr<arrow::Schema>& schema() const = 0;
  /// Lookup requests this lookuper has sent so far (diagnostics: shows the batching).
  virtual int64_t requests_sent() const = 0;
};

/// Looks rows up by a prefix of the primary key: the table's bucket key, when it is a proper
/// prefix of the physical primary key (PrefixLookup).
class PrefixLookuper {
 public:
  virtual ~PrefixLookuper() = default;
  /// Every row whose bucket-key columns equal those in `values` (one Value per table column;
  /// only the lookup columns are read and must not be null). `done` gets a record batch of
  /// the table's schema with 0..n rows.
  virtual void LookupAsync(const Value* values, size_t count, Callback<std::shared_ptr<arrow::RecordBatch>> done) = 0;
  virtual const std::shared_ptr<arrow::Schema>& schema() const = 0;
  /// The lookup columns (table column indexes, in bucket-key order).
  virtual const std::vector<int32_t>& lookup_columns() const = 0;
  /// PrefixLookup requests this lookuper has sent so far (diagnostics).
  virtual int64_t requests_sent() const = 0;
};

}  // namespace fluss

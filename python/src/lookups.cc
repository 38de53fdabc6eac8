// Lookups: _Lookuper (point lookups by primary key) and _PrefixLookuper (lookups by a prefix of
// the primary key), over fluss::Lookuper and fluss::PrefixLookuper. A lookup is started with an
// id and returns at once; any number are in flight together (the core batches them per
// leader). Results reach the event loop in bursts (LookupResults): not one GIL round trip and
// one loop wake-up per lookup, but one per burst of completions (e.g. a response of 128 keys).
//
// Thread affinity: Start, Bind and Take run on the calling (event-loop) thread with the GIL
// held; LookupResults::Push runs on the I/O thread without the GIL and takes it once per burst.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/table.h>
#include <arrow/type.h>

#include "arrow_capsules.h"
#include "arrow_rows.h"
#include "bindings.h"
#include "bridge.h"
#include "loop_queue.h"
#include "row_converter.h"

namespace fluss::py {

using namespace nb::literals;

namespace {

using BatchResult = Result<std::shared_ptr<arrow::RecordBatch>>;

/// Completed lookups waiting for the event loop, handed over in batches (LoopQueue): the
/// first push after a Take calls `schedule()` (with the GIL: a Python callable that schedules
/// a drain on the loop thread-safely, e.g. partial(loop.call_soon_threadsafe, drain)), and the
/// drain takes every result pushed until then.
class LookupResults {
 public:
  explicit LookupResults(nb::object schedule) : queue_(std::move(schedule)) {}

  /// Any thread, GIL held or not.
  void Push(uint64_t id, BatchResult result) { queue_.Push(Item{id, std::move(result)}); }

  /// The results pushed since the previous Take, as (ids, errors, row_counts, rows): per
  /// lookup its id, a FlussError or None, and how many rows it found; `rows` the dict of every
  /// row found, in that order (ArrowRows; `fallback_of(batch_capsules)` gives the values of
  /// the columns it leaves to pyarrow). Loop thread, GIL held.
  nb::tuple Take(const ArrowRows& converter, nb::handle fallback_of) {
    std::vector<Item> items = queue_.Take();
    nb::list ids, errors, counts;
    std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
    for (auto& item : items) {
      ids.append(item.id);
      int64_t rows = 0;
      if (!item.result.ok()) {
        errors.append(MakeError(item.result.status()));
      } else {
        errors.append(nb::none());
        if (const auto& batch = *item.result; batch && batch->num_rows() > 0) {
          rows = batch->num_rows();
          batches.push_back(batch);
        }
      }
      counts.append(rows);
    }
    nb::list rows;
    for (const auto& batch : batches) {
      const auto batch_rows = converter.Rows(*batch, [&] { return fallback_of(ExportBatchCapsules(*batch)); });
      for (int64_t r = 0; r < batch->num_rows(); ++r) {
        nb::object row = nb::steal(batch_rows.Row(r));
        if (!row.is_valid() || PyList_Append(rows.ptr(), row.ptr()) < 0) throw nb::python_error();
      }
    }
    return nb::make_tuple(ids, errors, counts, rows);
  }

 private:
  struct Item {
    uint64_t id;
    BatchResult result;
  };
  LoopQueue<Item> queue_;
};

/// A point or prefix lookuper `L` whose keys hold the columns of `converter`.
template <typename L>
struct PyLookups {
  std::shared_ptr<L> lookuper;
  ColumnsConverter converter;
  std::vector<Value> values;               // one per table column
  std::shared_ptr<LookupResults> results;  // set by Bind
  std::shared_ptr<ArrowRows> rows;         // the found rows (the table's schema) as dicts; never null

  /// Where results go: `schedule()` is called (GIL held, from any thread) when results are
  /// waiting for Take.
  void Bind(nb::object schedule) { results = std::make_shared<LookupResults>(std::move(schedule)); }

  /// Starts the lookup `id` of `key`. Bad input raises here; the core's errors arrive as results.
  void Start(uint64_t id, nb::handle key) {
    if (!results) Throw(Status::Internal("lookup before bind"));
    ThrowIfError(converter.Convert(key.ptr(), &values));
    // The core encodes the key before LookupAsync returns: `values` (views into the Python
    // key) need not outlive the call.
    auto r = results;
    lookuper->LookupAsync(values.data(), values.size(), [r, id](BatchResult b) { r->Push(id, std::move(b)); });
  }

  /// LookupResults::Take; `fallback_of(batch_capsules)` converts the columns ArrowRows leaves to pyarrow.
  nb::tuple Take(nb::handle fallback_of) {
    if (!results) return nb::make_tuple(nb::list(), nb::list(), nb::list(), nb::list());
    return results->Take(*rows, fallback_of);
  }
  /// Indexes of the columns whose values `take` gets from `fallback_of`.
  std::vector<int> FallbackColumns() const { return rows->fallback_columns(); }
  int64_t RequestsSent() const { return lookuper->requests_sent(); }
};

using PyLookuper = PyLookups<Lookuper>;
using PyPrefixLookuper = PyLookups<PrefixLookuper>;

template <typename T>
void DefLookups(nb::class_<T>& cls) {
  cls.def("bind", &T::Bind, "schedule"_a)
      .def("start", &T::Start, "id"_a, "key"_a.none())
      .def("take", &T::Take, "fallback_of"_a)
      .def("fallback_columns", &T::FallbackColumns)
      .def_prop_ro("requests_sent", &T::RequestsSent);
}

}  // namespace

nb::object NewPyLookuper(std::shared_ptr<Lookuper> lookuper, const std::vector<int32_t>& primary_key) {
  const auto& schema = lookuper->schema();
  ColumnsConverter conv(schema, primary_key,
                        RowShape{"key", "the primary key " + ColumnsConverter::Names(*schema, primary_key), true});
  auto rows = std::make_shared<ArrowRows>(*schema);
  return nb::cast(PyLookuper{std::move(lookuper), std::move(conv), {}, nullptr, std::move(rows)});
}

nb::object NewPyPrefixLookuper(std::shared_ptr<PrefixLookuper> lookuper, const std::vector<int32_t>& columns) {
  const auto& schema = lookuper->schema();
  ColumnsConverter conv(schema, columns,
                        RowShape{"prefix", "the lookup columns " + ColumnsConverter::Names(*schema, columns), true});
  auto rows = std::make_shared<ArrowRows>(*schema);
  return nb::cast(PyPrefixLookuper{std::move(lookuper), std::move(conv), {}, nullptr, std::move(rows)});
}

void BindLookups(nb::module_& m) {
  nb::class_<PyLookuper> lookuper(m, "_Lookuper");
  DefLookups(lookuper);
  nb::class_<PyPrefixLookuper> prefix(m, "_PrefixLookuper");
  DefLookups(prefix);
}

}  // namespace fluss::py

// The seed's Quick Start in C++: connect, create a log table, append two rows, read them back,
// drop the table. Uses only the public API in include/fluss/.
//
//   quick_start [bootstrap.servers]      (default 127.0.0.1:9123)
#include <arrow/api.h>

#include <iostream>

#include "fluss/client.h"

namespace {
int Fail(const fluss::Status& st) {
  std::cerr << "error: " << st.ToString() << "\n";
  return 1;
}
}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> props{{"bootstrap.servers", argc > 1 ? argv[1] : "127.0.0.1:9123"}};
  auto conn = fluss::Connection::Connect(props);
  if (!conn.ok()) return Fail(conn.status());
  auto admin = (*conn)->GetAdmin();

  fluss::TableDescriptor descriptor;
  descriptor.schema.arrow_schema = arrow::schema({arrow::field("id", arrow::int32()),
                                                  arrow::field("name", arrow::utf8()),
                                                  arrow::field("score", arrow::float32())});
  fluss::TablePath path{"fluss", "quick_start_cpp"};
  auto st = fluss::AwaitStatus([&](auto cb) { admin->CreateTableAsync(path, descriptor, true, cb); });
  if (!st.ok()) return Fail(st);

  auto table = fluss::Await<std::shared_ptr<fluss::Table>>([&](auto cb) { (*conn)->GetTableAsync(path, cb); });
  if (!table.ok()) return Fail(table.status());
  auto writer = (*table)->NewAppendWriter();
  if (!writer.ok()) return Fail(writer.status());
  using V = fluss::Value;
  V alice[] = {V::Int(1), V::Bytes("Alice"), V::Double(95.5)};
  V bob[] = {V::Int(2), V::Bytes("Bob"), V::Double(87.0)};
  for (auto* row : {alice, bob}) {
    auto r = (*writer)->Append(row, 3);
    if (!r.ok()) return Fail(r.status());
  }
  st = fluss::AwaitStatus([&](auto cb) { (*writer)->FlushAsync(cb); });
  if (!st.ok()) return Fail(st);

  auto scanner = (*table)->NewLogScanner();
  if (!scanner.ok()) return Fail(scanner.status());
  for (int32_t b = 0; b < (*table)->info().num_buckets; ++b) {
    fluss::Status st = (*scanner)->Subscribe(b, fluss::kEarliestOffset);
    if (!st.ok()) return Fail(st);
  }
  auto result = fluss::Await<std::shared_ptr<arrow::Table>>([&](auto cb) { (*scanner)->ToArrowAsync(cb); });
  if (!result.ok()) return Fail(result.status());
  std::cout << (*result)->ToString() << std::endl;

  st = fluss::AwaitStatus([&](auto cb) { admin->DropTableAsync(path, true, cb); });
  if (!st.ok()) return Fail(st);
  return (*conn)->Close().ok() ? 0 : 1;
}

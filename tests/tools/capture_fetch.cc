// Captures what the real server returns for a log table, for the offline unit tests:
//
//   capture_fetch <bootstrap.servers> <database> <table> <out prefix>
//
// writes
//   <out prefix>.bin         the raw `records` bytes of one FetchLogResponse for bucket 0 from
//                            offset 0 (every batch back to back, exactly as the server sent them)
//   <out prefix>.table.json  the raw GetTableInfoResponse.table_json of the table
// and prints the table id, schema id, high watermark and byte count.
//
// It uses libfluss internals (ConnectionImpl, the generated protobuf messages) to send a plain,
// un-projected FetchLogRequest to the bucket leader: no decoding happens here, so the stored
// bytes do not depend on our decoder. Not part of the test run; see tests/tools/capture.sh.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "fluss/client/connection_impl.h"
#include "fluss/proto/fluss_api.pb.h"

using fluss::Result;
using fluss::Status;
using fluss::TablePath;
using fluss::client::ConnectionImpl;
using fluss::protocol::ApiKey;

namespace {

struct Capture {
  int64_t table_id = -1;
  int32_t schema_id = -1;
  std::string table_json;
  int64_t high_watermark = -1;
  std::string records;
};

asio::awaitable<Result<Capture>> Run(std::shared_ptr<ConnectionImpl> c, TablePath path) {
  Status st = co_await c->cluster()->Bootstrap();
  if (!st.ok()) co_return st;
  Capture cap;

  fluss::proto::GetTableInfoRequest info_req;
  info_req.mutable_table_path()->set_database_name(path.database_name);
  info_req.mutable_table_path()->set_table_name(path.table_name);
  auto info = co_await c->cluster()->CallCoordinator<fluss::proto::GetTableInfoResponse>(ApiKey::GET_TABLE_INFO, info_req);
  if (!info.ok()) co_return info.status();
  cap.table_id = info->table_id();
  cap.schema_id = info->schema_id();
  cap.table_json = info->table_json();

  std::vector<TablePath> paths{path};  // (a braced list inside co_await trips GCC 12)
  st = co_await c->cluster()->RefreshMetadata(paths);
  if (!st.ok()) co_return st;
  st = co_await c->cluster()->WaitForLeaders(path, 1, fluss::metadata::Clock::now() + std::chrono::seconds(30));
  if (!st.ok()) co_return st;
  auto leader = c->cluster()->metadata().Leader(path, 0);
  if (!leader) co_return Status::Network("no leader for bucket 0");

  fluss::proto::FetchLogRequest req;
  req.set_follower_server_id(-1);  // a client, not a follower replica
  req.set_max_bytes(16 * 1024 * 1024);
  auto* t = req.add_tables_req();
  t->set_table_id(cap.table_id);
  t->set_projection_pushdown_enabled(false);
  auto* b = t->add_buckets_req();
  b->set_bucket_id(0);
  b->set_fetch_offset(0);
  b->set_max_fetch_bytes(1024 * 1024);
  auto resp = co_await c->cluster()->Call<fluss::proto::FetchLogResponse>(c->cluster()->TabletServer(*leader), ApiKey::FETCH_LOG, req);
  if (!resp.ok()) co_return resp.status();
  if (resp->tables_resp_size() != 1 || resp->tables_resp(0).buckets_resp_size() != 1)
    co_return Status::Protocol("unexpected FetchLogResponse shape: " + resp->ShortDebugString());
  const auto& br = resp->tables_resp(0).buckets_resp(0);
  if (br.has_error_code())
    co_return Status::Server(br.error_code(), "fetch: " + br.error_message());
  cap.high_watermark = br.high_watermark();
  cap.records = br.records();
  co_return cap;
}

bool WriteFile(const std::string& name, const std::string& bytes) {
  std::ofstream out(name, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: capture_fetch <bootstrap.servers> <database> <table> <out prefix>\n";
    return 2;
  }
  auto c = ConnectionImpl::Create({{"bootstrap.servers", argv[1]}});
  if (!c.ok()) {
    std::cerr << c.status().ToString() << "\n";
    return 1;
  }
  auto impl = *c;
  auto r = fluss::Await<Capture>([&](fluss::Callback<Capture> done) {
    impl->cluster()->Spawn<Capture>(Run(impl, TablePath{argv[2], argv[3]}), std::move(done));
  });
  (void)impl->Close();
  if (!r.ok()) {
    std::cerr << "capture failed: " << r.status().ToString() << "\n";
    return 1;
  }
  const std::string prefix = argv[4];
  if (!WriteFile(prefix + ".bin", r->records) || !WriteFile(prefix + ".table.json", r->table_json)) {
    std::cerr << "cannot write " << prefix << ".*\n";
    return 1;
  }
  std::cout << argv[2] << "." << argv[3] << ": table_id " << r->table_id << ", schema_id " << r->schema_id
            << ", high_watermark " << r->high_watermark << ", " << r->records.size() << " record bytes -> "
            << prefix << ".bin\n";
  return 0;
}

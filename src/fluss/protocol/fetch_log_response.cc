#include "fluss/protocol/fetch_log_response.h"

#include <cstring>

#include "fluss/protocol/wire_reader.h"

namespace fluss::protocol {

namespace {

constexpr int kVarint = 0;
constexpr int kBytes = 2;  // length-delimited

Status Malformed(const char* what) { return Status::Protocol(std::string("malformed FetchLogResponse: ") + what); }

/// One parse of a body: its buckets so far, and where the bytes still in use end (records
/// placed already must not be overwritten by the next move).
class Parser {
 public:
  Parser(uint8_t* body, size_t size, const std::vector<PlacedRecords>& placed)
      : body_(body), size_(size), placed_(placed) {}

  Result<std::vector<FetchLogBucketResponse>> Parse() {
    wire::FieldReader r(body_, size_);
    uint32_t field = 0;
    int type = 0;
    while (r.Next(&field, &type)) {
      if (field != 1 || type != kBytes) {
        if (!r.Skip(type)) break;
        continue;
      }
      size_t off = 0, n = 0;
      if (!r.LengthDelimited(type, &off, &n)) break;
      FLUSS_RETURN_NOT_OK(Table(off, n));
    }
    if (r.failed()) return Malformed("bad field in the response");
    // Each payload placed while receiving is a records field read here; one that is not would
    // have had its first bytes written back nowhere.
    if (missed_placed_ || next_placed_ != placed_.size()) return Malformed("records placed where the response holds none");
    return std::move(out_);
  }

 private:
  /// A PbFetchLogRespForTable at body_ + [base, base + size).
  Status Table(size_t base, size_t size) {
    wire::FieldReader r(body_ + base, size);
    std::optional<int64_t> table_id;
    const size_t first = out_.size();
    uint32_t field = 0;
    int type = 0;
    while (r.Next(&field, &type)) {
      bool ok = true;
      if (type != (field == 2 ? kBytes : kVarint)) {
        ok = r.Skip(type);  // an unknown field, or a known one with another wire type: protobuf skips both
      } else if (field == 1) {
        int64_t id = 0;
        ok = r.Int64(type, &id);
        table_id = id;
      } else if (field == 2) {
        size_t off = 0, n = 0;
        ok = r.LengthDelimited(type, &off, &n);
        if (ok) {
          FLUSS_RETURN_NOT_OK(Bucket(base + off, n));
        }
      } else {
        ok = r.Skip(type);
      }
      if (!ok) break;
    }
    if (r.failed()) return Malformed("bad field in tables_resp");
    if (!table_id) return Malformed("tables_resp without table_id");
    for (size_t i = first; i < out_.size(); ++i) out_[i].table_id = *table_id;
    return Status::OK();
  }

  /// A PbFetchLogRespForBucket at body_ + [base, base + size).
  Status Bucket(size_t base, size_t size) {
    wire::FieldReader r(body_ + base, size);
    FetchLogBucketResponse b;
    bool has_bucket_id = false;
    uint32_t field = 0;
    int type = 0;
    while (r.Next(&field, &type)) {
      bool ok = true;
      size_t off = 0, n = 0;
      int64_t v64 = 0;
      const bool bytes = field == 4 || field == 7 || field == 8;
      if (field < 1 || field > 8 || type != (bytes ? kBytes : kVarint)) field = 0;  // skipped, as above
      switch (field) {
        case 1:
          ok = r.Int64(type, &v64);
          b.bucket.partition_id = v64;
          break;
        case 2:
          ok = r.Int32(type, &b.bucket.bucket_id);
          has_bucket_id = true;
          break;
        case 3: ok = r.Int32(type, &b.error_code); break;
        case 4:
          ok = r.LengthDelimited(type, &off, &n);
          if (ok) b.error_message.assign(reinterpret_cast<const char*>(body_ + base + off), n);
          break;
        case 5:
          ok = r.Int64(type, &v64);
          b.high_watermark = v64;
          break;
        case 6:
          ok = r.Int64(type, &v64);
          b.log_start_offset = v64;
          break;
        case 7:
          ok = r.LengthDelimited(type, &off, &n);
          b.has_remote_log_fetch_info = true;
          break;
        case 8:
          ok = r.LengthDelimited(type, &off, &n);
          if (ok) {
            b.has_records = true;
            b.records_offset = Align(base + off, n);
            b.records_size = n;
          }
          break;
        default: ok = r.Skip(type); break;
      }
      if (!ok) break;
    }
    if (r.failed()) return Malformed("bad field in buckets_resp");
    if (!has_bucket_id) return Malformed("buckets_resp without bucket_id");
    out_.push_back(std::move(b));
    return Status::OK();
  }

  /// Moves the `n` bytes at body_ + offset back to the aligned address at or before them when
  /// the bytes in between are parsed and not records; returns where they are now. A payload
  /// FetchLogPlacement put there while receiving is only completed (its first bytes written
  /// back over the header just read).
  size_t Align(size_t offset, size_t n) {
    if (next_placed_ < placed_.size() && placed_[next_placed_].offset == offset) {
      const PlacedRecords& p = placed_[next_placed_++];
      std::memcpy(body_ + offset - p.shift, p.kept.data(), p.shift);
      in_use_ = offset - p.shift + n;
      return offset - p.shift;
    }
    if (next_placed_ < placed_.size() && placed_[next_placed_].offset < offset) missed_placed_ = true;
    const size_t shift = reinterpret_cast<uintptr_t>(body_ + offset) % kRecordsAlignment;
    if (shift > 0 && n > 0 && offset - in_use_ >= shift) {
      std::memmove(body_ + offset - shift, body_ + offset, n);
      offset -= shift;
    }
    in_use_ = offset + n;
    return offset;
  }

  uint8_t* const body_;
  const size_t size_;
  const std::vector<PlacedRecords>& placed_;
  size_t next_placed_ = 0;      // the first of placed_ not reached yet
  bool missed_placed_ = false;  // a records field came after one of placed_ not reached
  size_t in_use_ = 0;  // bytes before this hold parsed fields or records already placed
  std::vector<FetchLogBucketResponse> out_;
};

}  // namespace

Result<std::vector<FetchLogBucketResponse>> ParseFetchLogResponse(uint8_t* body, size_t size,
                                                                  const std::vector<PlacedRecords>& placed) {
  return Parser(body, size, placed).Parse();
}

}  // namespace fluss::protocol

#include "fluss/record/zstd_codec.h"

#include <mutex>
#include <string>
#include <vector>

#include <zstd.h>

namespace fluss::record {

namespace {

arrow::Status ZstdError(const char* what, size_t code) {
  return arrow::Status::IOError("ZSTD ", what, " failed: ", ZSTD_getErrorName(code));
}

/// A free list of contexts of one kind (ZSTD_CCtx or ZSTD_DCtx); see the header's thread note.
template <typename Ctx, Ctx* (*Create)(), size_t (*Free)(Ctx*)>
class ContextPool {
 public:
  ~ContextPool() {
    for (Ctx* c : free_) Free(c);
  }
  /// A context for one call, nullptr when libzstd cannot allocate one. Any thread.
  Ctx* Take() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!free_.empty()) {
        Ctx* c = free_.back();
        free_.pop_back();
        return c;
      }
    }
    return Create();
  }
  /// Gives back a context from Take. Any thread.
  void Give(Ctx* c) {
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(c);
  }

 private:
  std::mutex mu_;
  std::vector<Ctx*> free_;  // mu_
};

/// Runs `call(context)` with a context of `pool`; its size_t result is a length or a ZSTD error.
template <typename Pool, typename Call>
arrow::Result<int64_t> WithContext(Pool& pool, const char* what, Call&& call) {
  auto* ctx = pool.Take();
  if (!ctx) return arrow::Status::OutOfMemory("ZSTD ", what, ": cannot create a context");
  const size_t n = call(ctx);
  pool.Give(ctx);
  if (ZSTD_isError(n)) return ZstdError(what, n);
  return static_cast<int64_t>(n);
}

class FlussZstdCodec final : public arrow::util::Codec {
 public:
  explicit FlussZstdCodec(int level) : level_(level) {}

  arrow::Result<int64_t> Compress(int64_t input_len, const uint8_t* input, int64_t output_buffer_len,
                                  uint8_t* output_buffer) override {
    if (input_len < 0 || output_buffer_len < 0) return arrow::Status::Invalid("ZSTD compression: negative length");
    // ZSTD_compressCCtx resets the context's parameters to `level`, so a reused context writes
    // exactly what ZSTD_compress would.
    return WithContext(cctxs_, "compression", [&](ZSTD_CCtx* cctx) {
      return ZSTD_compressCCtx(cctx, output_buffer, static_cast<size_t>(output_buffer_len), input,
                               static_cast<size_t>(input_len), level_);
    });
  }

  arrow::Result<int64_t> Decompress(int64_t input_len, const uint8_t* input, int64_t output_buffer_len,
                                    uint8_t* output_buffer) override {
    if (input_len < 0 || output_buffer_len < 0) return arrow::Status::Invalid("ZSTD decompression: negative length");
    return WithContext(dctxs_, "decompression", [&](ZSTD_DCtx* dctx) {
      return ZSTD_decompressDCtx(dctx, output_buffer, static_cast<size_t>(output_buffer_len), input,
                                 static_cast<size_t>(input_len));
    });
  }

  int64_t MaxCompressedLen(int64_t input_len, const uint8_t* /*input*/) override {
    return static_cast<int64_t>(ZSTD_compressBound(static_cast<size_t>(input_len)));
  }

  arrow::Result<std::shared_ptr<arrow::util::Compressor>> MakeCompressor() override {
    return arrow::Status::NotImplemented("Fluss ZSTD codec: streaming compression (the Arrow IPC writer only uses Compress)");
  }

  arrow::Result<std::shared_ptr<arrow::util::Decompressor>> MakeDecompressor() override {
    return arrow::Status::NotImplemented("Fluss ZSTD codec: streaming decompression (use Decompress)");
  }

  arrow::Compression::type compression_type() const override { return arrow::Compression::ZSTD; }
  int compression_level() const override { return level_; }
  int minimum_compression_level() const override { return ZSTD_minCLevel(); }
  int maximum_compression_level() const override { return ZSTD_maxCLevel(); }
  int default_compression_level() const override { return ZSTD_CLEVEL_DEFAULT; }

 private:
  const int level_;
  ContextPool<ZSTD_CCtx, ZSTD_createCCtx, ZSTD_freeCCtx> cctxs_;
  ContextPool<ZSTD_DCtx, ZSTD_createDCtx, ZSTD_freeDCtx> dctxs_;
};

}  // namespace

Result<std::shared_ptr<arrow::util::Codec>> MakeFlussZstdCodec(int level) {
  if (level < 1 || level > ZSTD_maxCLevel())
    return Status::InvalidArgument("table.log.arrow.compression.zstd.level: " + std::to_string(level) +
                                   " is not a ZSTD level (1.." + std::to_string(ZSTD_maxCLevel()) + ")");
  return std::shared_ptr<arrow::util::Codec>(std::make_shared<FlussZstdCodec>(level));
}

}  // namespace fluss::record

#include "fluss/record/lz4_frame_codec.h"

#include <cstring>
#include <memory>
#include <string>

#include <lz4frame.h>

namespace fluss::record {

namespace {

// Fluss Java's frame parameters (FlussLZ4BlockOutputStream): FLG 0x60, BD 0x40.
LZ4F_preferences_t FlussPreferences() {
  LZ4F_preferences_t prefs;
  std::memset(&prefs, 0, sizeof(prefs));
  prefs.frameInfo.blockSizeID = LZ4F_max64KB;
  prefs.frameInfo.blockMode = LZ4F_blockIndependent;
  prefs.frameInfo.contentChecksumFlag = LZ4F_noContentChecksum;
  prefs.frameInfo.blockChecksumFlag = LZ4F_noBlockChecksum;
  prefs.frameInfo.frameType = LZ4F_frame;
  prefs.frameInfo.contentSize = 0;  // not written
  prefs.frameInfo.dictID = 0;       // not written
  prefs.compressionLevel = 0;       // LZ4 fast, acceleration 1, as the Java fast compressor
  prefs.autoFlush = 1;
  return prefs;
}

arrow::Status Lz4Error(const char* what, size_t code) {
  return arrow::Status::IOError("LZ4 frame ", what, " failed: ", LZ4F_getErrorName(code));
}

struct DctxDeleter {
  void operator()(LZ4F_dctx* dctx) const { LZ4F_freeDecompressionContext(dctx); }
};

// Stateless, so safe to share between threads.
class FlussLz4FrameCodec final : public arrow::util::Codec {
 public:
  FlussLz4FrameCodec() : prefs_(FlussPreferences()) {}

  arrow::Result<int64_t> Compress(int64_t input_len, const uint8_t* input,
                                  int64_t output_buffer_len, uint8_t* output_buffer) override {
    if (input_len < 0 || output_buffer_len < 0)
      return arrow::Status::Invalid("LZ4 frame compression: negative length");
    // LZ4F_compressFrame keeps the requested 64 KB block size and independent blocks; with
    // contentSize 0 it writes no content size, so the descriptor is exactly FLG 0x60, BD 0x40.
    size_t n = LZ4F_compressFrame(output_buffer, static_cast<size_t>(output_buffer_len), input,
                                  static_cast<size_t>(input_len), &prefs_);
    if (LZ4F_isError(n)) return Lz4Error("compression", n);
    return static_cast<int64_t>(n);
  }

  // Decodes one or more concatenated standard LZ4 frames (any FLG/BD, skippable frames too)
  // into exactly the caller's buffer; fails on a truncated frame or a too small output.
  arrow::Result<int64_t> Decompress(int64_t input_len, const uint8_t* input,
                                    int64_t output_buffer_len, uint8_t* output_buffer) override {
    if (input_len < 0 || output_buffer_len < 0)
      return arrow::Status::Invalid("LZ4 frame decompression: negative length");
    if (input_len == 0) return 0;
    LZ4F_dctx* raw = nullptr;
    size_t rc = LZ4F_createDecompressionContext(&raw, LZ4F_VERSION);
    if (LZ4F_isError(rc)) return Lz4Error("decompression context creation", rc);
    std::unique_ptr<LZ4F_dctx, DctxDeleter> dctx(raw);

    const uint8_t* src = input;
    size_t src_left = static_cast<size_t>(input_len);
    uint8_t* dst = output_buffer;
    size_t dst_left = static_cast<size_t>(output_buffer_len);
    bool frame_complete = false;
    while (src_left > 0) {
      size_t src_size = src_left;
      size_t dst_size = dst_left;
      size_t hint = LZ4F_decompress(dctx.get(), dst, &dst_size, src, &src_size, nullptr);
      if (LZ4F_isError(hint)) return Lz4Error("decompression", hint);
      src += src_size;
      src_left -= src_size;
      dst += dst_size;
      dst_left -= dst_size;
      if (hint == 0) {  // a frame ended; the context is ready for a following frame
        frame_complete = true;
        continue;
      }
      frame_complete = false;
      if (src_size == 0 && dst_size == 0) {
        return arrow::Status::IOError("LZ4 frame decompression: output buffer of ",
                                      output_buffer_len, " bytes is too small");
      }
    }
    if (!frame_complete)
      return arrow::Status::IOError("LZ4 frame decompression: truncated frame (",
                                    output_buffer_len - static_cast<int64_t>(dst_left),
                                    " bytes decoded)");
    return output_buffer_len - static_cast<int64_t>(dst_left);
  }

  int64_t MaxCompressedLen(int64_t input_len, const uint8_t* /*input*/) override {
    return static_cast<int64_t>(LZ4F_compressFrameBound(static_cast<size_t>(input_len), &prefs_));
  }

  arrow::Result<std::shared_ptr<arrow::util::Compressor>> MakeCompressor() override {
    return arrow::Status::NotImplemented(
        "Fluss LZ4 frame codec: streaming compression (the Arrow IPC writer only uses Compress)");
  }

  arrow::Result<std::shared_ptr<arrow::util::Decompressor>> MakeDecompressor() override {
    return arrow::Status::NotImplemented(
        "Fluss LZ4 frame codec: streaming decompression (use Decompress)");
  }

  arrow::Compression::type compression_type() const override {
    return arrow::Compression::LZ4_FRAME;
  }

  // The levels Arrow's own LZ4_FRAME codec reports; this codec always compresses at level 1
  // (LZ4 fast), as the Fluss Java writer does.
  int minimum_compression_level() const override { return 1; }
  int maximum_compression_level() const override { return LZ4F_compressionLevel_max(); }
  int default_compression_level() const override { return 1; }

 private:
  const LZ4F_preferences_t prefs_;
};

}  // namespace

std::shared_ptr<arrow::util::Codec> MakeFlussLz4FrameCodec() {
  return std::make_shared<FlussLz4FrameCodec>();
}

}  // namespace fluss::record

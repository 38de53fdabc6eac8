// libFuzzer target: the LZ4 frame decompressor of ARROW bodies compressed with LZ4_FRAME
// (record/lz4_frame_codec.h), for any declared output size: a Status or at most `output_len`
// bytes written, never a crash.
//
// Input: bytes 0-1 the output buffer size (little-endian, up to 64 KiB); the rest is the frame.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <arrow/util/compression.h>

#include "fluss/record/lz4_frame_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  static const auto codec = fluss::record::MakeFlussLz4FrameCodec();
  const size_t out_len = static_cast<size_t>(data[0]) | (static_cast<size_t>(data[1]) << 8);
  std::vector<uint8_t> input(data + 2, data + size);
  std::vector<uint8_t> out(out_len);
  auto n = codec->Decompress(static_cast<int64_t>(input.size()), input.data(), static_cast<int64_t>(out.size()),
                             out.data());
  if (n.ok() && (*n < 0 || static_cast<size_t>(*n) > out_len)) __builtin_trap();
  return 0;
}

// A ZSTD codec for Arrow IPC body compression that keeps its ZSTD contexts between buffers.
//
// Arrow C++'s built-in ZSTD codec calls ZSTD_compress per buffer, which creates and frees a
// compression context (several hundred KB at level 3) every time: with six columns that is six
// contexts per batch. This codec writes the same frames (one standard ZSTD frame per buffer,
// content size included, as ZSTD_compress does and Fluss Java's ZstdCompressionCodec reads) from
// contexts it reuses.
//
// Only the one-shot API is implemented (Compress, Decompress, MaxCompressedLen), as for the LZ4
// frame codec: the Arrow IPC writer uses nothing else from IpcWriteOptions::codec.
//
// Thread safety: Compress/Decompress may run concurrently; each call takes a context from a
// pool (guarded by a leaf mutex) and returns it, so the pool holds at most as many contexts as
// calls ever ran at once.
#pragma once

#include <memory>

#include <arrow/util/compression.h>

#include "fluss/client.h"

namespace fluss::record {

/// A codec whose compression_type() is arrow::Compression::ZSTD, compressing at `level`
/// (table.log.arrow.compression.zstd.level, 1..22; Fluss's default is 3). Fails with
/// kInvalidArgument for a level outside what libzstd accepts.
Result<std::shared_ptr<arrow::util::Codec>> MakeFlussZstdCodec(int level);

}  // namespace fluss::record

// An LZ4_FRAME codec for Arrow IPC body compression that Fluss Java readers accept
// (protocol-data.md section 2.3 and pitfall 14).
//
// Arrow C++'s built-in LZ4_FRAME codec compresses with zeroed LZ4F preferences: every buffer
// larger than one 64 KB block becomes a frame of *linked* blocks (FLG 0x40), which the Java
// reader (FlussLZ4BlockInputStream) rejects with "Dependent block stream is unsupported".
// This codec writes what Fluss Java's FlussLZ4BlockOutputStream writes:
//   magic 04 22 4D 18 | FLG 0x60 (version 01, independent blocks, no block checksum,
//   no content size, no content checksum) | BD 0x40 (64 KB max block) | header checksum
//   (byte 1 of XXH32 of FLG..BD, seed 0) | blocks | end mark 00 00 00 00
// and decompresses any standard LZ4 frame (linked or independent blocks, checksums, content
// size, concatenated frames).
//
// Only the one-shot API is implemented (Compress, Decompress, MaxCompressedLen): the Arrow IPC
// writer uses nothing else from IpcWriteOptions::codec, and the IPC reader creates its own codec
// from the message's compression type. MakeCompressor / MakeDecompressor return NotImplemented.
//
// Thread safety: the codec is stateless; Compress/Decompress may run concurrently (the IPC
// writer compresses buffers in parallel when IpcWriteOptions::use_threads is set).
#pragma once

#include <memory>

#include <arrow/util/compression.h>

namespace fluss::record {

/// A codec whose compression_type() is arrow::Compression::LZ4_FRAME (so the IPC writer labels
/// the body LZ4_FRAME) and which writes independent-block frames as Fluss Java does.
std::shared_ptr<arrow::util::Codec> MakeFlussLz4FrameCodec();

}  // namespace fluss::record

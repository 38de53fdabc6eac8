// CRC-32C (Castagnoli), as java.util.zip.CRC32C: reflected polynomial 0x82F63B78,
// initial value and final XOR 0xFFFFFFFF. Used for log and KV batch checksums.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fluss::util {

/// CRC-32C of `size` bytes at `data`. Uses the SSE4.2 crc32 instruction when the CPU has it.
uint32_t Crc32c(const uint8_t* data, size_t size);

/// The same CRC by the portable table-driven path (the one used on CPUs without SSE4.2, e.g.
/// AArch64), callable directly so unit tests cover it on every machine.
uint32_t Crc32cPortable(const uint8_t* data, size_t size);

}  // namespace fluss::util

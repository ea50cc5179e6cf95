#ifndef MODELC_CSHA2_H
#define MODELC_CSHA2_H

#include <stddef.h>
#include <stdint.h>

/// SHA-2's compression functions (FIPS 180-4) over whole blocks; the padding and the streaming
/// are Swift's (ModelSchema's SHA2). C because a debug build compiles Swift without optimizing,
/// and a chain of subentities hashes gigabytes: here SHA-256 uses the CPU's SHA instructions
/// where it has them, and plain C otherwise.

/// Runs `count` 64-byte blocks through SHA-256's compression function, updating `state`.
void modelc_sha256_blocks(uint32_t state[8], const uint8_t *blocks, size_t count);

/// The same in plain C, whatever the CPU has: what the tests compare the accelerated path with.
void modelc_sha256_blocks_portable(uint32_t state[8], const uint8_t *blocks, size_t count);

/// Whether `modelc_sha256_blocks` uses the CPU's SHA instructions on this machine.
int modelc_sha256_is_accelerated(void);

/// Runs `count` 128-byte blocks through SHA-512's compression function, updating `state`.
void modelc_sha512_blocks(uint64_t state[8], const uint8_t *blocks, size_t count);

#endif

#ifndef VICINITY_PREFETCH_H
#define VICINITY_PREFETCH_H

/// Asks the processor to bring the 64-byte cache line holding `address` into its caches, for a
/// read, without waiting for it (`prefetcht0` on x86-64, `prfm pldl1keep` on arm64): a hint that
/// never faults, whatever the address, and costs one instruction. Swift has no such call; a load
/// would make the processor wait for the line before it retires.
static inline void vicinity_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif

#ifndef VICINITY_HEAP_STATS_H
#define VICINITY_HEAP_STATS_H
#include <stddef.h>

/// Bytes of heap currently allocated by malloc (glibc mallinfo2: uordblks + hblkhd), or 0 where
/// the C library has no such counter. Used by `vicinity bench` to measure index memory.
size_t vicinity_heap_in_use(void);

#endif

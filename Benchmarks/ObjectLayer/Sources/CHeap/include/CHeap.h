#ifndef CHEAP_H
#define CHEAP_H
#include <malloc.h>
#include <stddef.h>

/// Bytes malloc has handed out and not taken back (small chunks and mmapped ones), so that a
/// benchmark can state the heap a set of objects holds.
static inline size_t cheap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#endif

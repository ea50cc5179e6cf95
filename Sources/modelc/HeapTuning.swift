import CMalloc

/// Process-wide allocator settings for a short-lived tool that builds large object graphs.
enum HeapTuning {
    /// Makes glibc's malloc grow its heaps 64 MB at a time instead of by what each allocation
    /// needs: compiling a large model otherwise makes thousands of `brk` and `mprotect` calls
    /// (one per page for a worker thread's arena), a measurable share of its time. Only address
    /// space is reserved; pages are committed when touched, as before. Blocks of up to 64 MB
    /// also come from the heap rather than from their own mappings, so that the memory a
    /// growing array leaves behind is reused instead of unmapped and faulted in again.
    static func apply() {
        #if os(Linux)
        _ = mallopt(M_TOP_PAD, 64 << 20)
        _ = mallopt(M_MMAP_THRESHOLD, 64 << 20)
        #endif
    }
}

import Dispatch

extension Array where Element: Sendable {
    /// The elements transformed as by `map`, several at a time on the machine's cores, in order.
    ///
    /// For independent, CPU-bound work such as reading, validating or compiling each version of a
    /// bundle: the result is the same as `map`'s, whatever the scheduling. A single element is
    /// transformed on the calling thread.
    package func concurrentMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        guard count > 1 else { return map(transform) }
        let slots = ResultSlots<Result>(count: count)
        defer { slots.deallocate() }
        DispatchQueue.concurrentPerform(iterations: count) { index in
            slots.store(transform(self[index]), at: index)
        }
        return slots.results()
    }
}

/// Uninitialized storage for `concurrentMap`'s results: each iteration initializes only its own
/// slot, so the iterations never touch the same memory.
private struct ResultSlots<Result>: @unchecked Sendable {
    private let buffer: UnsafeMutableBufferPointer<Result>

    init(count: Int) {
        buffer = .allocate(capacity: count)
    }

    /// Initializes slot `index`, which no other iteration touches.
    func store(_ result: Result, at index: Int) {
        (buffer.baseAddress! + index).initialize(to: result)
    }

    /// Moves every result out; call once, after every slot was stored.
    func results() -> [Result] {
        Array(unsafeUninitializedCapacity: buffer.count) { target, initialized in
            _ = target.moveInitialize(fromContentsOf: buffer)
            initialized = buffer.count
        }
    }

    /// Frees the storage; the results must have been moved out.
    func deallocate() {
        buffer.deallocate()
    }
}

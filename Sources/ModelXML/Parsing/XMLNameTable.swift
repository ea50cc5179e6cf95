import CLibXML2

/// Element and attribute names by libxml2's interned (dictionary) pointer: each distinct name
/// becomes a `String` and its handler term once, and is then found by the pointer alone.
///
/// An open-addressing table keyed by address: a document has a few dozen distinct names, and a
/// look-up here costs a multiply and a compare where a `Dictionary` would run SipHash.
struct XMLNameTable {
    /// What a name pointer stands for.
    struct Name {
        var string: String
        var term: UInt8?
    }

    private var keys: [UnsafePointer<xmlChar>?]
    private var names: [Name]
    private var count = 0
    private var mask: Int

    init(capacity: Int = 128) {
        keys = Array(repeating: nil, count: capacity)
        names = Array(repeating: Name(string: "", term: nil), count: capacity)
        mask = capacity - 1
    }

    /// The name at `pointer`, made on first sight with `term` from the handler.
    mutating func name(at pointer: UnsafePointer<xmlChar>, term: (String) -> UInt8?) -> Name {
        names[slot(of: pointer, term: term)]
    }

    /// The handler's term for the name at `pointer`, without copying its string.
    mutating func term(at pointer: UnsafePointer<xmlChar>, term: (String) -> UInt8?) -> UInt8? {
        names[slot(of: pointer, term: term)].term
    }

    /// The terms of a start tag's attribute names, ``XMLStartTag/unknownTerm`` for names the
    /// handler does not know, all in one pass.
    mutating func terms(
        ofAttributes attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, count: Int,
        into terms: UnsafeMutableBufferPointer<UInt8>, term: (String) -> UInt8?
    ) {
        for index in 0..<count {
            guard let pointer = attributes[index * 5] else {
                terms[index] = XMLStartTag.unknownTerm
                continue
            }
            terms[index] = names[slot(of: pointer, term: term)].term ?? XMLStartTag.unknownTerm
        }
    }

    private mutating func slot(of pointer: UnsafePointer<xmlChar>, term: (String) -> UInt8?) -> Int {
        var slot = Self.slot(of: pointer, mask: mask)
        while let key = keys[slot] {
            if key == pointer { return slot }
            slot = (slot + 1) & mask
        }
        let string = String(cString: pointer)
        keys[slot] = pointer
        names[slot] = Name(string: string, term: term(string))
        count += 1
        if count * 2 > keys.count {
            grow()
            return self.slot(of: pointer, term: term)
        }
        return slot
    }

    private static func slot(of pointer: UnsafePointer<xmlChar>, mask: Int) -> Int {
        // Fibonacci hashing of the address; its low bits are alignment, the high bits of the
        // product are well mixed.
        let product = UInt(bitPattern: pointer) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: product >> 32) & mask
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldNames = names
        keys = Array(repeating: nil, count: oldKeys.count * 2)
        names = Array(repeating: Name(string: "", term: nil), count: oldKeys.count * 2)
        mask = keys.count - 1
        for (key, name) in zip(oldKeys, oldNames) {
            guard let key else { continue }
            var slot = Self.slot(of: key, mask: mask)
            while keys[slot] != nil { slot = (slot + 1) & mask }
            keys[slot] = key
            names[slot] = name
        }
    }
}

extension AttributeValues {
    /// An NSDecimalNumber as NSCoder stores it: exponent, length in 16-bit words, sign,
    /// compactness and the 16-byte little-endian mantissa, in place in the object
    /// (`encodeBytes:length:forKey:`), as in Karim-ezzedine/CartKit's Xcode 26.2 `CartStorage.mom`.
    ///
    /// momc makes a decimal default or bound with `+[NSDecimalNumber decimalNumberWithString:]`:
    /// `-[NSScanner scanDecimal:]` reads the text, then `initWithDecimal:` compacts the value
    /// (`_NSDecimalCompact`). The text is read as Foundation reads it (swiftlang/swift-foundation
    /// `Decimal._decimal(from:decimalSeparator:matchEntireString:)` and `Decimal.compact()`):
    /// every fraction digit lowers the exponent, zeros included, and compacting strips the
    /// trailing zeros of a non-zero mantissa and marks it compact but leaves a zero alone, so
    /// `0.0` is exponent -1, not compact; `1.50` is mantissa 15, exponent -1, compact; `100`
    /// is mantissa 1, exponent 2, compact. A negative zero is zero; text that is no number is
    /// NaN (length 0, negative), what `init` gives when the scan fails.
    struct DecimalNumber {
        var exponent: Int64 = 0
        var length: Int64 = 0
        var isNegative = false
        var isCompact = false
        var mantissa = [UInt8](repeating: 0, count: 16)

        /// Parses decimal text such as `-12.50` or `1.5e3`.
        init(_ text: String) {
            guard let (negative, significand, exponent) = Self.scan(Array(text.utf8)) else {
                isNegative = true
                return
            }
            guard !significand.isZero else {
                // Foundation's scan turns a negative zero (NaN's bit pattern) into plain zero.
                if !negative { self.exponent = Int64(exponent) }
                return
            }
            var value = significand
            var scale = exponent
            while scale < Int(Int8.max), let tenth = value.dividedByTen() {
                value = tenth
                scale += 1
            }
            for (index, word) in value.words.enumerated() {
                mantissa[index * 2] = UInt8(truncatingIfNeeded: word)
                mantissa[index * 2 + 1] = UInt8(truncatingIfNeeded: word >> 8)
            }
            self.exponent = Int64(scale)
            length = Int64(value.words.count)
            isNegative = negative
            isCompact = true
        }

        /// Sign, significand and exponent of `bytes` as `scanDecimal:` reads them: leading
        /// spaces, a sign, digits up to 38 of them (more integer digits raise the exponent,
        /// more fraction digits are dropped), a `.` and fraction digits, an `e` exponent; `nil`
        /// when nothing is a number or the exponent leaves -128...127.
        private static func scan(_ bytes: [UInt8]) -> (Bool, Significand, Int)? {
            var index = bytes.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? bytes.endIndex
            let start = index
            var negative = false
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                negative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var significand = Significand()
            var exponent = 0
            var isFull = false
            func take(_ digit: UInt8, isFraction: Bool) {
                isFull = isFull || !significand.multiplyByTen(adding: digit)
                if isFull {
                    if !isFraction { exponent += 1 }
                } else if isFraction {
                    exponent -= 1
                }
            }
            while index < bytes.endIndex, let digit = Self.digit(bytes[index]) {
                take(digit, isFraction: false)
                index += 1
            }
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
                index += 1
                while index < bytes.endIndex, let digit = Self.digit(bytes[index]) {
                    take(digit, isFraction: true)
                    index += 1
                }
            }
            if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                var isNegativePower = false
                if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                    isNegativePower = bytes[index] == UInt8(ascii: "-")
                    index += 1
                }
                var power = 0
                while index < bytes.endIndex, let digit = Self.digit(bytes[index]), power <= 2 * Int(Int8.max) {
                    power = power * 10 + Int(digit)
                    index += 1
                }
                exponent += isNegativePower ? -power : power
            }
            guard index > start, (Int(Int8.min)...Int(Int8.max)).contains(exponent) else { return nil }
            return (negative, significand, exponent)
        }

        private static func digit(_ byte: UInt8) -> UInt8? {
            (0x30...0x39).contains(byte) ? byte - 0x30 : nil
        }

        /// An NSDecimal mantissa: up to eight 16-bit words, least significant first, no
        /// leading zero word (zero has none).
        struct Significand {
            var words: [UInt16] = []

            var isZero: Bool { words.isEmpty }

            /// Multiplies by ten and adds `digit`; `false`, unchanged, when eight words overflow.
            mutating func multiplyByTen(adding digit: UInt8) -> Bool {
                var result = words
                var carry = UInt32(digit)
                for index in result.indices {
                    let product = UInt32(result[index]) * 10 + carry
                    result[index] = UInt16(truncatingIfNeeded: product)
                    carry = product >> 16
                }
                if carry > 0 { result.append(UInt16(carry)) }
                guard result.count <= 8 else { return false }
                words = result
                return true
            }

            /// The value divided by ten, or `nil` when ten does not divide it.
            func dividedByTen() -> Significand? {
                var result = words
                var remainder: UInt32 = 0
                for index in result.indices.reversed() {
                    let part = remainder << 16 | UInt32(result[index])
                    result[index] = UInt16(part / 10)
                    remainder = part % 10
                }
                guard remainder == 0 else { return nil }
                while result.last == 0 { result.removeLast() }
                return Significand(words: result)
            }
        }

        /// The same object as a tree, for a constant inside an archived predicate.
        func object() -> ArchivedObject {
            ArchivedObject(ArchiveClass.decimalNumber.names, fields: [
                (ArchiveKey.exponent.name, .integer(exponent)), (ArchiveKey.length.name, .integer(length)),
                (ArchiveKey.negative.name, .bool(isNegative)), (ArchiveKey.compact.name, .bool(isCompact)),
                (ArchiveKey.mantissaByteOrder.name, .integer(1)), (ArchiveKey.mantissa.name, .bytes(mantissa)),
            ])
        }

        /// Numbers a new NSDecimalNumber object of this value in `writer`.
        func number(in writer: inout KeyedArchiveWriter) -> UInt32 {
            let object = writer.beginObject()
            writer.append(.exponent, integer: exponent)
            writer.append(.length, integer: length)
            writer.append(.negative, bool: isNegative)
            writer.append(.compact, bool: isCompact)
            writer.append(.mantissaByteOrder, integer: 1)
            writer.append(.mantissa, bytes: mantissa)
            writer.endObject(object, chain: .decimalNumber)
            return object.number
        }
    }
}

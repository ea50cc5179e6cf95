import Foundation

/// `FUNCTION(value, 'selector:', arguments…)` on values that are not objects: the methods of
/// NSString, NSDate, NSNumber and collections mapping expressions call.
extension ValueMethods {
    /// The result of the method; a message to `nil` gives `nil`, as in Objective-C. Throws for a
    /// method the value's class does not have.
    static func call(_ selector: String, on receiver: EvaluatedValue, arguments: [EvaluatedValue]) throws -> EvaluatedValue {
        if receiver.isNull { return .null }
        if selector == "isEqual:", arguments.count == 1 { return .bool(Comparison.equal(receiver, arguments[0])) }
        if case .collection(let elements) = receiver { return try collection(selector, elements, arguments) }
        if arguments.isEmpty, !selector.hasSuffix(":") { return try value(forKey: selector, of: receiver) }
        let result: EvaluatedValue?
        switch receiver {
        case .string(let text): result = try string(selector, text, arguments)
        case .date(let date): result = self.date(selector, date, arguments)
        case .integer, .double, .decimal, .bool:
            let isEquality = ["isEqualToNumber:", "isEqualToValue:"].contains(selector) && arguments.count == 1
            result = isEquality ? .bool(Comparison.equal(receiver, arguments[0])) : nil
        default: result = nil
        }
        guard let result else { throw EvaluationError("\(receiver.kind) has no method '\(selector)' taking \(arguments.count) arguments") }
        return result
    }

    // MARK: - By class

    private static func string(_ selector: String, _ text: String, _ arguments: [EvaluatedValue]) throws -> EvaluatedValue? {
        let strings = arguments.compactMap { if case .string(let value) = $0 { value } else { nil } }
        let integers = arguments.compactMap { if case .integer(let value) = $0 { Int(exactly: value) } else { nil } }
        switch (selector, strings.count, integers.count) {
        case ("stringByAppendingString:", 1, _): return .string(text + strings[0])
        case ("stringByAppendingPathComponent:", 1, _): return .string((text as NSString).appendingPathComponent(strings[0]))
        case ("stringByReplacingOccurrencesOfString:withString:", 2, _):
            return .string(text.replacingOccurrences(of: strings[0], with: strings[1]))
        case ("componentsSeparatedByString:", 1, _): return .collection(text.components(separatedBy: strings[0]).map(EvaluatedValue.string))
        case ("hasPrefix:", 1, _): return .bool(text.hasPrefix(strings[0]))
        case ("hasSuffix:", 1, _): return .bool(text.hasSuffix(strings[0]))
        case ("containsString:", 1, _): return .bool(text.contains(strings[0]))
        case ("isEqualToString:", 1, _): return .bool(text == strings[0])
        case ("substringToIndex:", _, 1), ("substringFromIndex:", _, 1):
            let units = Array(text.utf16)
            guard (0...units.count).contains(integers[0]) else {
                throw EvaluationError("\(selector) \(integers[0]) is out of the bounds of a string of length \(units.count)")
            }
            let part = selector == "substringToIndex:" ? units[..<integers[0]] : units[integers[0]...]
            return .string(String(decoding: part, as: UTF16.self))
        default: return nil
        }
    }

    private static func date(_ selector: String, _ date: Date, _ arguments: [EvaluatedValue]) -> EvaluatedValue? {
        switch (selector, arguments.first) {
        case ("dateByAddingTimeInterval:", let seconds?) where seconds.number != nil: .date(date.addingTimeInterval(seconds.number!))
        case ("timeIntervalSinceDate:", .date(let other)?): .double(date.timeIntervalSince(other))
        case ("isEqualToDate:", let other?): .bool(other == .date(date))
        default: nil
        }
    }

    private static func collection(_ selector: String, _ elements: [EvaluatedValue], _ arguments: [EvaluatedValue]) throws -> EvaluatedValue {
        switch (selector, arguments.first) {
        case ("count", nil): return .integer(Int64(elements.count))
        case ("firstObject", nil), ("anyObject", nil): return elements.first ?? .null
        case ("lastObject", nil): return elements.last ?? .null
        case ("allObjects", nil): return .collection(elements)
        case ("containsObject:", let element?): return .bool(elements.contains { Comparison.equal($0, element) })
        case ("objectAtIndex:", .integer(let index)?):
            guard index >= 0, index < elements.count else { throw EvaluationError("index \(index) is beyond a collection of \(elements.count)") }
            return elements[Int(index)]
        case ("componentsJoinedByString:", .string(let separator)?):
            return .string(try elements.map { element in
                guard case .string(let text) = try value(forKey: "description", of: element) else { return "" }
                return text
            }.joined(separator: separator))
        default:
            throw EvaluationError("a collection has no method '\(selector)' taking \(arguments.count) arguments")
        }
    }
}

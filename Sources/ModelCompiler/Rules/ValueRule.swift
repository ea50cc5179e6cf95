import Foundation
import ModelSchema

/// Attribute values: defaults that parse for their type, validation bounds that parse and are in
/// order, a known composite for composite attributes, and a type for every persistent attribute.
struct ValueRule: ValidationRule {
    func check(_ context: ValidationContext, into diagnostics: inout DiagnosticList) {
        let composites = Set(context.version.composites.map(\.name))
        for entity in context.entities {
            // Through pointers: `for attribute in entity.attributes`, or passing `attributes[index]`,
            // would copy every attribute.
            entity.attributes.withUnsafeBufferPointer { attributes in
                for index in attributes.indices {
                    check(attributes.baseAddress! + index, composites, &diagnostics)
                }
            }
        }
    }

    /// The checks of one attribute, read through a pointer so that nothing copies it.
    private func check(_ attribute: UnsafePointer<Attribute>, _ composites: Set<String>, _ diagnostics: inout DiagnosticList) {
        checkDefault(attribute, &diagnostics)
        checkBounds(attribute, &diagnostics)
        if attribute.pointee.type == .undefined && !attribute.pointee.isTransient && !attribute.pointee.isDerived {
            diagnostics.emit(.undefinedPersistentAttribute(attribute.pointee.name, at: attribute.pointee.location))
        }
        if attribute.pointee.type == .composite, let name = attribute.pointee.compositeName, !composites.contains(name) {
            diagnostics.emit(.unknownComposite(name, attribute.pointee.name, at: attribute.pointee.location))
        }
    }

    // MARK: - Defaults

    private func checkDefault(_ attribute: UnsafePointer<Attribute>, _ diagnostics: inout DiagnosticList) {
        let typeName = attribute.pointee.type.xmlName ?? "Undefined"
        let location = attribute.pointee.location
        if attribute.pointee.type == .date, let interval = attribute.pointee.defaultDateTimeInterval {
            if Double(interval) == nil {
                diagnostics.emit(.invalidDefault(interval, attribute.pointee.name, typeName, at: location))
            }
            return
        }
        guard let text = attribute.pointee.defaultValueString else { return }
        switch attribute.pointee.type {
        case .integer16, .integer32, .integer64:
            if let value = Int(text) {
                if !Self.integerRange(attribute.pointee.type).contains(value) {
                    diagnostics.emit(.invalidDefault(text, attribute.pointee.name, typeName, at: location))
                }
            } else if let lenient = Self.lenientInteger(text) {
                diagnostics.emit(.lenientDefault(text, attribute.pointee.name, typeName, String(lenient), at: location))
            } else {
                diagnostics.emit(.invalidDefault(text, attribute.pointee.name, typeName, at: location))
            }
        case .decimal, .double, .float:
            if Double(text) == nil {
                diagnostics.emit(.invalidDefault(text, attribute.pointee.name, typeName, at: location))
            }
        case .boolean:
            if !["YES", "NO", "yes", "no", "true", "false", "TRUE", "FALSE", "0", "1"].contains(text) {
                diagnostics.emit(.invalidDefault(text, attribute.pointee.name, typeName, at: location))
            }
        case .date:
            if Double(text) == nil && !Self.isDateText(text) {
                diagnostics.emit(.invalidDefault(text, attribute.pointee.name, typeName, at: location))
            }
        case .uuid:
            if UUID(uuidString: text) == nil {
                diagnostics.emit(.invalidDefault(text, attribute.pointee.name, typeName, at: location))
            }
        case .uri:
            if URL(string: text)?.scheme == nil {
                diagnostics.emit(.invalidDefault(text, attribute.pointee.name, typeName, at: location))
            }
        default:
            break
        }
    }

    static func integerRange(_ type: AttributeType) -> ClosedRange<Int> {
        switch type {
        case .integer16: Int(Int16.min)...Int(Int16.max)
        case .integer32: Int(Int32.min)...Int(Int32.max)
        default: Int.min...Int.max
        }
    }

    /// What Core Data's lenient parsing makes of a non-integer: `0.0` is 0, `NO`/`YES` are 0/1.
    static func lenientInteger(_ text: String) -> Int? {
        switch text {
        case "NO", "false": return 0
        case "YES", "true": return 1
        default:
            guard let value = Double(text), value.rounded() == value, abs(value) < 9.2e18 else { return nil }
            return Int(value)
        }
    }

    /// The date text Xcode writes next to `defaultDateTimeInterval`: `2013-04-23 12:00:00 +0000`.
    static func isDateText(_ text: String) -> Bool {
        let shape = text.map { $0.isNumber ? "9" : String($0) }.joined()
        return ["9999-99-99", "9999-99-99 99:99:99", "9999-99-99 99:99:99 +9999", "9999-99-99 99:99:99 -9999"]
            .contains(shape)
    }

    // MARK: - Bounds

    private func checkBounds(_ attribute: UnsafePointer<Attribute>, _ diagnostics: inout DiagnosticList) {
        let location = attribute.pointee.location
        var min: Double?
        var max: Double?
        var minText = attribute.pointee.minValueString
        var maxText = attribute.pointee.maxValueString
        switch attribute.pointee.type {
        case _ where attribute.pointee.type.isNumeric, .string:
            if let text = minText {
                min = Double(text)
                if min == nil { diagnostics.emit(.invalidBound("minimum", text, attribute.pointee.name, at: location)) }
            }
            if let text = maxText {
                max = Double(text)
                if max == nil { diagnostics.emit(.invalidBound("maximum", text, attribute.pointee.name, at: location)) }
            }
        case .date:
            minText = attribute.pointee.minDateTimeInterval ?? minText
            maxText = attribute.pointee.maxDateTimeInterval ?? maxText
            min = attribute.pointee.minDateTimeInterval.flatMap(Double.init)
            max = attribute.pointee.maxDateTimeInterval.flatMap(Double.init)
        default:
            return
        }
        if let min, let max, min > max {
            diagnostics.emit(.boundsOutOfOrder(attribute.pointee.name, min: minText ?? "", max: maxText ?? "", at: location))
        }
    }
}

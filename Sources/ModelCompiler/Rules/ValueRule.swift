import Foundation
import ModelSchema

/// Attribute values: defaults that parse for their type, validation bounds that parse and are in
/// order, a known composite for composite attributes, and a type for every persistent attribute.
struct ValueRule: ValidationRule {
    func check(_ context: ValidationContext, into diagnostics: inout DiagnosticList) {
        let composites = Set(context.version.composites.map(\.name))
        for entity in context.entities {
            for attribute in entity.attributes {
                checkDefault(attribute, &diagnostics)
                checkBounds(attribute, &diagnostics)
                if attribute.type == .undefined && !attribute.isTransient && !attribute.isDerived {
                    diagnostics.emit(.undefinedPersistentAttribute(attribute.name, at: attribute.location))
                }
                if attribute.type == .composite, let name = attribute.compositeName, !composites.contains(name) {
                    diagnostics.emit(.unknownComposite(name, attribute.name, at: attribute.location))
                }
            }
        }
    }

    // MARK: - Defaults

    private func checkDefault(_ attribute: Attribute, _ diagnostics: inout DiagnosticList) {
        let typeName = attribute.type.xmlName ?? "Undefined"
        let location = attribute.location
        if attribute.type == .date, let interval = attribute.defaultDateTimeInterval {
            if Double(interval) == nil {
                diagnostics.emit(.invalidDefault(interval, attribute.name, typeName, at: location))
            }
            return
        }
        guard let text = attribute.defaultValueString else { return }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            if let value = Int(text) {
                if !Self.integerRange(attribute.type).contains(value) {
                    diagnostics.emit(.invalidDefault(text, attribute.name, typeName, at: location))
                }
            } else if let lenient = Self.lenientInteger(text) {
                diagnostics.emit(.lenientDefault(text, attribute.name, typeName, String(lenient), at: location))
            } else {
                diagnostics.emit(.invalidDefault(text, attribute.name, typeName, at: location))
            }
        case .decimal, .double, .float:
            if Double(text) == nil {
                diagnostics.emit(.invalidDefault(text, attribute.name, typeName, at: location))
            }
        case .boolean:
            if !["YES", "NO", "yes", "no", "true", "false", "TRUE", "FALSE", "0", "1"].contains(text) {
                diagnostics.emit(.invalidDefault(text, attribute.name, typeName, at: location))
            }
        case .date:
            if Double(text) == nil && !Self.isDateText(text) {
                diagnostics.emit(.invalidDefault(text, attribute.name, typeName, at: location))
            }
        case .uuid:
            if UUID(uuidString: text) == nil {
                diagnostics.emit(.invalidDefault(text, attribute.name, typeName, at: location))
            }
        case .uri:
            if URL(string: text)?.scheme == nil {
                diagnostics.emit(.invalidDefault(text, attribute.name, typeName, at: location))
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

    private func checkBounds(_ attribute: Attribute, _ diagnostics: inout DiagnosticList) {
        let location = attribute.location
        var min: Double?
        var max: Double?
        var minText = attribute.minValueString
        var maxText = attribute.maxValueString
        switch attribute.type {
        case _ where attribute.type.isNumeric, .string:
            if let text = minText {
                min = Double(text)
                if min == nil { diagnostics.emit(.invalidBound("minimum", text, attribute.name, at: location)) }
            }
            if let text = maxText {
                max = Double(text)
                if max == nil { diagnostics.emit(.invalidBound("maximum", text, attribute.name, at: location)) }
            }
        case .date:
            minText = attribute.minDateTimeInterval ?? minText
            maxText = attribute.maxDateTimeInterval ?? maxText
            min = attribute.minDateTimeInterval.flatMap(Double.init)
            max = attribute.maxDateTimeInterval.flatMap(Double.init)
        default:
            return
        }
        if let min, let max, min > max {
            diagnostics.emit(.boundsOutOfOrder(attribute.name, min: minText ?? "", max: maxText ?? "", at: location))
        }
    }
}

import GRDB
import ModelExpression
import ModelSchema

/// Constants as their columns hold them, for comparisons in SQL.
extension PredicateTranslator {
    /// The column value of `value` compared with an attribute of `type`. Unlike a save's
    /// conversion (``StoredValue/encode(_:as:)``) nothing is converted across kinds or rounded
    /// (`age > 2.5` stays 2.5): a kind the evaluator would compare differently throws.
    func encode(_ value: EvaluatedValue, as type: AttributeType) throws -> DatabaseValue {
        switch (Self.family(type), value) {
        case (.number?, .integer(let number)): return number.databaseValue
        case (.number?, .double(let number)) where number.isFinite: return number.databaseValue
        case (.number?, .bool(let flag)): return (flag ? 1 : 0).databaseValue
        case (.number?, .decimal):
            return try StoredValue.encode(value, as: .double)
        case (.string?, .string(let text)) where type == .string: return text.databaseValue
        case (.string?, .uri(let url)) where type == .uri: return url.absoluteString.databaseValue
        case (.date?, .date(let date)): return date.timeIntervalSinceReferenceDate.databaseValue
        case (.identifier?, .uuid) where type == .uuid, (.identifier?, .data) where type == .binary:
            return try StoredValue.encode(value, as: type)
        default:
            throw PredicateTranslationError("\(value.kind) is not compared with a \(type.xmlName ?? "stored") attribute in SQL")
        }
    }

    /// What values of an attribute type compare with in SQL, as the evaluator compares them.
    enum ValueFamily {
        case number, string, date, identifier
    }

    /// The family of an attribute type; nil for values SQL does not compare (transformables, IDs).
    static func family(_ type: AttributeType) -> ValueFamily? {
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .boolean: .number
        case .string, .uri: .string
        case .date: .date
        case .uuid, .binary: .identifier
        default: nil
        }
    }
}

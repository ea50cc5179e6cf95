import Foundation
import GRDB
import ModelArchive
import ModelSchema
import ModelStore

/// The value a new object's attribute starts with: the model's default, read as the compiled
/// model's `NSDefaultValue` is and typed as the attribute's values are.
enum DefaultValue {
    static func of(_ attribute: Attribute) -> Any? {
        guard let stored = StoredDefault(of: attribute) else { return nil }
        let value: DatabaseValue = switch stored {
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        }
        return StoredValue.object(value, as: attribute.type)
    }
}

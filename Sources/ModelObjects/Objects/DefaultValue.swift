import GRDB
import ModelArchive
import ModelSchema
import ModelStore

/// The value a new object's attribute starts with: the model's default, read as the compiled
/// model's `NSDefaultValue` is and typed as the attribute's values are.
enum DefaultValue {
    /// The default as its column would hold it; null when the attribute has none.
    static func column(_ attribute: Attribute) -> DatabaseValue {
        switch StoredDefault(of: attribute) {
        case .integer(let number)?: number.databaseValue
        case .real(let number)?: number.databaseValue
        case .text(let text)?: text.databaseValue
        case nil: .null
        }
    }
}

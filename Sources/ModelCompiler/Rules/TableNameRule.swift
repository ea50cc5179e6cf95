import ModelSchema

/// Table names: Core Data stores each root entity's hierarchy in a table named `Z` and the
/// upper-cased entity name, and SQLite compares names without case, so two root entities whose
/// names differ only in case (`Tag`, `TAG`) would need one table twice: Core Data, and
/// `modelc store create`, fail with `table ZTAG already exists`.
///
/// Columns need no such rule: Core Data gives a column whose name is taken in its table (two
/// subentities' `name`, or `name` and `NAME`) the next free number (`ZNAME1`), as
/// `ModelStore`'s layout does.
struct TableNameRule: ValidationRule {
    func check(_ context: ValidationContext, into diagnostics: inout DiagnosticList) {
        var tables = [String: Int]()
        for (position, entity) in context.entities.enumerated()
        where context.position(of: entity) == position && context.inheritance.parents[position] == nil {
            let table = "Z" + entity.name.uppercased()
            guard let first = tables[table] else {
                tables[table] = position
                continue
            }
            let other = context.entities[first]
            diagnostics.emit(
                Diagnostic.tableNameClash(entity.name, other.name, table, at: entity.location)
                    .noting("'\(other.name)' is declared here", at: other.location))
        }
    }
}

import ModelStore

/// The derived attributes' triggers across a step: a trigger that names a table the step sets
/// aside (SQLite would rewrite it to the aside name, then drop or orphan it with that table)
/// or that the destination does not have as it is, is dropped before anything else runs; the
/// destination's triggers that are then missing are created after the data is in place.
extension StepBuilder {
    /// The `DROP TRIGGER` statements that open the step, and the `CREATE TRIGGER` ones that
    /// close it.
    func triggerStatements() -> (drops: [MigrationStatement], creates: [MigrationStatement]) {
        let wanted = Dictionary(destinationLayout.schema.triggers.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let aside = Set(asideNames.keys.map { $0.uppercased() })
        var kept = Set<String>()
        var drops = [MigrationStatement]()
        for trigger in actual.triggers {
            if wanted[trigger.name]?.normalizedSQL == trigger.normalizedSQL && Self.identifiers(in: trigger.normalizedSQL).isDisjoint(with: aside) {
                kept.insert(trigger.name)
            } else {
                drops.append(MigrationStatement(sql: "DROP TRIGGER IF EXISTS \(quoted(trigger.name))", purpose: "drop trigger \(trigger.name)"))
            }
        }
        let creates = destinationLayout.schema.triggers.filter { !kept.contains($0.name) }
            .map { MigrationStatement(sql: $0.sql, purpose: "create trigger \($0.name)") }
        return (drops, creates)
    }

    /// The identifiers a statement names (letters, digits and `_`), upper-cased as SQLite
    /// compares table names.
    private static func identifiers(in sql: String) -> Set<String> {
        Set(sql.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map { $0.uppercased() })
    }
}

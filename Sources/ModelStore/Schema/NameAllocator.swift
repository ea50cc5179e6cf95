/// Hands out names not used yet in one namespace: a name that clashes gets 1, 2, … appended, as
/// Core Data names clashing columns and join tables.
struct NameAllocator {
    private var used: Set<String>

    init(reserving names: Set<String> = []) {
        used = names
    }

    /// `base`, or `base` with the first free number appended.
    mutating func claim(_ base: String) -> String {
        var name = base
        var suffix = 1
        while used.contains(name) {
            name = base + String(suffix)
            suffix += 1
        }
        used.insert(name)
        return name
    }
}

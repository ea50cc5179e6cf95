/// The ID scopes of one store, one per entity, made when the store is opened: the IDs of an
/// entity's rows share its scope, so that making an ID allocates nothing.
struct IDScopes: Sendable {
    /// The scope of each entity, by entity number; nil for a number no entity has.
    private let byNumber: [ManagedObjectID.Scope?]

    /// The scopes of the entities `entities` (number and name) in the store `storeIdentifier`.
    init(_ entities: [(number: Int, name: String)], storeIdentifier: String) {
        var byNumber = [ManagedObjectID.Scope?](repeating: nil, count: (entities.map(\.number).max() ?? -1) + 1)
        for entity in entities where entity.number >= 0 {
            byNumber[entity.number] = ManagedObjectID.Scope(entityName: entity.name, storeIdentifier: storeIdentifier)
        }
        self.byNumber = byNumber
    }

    /// The scope of the entity numbered `number`, if there is one.
    func scope(_ number: Int) -> ManagedObjectID.Scope? {
        number >= 0 && number < byNumber.count ? byNumber[number] : nil
    }
}

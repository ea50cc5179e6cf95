/// The entities of a configuration, as `NSManagedObjectModel.entities(forConfigurationName:)`
/// gives them to a store added for it.
extension ModelVersion {
    /// The names Core Data gives the default configuration, which holds every entity: `nil`,
    /// `PF_DEFAULT_CONFIGURATION_NAME` (its name in compiled models), and "Default" (Xcode's label
    /// for it, which apps pass as a store description's configuration).
    public static func isDefaultConfiguration(_ name: String?) -> Bool {
        name == nil || name == "PF_DEFAULT_CONFIGURATION_NAME" || name == "Default"
    }

    /// The entities a store of configuration `name` holds: every entity for the default
    /// configuration, else the configuration's members; nil when the model has no configuration
    /// of that name. (A member's superentities lend it their table, but their objects belong to
    /// the stores whose configurations hold them.)
    public func entityNames(inConfiguration name: String?) -> Set<String>? {
        if Self.isDefaultConfiguration(name), !configurations.contains(where: { $0.name == name }) {
            return Set(entities.map(\.name))
        }
        guard let configuration = configurations.first(where: { $0.name == name }) else { return nil }
        return Set(configuration.memberEntityNames.filter { entity(named: $0) != nil })
    }

    /// The entities whose tables a store of configuration `name` has: its entities and their
    /// superentities, whose tables their rows share (every entity for the default configuration);
    /// nil when the model has no configuration of that name.
    public func storedEntityNames(inConfiguration name: String?) -> Set<String>? {
        guard let members = entityNames(inConfiguration: name) else { return nil }
        let hierarchy = EntityHierarchy(self)
        return Set(members.compactMap(hierarchy.entity(named:)).flatMap { hierarchy.lineage(of: $0).map(\.name) })
    }
}

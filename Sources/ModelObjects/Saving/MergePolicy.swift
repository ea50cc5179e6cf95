/// How a save, or a batch insert, resolves conflicts with the store (`NSMergePolicy`): Core
/// Data's five policies, each outcome given in Documentation/MergePolicies.md.
public struct MergePolicy: Sendable, Hashable {
    /// `NSMergePolicyType`'s values.
    public enum PolicyType: Int, Sendable, Hashable {
        /// A conflict fails the save.
        case errorMergePolicyType = 0
        /// Property by property, the store's changed values win.
        case mergeByPropertyStoreTrumpMergePolicyType = 1
        /// Property by property, the context's changed values win.
        case mergeByPropertyObjectTrumpMergePolicyType = 2
        /// The context's objects are written whole over the store's rows.
        case overwriteMergePolicyType = 3
        /// The store's rows win and the context's changes to them are dropped.
        case rollbackMergePolicyType = 4
    }

    /// Which of Core Data's policies this is.
    public let mergeType: PolicyType

    /// The policy of `type`.
    public init(merge type: PolicyType) { mergeType = type }

    /// `NSErrorMergePolicy`: a conflict fails the save.
    public static let error = MergePolicy(merge: .errorMergePolicyType)
    /// `NSMergeByPropertyStoreTrumpMergePolicy`: the store's changed values win.
    public static let mergeByPropertyStoreTrump = MergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    /// `NSMergeByPropertyObjectTrumpMergePolicy`: the context's changed values win.
    public static let mergeByPropertyObjectTrump = MergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    /// `NSOverwriteMergePolicy`: the context's objects overwrite the rows.
    public static let overwrite = MergePolicy(merge: .overwriteMergePolicyType)
    /// `NSRollbackMergePolicy`: the store's rows win.
    public static let rollback = MergePolicy(merge: .rollbackMergePolicyType)
}

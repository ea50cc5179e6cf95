/// How a save, or a batch insert, resolves conflicts with the store (`NSMergePolicy`): Core
/// Data's five policies, each outcome given in Documentation/MergePolicies.md.
public struct MergePolicy: Sendable, Hashable {
    /// `NSMergePolicyType`'s values.
    public enum PolicyType: Int, Sendable, Hashable {
        case errorMergePolicyType = 0
        case mergeByPropertyStoreTrumpMergePolicyType = 1
        case mergeByPropertyObjectTrumpMergePolicyType = 2
        case overwriteMergePolicyType = 3
        case rollbackMergePolicyType = 4
    }

    public let mergeType: PolicyType

    public init(merge type: PolicyType) { mergeType = type }

    public static let error = MergePolicy(merge: .errorMergePolicyType)
    public static let mergeByPropertyStoreTrump = MergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    public static let mergeByPropertyObjectTrump = MergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    public static let overwrite = MergePolicy(merge: .overwriteMergePolicyType)
    public static let rollback = MergePolicy(merge: .rollbackMergePolicyType)
}

/// A fetch index (`<fetchIndex>`, Xcode 9+): a named index over properties or expressions.
public struct FetchIndex: Sendable, Hashable {
    public var name: String
    public var partialIndexPredicate: String?
    public var elements: [FetchIndexElement]
    public var location: SourceLocation

    public init(
        name: String, partialIndexPredicate: String? = nil, elements: [FetchIndexElement] = [],
        location: SourceLocation = .unknown
    ) {
        self.name = name
        self.partialIndexPredicate = partialIndexPredicate
        self.elements = elements
        self.location = location
    }
}

/// One element of a fetch index: a property (or expression), its index type and order.
public struct FetchIndexElement: Sendable, Hashable {
    /// The indexed property's name; `nil` for an expression element.
    public var propertyName: String?
    public var expression: String?
    public var expressionType: String?
    /// `Binary` (B-tree, Core Data's type 0) or `RTree` (1).
    public var type: String
    public var isAscending: Bool
    public var location: SourceLocation

    public init(
        propertyName: String?, expression: String? = nil, expressionType: String? = nil,
        type: String = "Binary", isAscending: Bool = true, location: SourceLocation = .unknown
    ) {
        self.propertyName = propertyName
        self.expression = expression
        self.expressionType = expressionType
        self.type = type
        self.isAscending = isAscending
        self.location = location
    }
}

extension Entity {
    /// The attributes that are the only element of an ascending fetch index without a partial
    /// predicate: Core Data marks them indexed (`NSIsIndexed`) and leaves such indexes out of
    /// `NSCompoundIndexes`, as the model cache of LoopKit's store (build 1048) shows.
    public var attributesIndexedAlone: Set<String> {
        guard !fetchIndexes.isEmpty else { return [] }
        let own = Set(attributes.map(\.name))
        var names = Set<String>()
        for index in fetchIndexes where index.elements.count == 1 && index.partialIndexPredicate == nil {
            guard let element = index.elements.first, element.isAscending, let name = element.propertyName, own.contains(name) else { continue }
            names.insert(name)
        }
        return names
    }
}

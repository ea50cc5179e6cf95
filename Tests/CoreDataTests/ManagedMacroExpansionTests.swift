import ModelMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@Managed` and `@ManagedAccessor` expand to on the declarations Xcode's codegen writes
/// (shape from Xcode-generated `+CoreDataProperties.swift` files: `@NSManaged public var title:
/// String?`, scalars such as `Int16` non-optional, `NSSet?`/`NSOrderedSet?` to-manys, and the
/// `// MARK: Generated accessors` extension with `addToItems(_:)`, `insertIntoItems(_:at:)`, …).
struct ManagedMacroExpansionTests {
    static let macros: [String: MacroSpec] = [
        "Managed": MacroSpec(type: ManagedPropertyMacro.self),
        "ManagedAccessor": MacroSpec(type: ManagedAccessorMacro.self),
    ]

    /// Expands `source` with the macros and checks it against `expanded`.
    func expand(
        _ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: Self.macros) { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    }

    @Test func propertiesReadAsTheirDeclaredTypes() {
        expand(
            """
            extension Book {
                @Managed public var title: String?
                @Managed public var pages: Int16
                @Managed public var read: Bool
                @Managed public var author: Author?
                @Managed public var tags: NSSet?
                @Managed public var plate: String!
                @Managed public var published: Optional<Date>
                @Managed public var `default`: String
            }
            """,
            """
            extension Book {
                public var title: String? {
                    get {
                        managedValue(forKey: "title", as: String.self)
                    }
                    set {
                        setValue(newValue, forKey: "title")
                    }
                }
                public var pages: Int16 {
                    get {
                        managedValue(forKey: "pages", as: Int16.self) ?? 0
                    }
                    set {
                        setValue(newValue, forKey: "pages")
                    }
                }
                public var read: Bool {
                    get {
                        managedValue(forKey: "read", as: Bool.self) ?? false
                    }
                    set {
                        setValue(newValue, forKey: "read")
                    }
                }
                public var author: Author? {
                    get {
                        managedValue(forKey: "author", as: Author.self)
                    }
                    set {
                        setValue(newValue, forKey: "author")
                    }
                }
                public var tags: NSSet? {
                    get {
                        managedValue(forKey: "tags", as: NSSet.self)
                    }
                    set {
                        setValue(newValue, forKey: "tags")
                    }
                }
                public var plate: String! {
                    get {
                        managedValue(forKey: "plate", as: String.self)
                    }
                    set {
                        setValue(newValue, forKey: "plate")
                    }
                }
                public var published: Optional<Date> {
                    get {
                        managedValue(forKey: "published", as: Date.self)
                    }
                    set {
                        setValue(newValue, forKey: "published")
                    }
                }
                public var `default`: String {
                    get {
                        requiredManagedValue(forKey: "default", as: String.self)
                    }
                    set {
                        setValue(newValue, forKey: "default")
                    }
                }
            }
            """)
    }

    @Test func toManyAccessorsCallTheRelationshipMutators() {
        expand(
            """
            extension Author {
                @ManagedAccessor public func addToBooks(_ value: Book)
                @ManagedAccessor public func removeFromBooks(_ value: Book)
                @ManagedAccessor public func addToBooks(_ values: NSSet)
                @ManagedAccessor public func removeFromBooks(_ values: NSSet)
            }
            """,
            """
            extension Author {
                public func addToBooks(_ value: Book) {
                    addObject(value, toRelationship: "books")
                }
                public func removeFromBooks(_ value: Book) {
                    removeObject(value, fromRelationship: "books")
                }
                public func addToBooks(_ values: NSSet) {
                    addObjects(values, toRelationship: "books")
                }
                public func removeFromBooks(_ values: NSSet) {
                    removeObjects(values, fromRelationship: "books")
                }
            }
            """)
    }

    @Test func orderedAccessorsCallTheIndexedMutators() {
        expand(
            """
            extension User {
                @ManagedAccessor public func insertIntoCorenews(_ value: CoreNews, at idx: Int)
                @ManagedAccessor public func removeFromCorenews(at idx: Int)
                @ManagedAccessor public func insertIntoCorenews(_ values: [CoreNews], at indexes: NSIndexSet)
                @ManagedAccessor public func removeFromCorenews(at indexes: NSIndexSet)
                @ManagedAccessor public func replaceCorenews(at idx: Int, with value: CoreNews)
                @ManagedAccessor public func replaceCorenews(at indexes: NSIndexSet, with values: [CoreNews])
                @ManagedAccessor public func addToCorenews(_ values: NSOrderedSet)
                @ManagedAccessor public func addToURLs(_ value: Link)
            }
            """,
            """
            extension User {
                public func insertIntoCorenews(_ value: CoreNews, at idx: Int) {
                    insertObject(value, inRelationship: "corenews", at: idx)
                }
                public func removeFromCorenews(at idx: Int) {
                    removeObject(inRelationship: "corenews", at: idx)
                }
                public func insertIntoCorenews(_ values: [CoreNews], at indexes: NSIndexSet) {
                    insertObjects(values, inRelationship: "corenews", at: indexes)
                }
                public func removeFromCorenews(at indexes: NSIndexSet) {
                    removeObjects(inRelationship: "corenews", at: indexes)
                }
                public func replaceCorenews(at idx: Int, with value: CoreNews) {
                    replaceObject(inRelationship: "corenews", at: idx, with: value)
                }
                public func replaceCorenews(at indexes: NSIndexSet, with values: [CoreNews]) {
                    replaceObjects(inRelationship: "corenews", at: indexes, with: values)
                }
                public func addToCorenews(_ values: NSOrderedSet) {
                    addObjects(values, toRelationship: "corenews")
                }
                public func addToURLs(_ value: Link) {
                    addObject(value, toRelationship: "URLs")
                }
            }
            """)
    }

    @Test func misuseIsReportedAtTheDeclaration() {
        expand(
            """
            @Managed var title: String? = nil
            @ManagedAccessor func reload(_ value: Book)
            """,
            """
            var title: String? = nil
            func reload(_ value: Book)
            """,
            diagnostics: [
                DiagnosticSpec(message: "@Managed var takes its value from the object: remove the initial value", line: 1, column: 29),
                DiagnosticSpec(
                    message: "@ManagedAccessor func must be a generated to-many accessor: addTo…, removeFrom…, insertInto… or replace…",
                    line: 2, column: 23),
            ])
    }
}

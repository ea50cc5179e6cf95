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
                        enum Property {
                            static let key = ManagedPropertyKey("title")
                        }
                        return managedValue(for: Property.key, as: String.self)
                    }
                    set {
                        enum Property {
                            static let key = ManagedPropertyKey("title")
                        }
                        setValue(newValue, for: Property.key)
                    }
                }
                public var pages: Int16 {
                    get {
                        enum Property {
                            static let key = ManagedPropertyKey("pages")
                        }
                        return managedValue(for: Property.key, as: Int16.self) ?? 0
                    }
                    set {
                        enum Property {
                            static let key = ManagedPropertyKey("pages")
                        }
                        setValue(newValue, for: Property.key)
                    }
                }
                public var read: Bool {
                    get {
                        enum Property {
                            static let key = ManagedPropertyKey("read")
                        }
                        return managedValue(for: Property.key, as: Bool.self) ?? false
                    }
                    set {
                        enum Property {
                            static let key = ManagedPropertyKey("read")
                        }
                        setValue(newValue, for: Property.key)
                    }
                }
                public var author: Author? {
                    get {
                        enum Property {
                            static let key = ManagedPropertyKey("author")
                        }
                        return managedValue(for: Property.key, as: Author.self)
                    }
                    set {
                        enum Property {
                            static let key = ManagedPropertyKey("author")
                        }
                        setValue(newValue, for: Property.key)
                    }
                }
                public var tags: NSSet? {
                    get {
                        enum Property {
                            static let key = ManagedPropertyKey("tags")
                        }
                        return managedValue(for: Property.key, as: NSSet.self)
                    }
                    set {
                        enum Property {
                            static let key = ManagedPropertyKey("tags")
                        }
                        setValue(newValue, for: Property.key)
                    }
                }
                public var plate: String! {
                    get {
                        enum Property {
                            static let key = ManagedPropertyKey("plate")
                        }
                        return managedValue(for: Property.key, as: String.self)
                    }
                    set {
                        enum Property {
                            static let key = ManagedPropertyKey("plate")
                        }
                        setValue(newValue, for: Property.key)
                    }
                }
                public var published: Optional<Date> {
                    get {
                        enum Property {
                            static let key = ManagedPropertyKey("published")
                        }
                        return managedValue(for: Property.key, as: Date.self)
                    }
                    set {
                        enum Property {
                            static let key = ManagedPropertyKey("published")
                        }
                        setValue(newValue, for: Property.key)
                    }
                }
                public var `default`: String {
                    get {
                        enum Property {
                            static let key = ManagedPropertyKey("default")
                        }
                        return requiredManagedValue(for: Property.key, as: String.self)
                    }
                    set {
                        enum Property {
                            static let key = ManagedPropertyKey("default")
                        }
                        setValue(newValue, for: Property.key)
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

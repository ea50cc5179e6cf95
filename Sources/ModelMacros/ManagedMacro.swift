import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Managed` on a property, the stand-in for `@NSManaged var`: a getter and setter typed as the
/// declaration types the property, which find it in the entity by a key made once, not by name.
public struct ManagedPropertyMacro: AccessorMacro {
    /// The getter and setter of `@Managed var name: T`.
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        let property = try ManagedProperty(declaration)
        return [
            """
            get {
                \(raw: property.keyType)
                return \(raw: property.getter)
            }
            """,
            """
            set {
                \(raw: property.keyType)
                setValue(newValue, for: Property.key)
            }
            """,
        ]
    }
}

/// `@ManagedAccessor` on a body-less func, the stand-in for `@NSManaged func`: the body of one of
/// Xcode's generated to-many accessors (`addToItems(_:)`, …), a call to the object layer's
/// relationship mutator.
public struct ManagedAccessorMacro: BodyMacro {
    /// The body of `@ManagedAccessor func addToItems(_ value: Item)` and Xcode's other generated accessors.
    public static func expansion(
        of node: AttributeSyntax,
        providingBodyFor declaration: some DeclSyntaxProtocol & WithOptionalCodeBlockSyntax,
        in context: some MacroExpansionContext
    ) throws -> [CodeBlockItemSyntax] {
        guard let function = declaration.as(FunctionDeclSyntax.self) else {
            throw managedMacroError("@ManagedAccessor applies to a generated to-many accessor func", at: Syntax(declaration))
        }
        if let body = function.body {
            throw managedMacroError("@ManagedAccessor writes this func's body: remove the one it has", at: Syntax(body))
        }
        return ["\(raw: try ManagedAccessor(function).call)"]
    }
}

/// A macro error's message, shown by the compiler at the declaration it is about.
struct ManagedMacroMessage: DiagnosticMessage {
    let message: String
    var diagnosticID: MessageID { MessageID(domain: "ModelMacros", id: "Managed") }
    var severity: DiagnosticSeverity { .error }
}

/// The error a macro throws for `message` at `node`.
func managedMacroError(_ message: String, at node: Syntax) -> DiagnosticsError {
    DiagnosticsError(diagnostics: [Diagnostic(node: node, message: ManagedMacroMessage(message: message))])
}

import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The macros of the `CoreData` module, loaded by the compiler.
@main
struct ModelMacros: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ManagedPropertyMacro.self, ManagedAccessorMacro.self]
}

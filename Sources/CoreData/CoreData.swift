// `import CoreData` gives what Apple's module gives: Foundation, and Core Data's names over
// modelc's object layer and loading stack.
@_exported import Foundation
@_exported import ModelContext
@_exported import ModelStack

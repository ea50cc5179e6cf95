// `import CoreData` gives what Apple's module gives: Foundation, and Core Data's names over
// modelc's object layer and loading stack.
@_exported import Foundation
@_exported import ModelObjects
@_exported import ModelStack

import Foundation
import ModelStore

/// Prints a store failure the way compilers print errors, with its class, code and advice.
enum StoreErrorPrinter {
    static func print(_ error: StoreError) {
        print(path: error.path, message: error.message, errorClass: error.errorClass.rawValue, code: error.code, advice: error.advice)
    }

    /// Prints any classified failure (a store's, a migration's) in the same form.
    static func print(path: String, message: String, errorClass: String, code: Int, advice: String) {
        let text = "\(path): error: \(message) [\(errorClass), \(code)]\n" + "  advice: \(advice)\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
}

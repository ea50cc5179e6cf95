import Foundation
import ModelStore

/// Prints a store failure the way compilers print errors, with its class, code and advice.
enum StoreErrorPrinter {
    static func print(_ error: StoreError) {
        let text = "\(error.path): error: \(error.message) [\(error.errorClass.rawValue), \(error.code)]\n"
            + "  advice: \(error.advice)\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
}

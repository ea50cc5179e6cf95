import ModelStore

/// Prints a store failure the way compilers print errors, with its class, code and advice.
enum StoreErrorPrinter {
    static func print(_ error: StoreError) {
        CommandFailure(error).print(json: false)
    }
}

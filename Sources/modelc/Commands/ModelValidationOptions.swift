import ArgumentParser
import ModelCompiler

/// momc's switches that relax validation, shared by every command that reads a source model,
/// so that a model Xcode builds with a build setting is read the same way by every command.
struct ModelValidationOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(
        "Allow a relationship and its inverse to differ in transience, as momc's flag of this name does.",
        discussion: """
            Xcode passes it to momc for the build setting MOMC_SUPPRESS_INVERSE_TRANSIENT_ERROR, \
            meant for models made before the check existed. validate and compile then report no \
            S110 and compile the model. The commands that only read a model (hash, inspect, \
            diff, fetch, store, ...) never stop on S110, since a compiled model with such a \
            relationship loads and hashes the same: without the flag they print each one as a \
            warning, with it they print nothing.
            """))
    var suppressInverseTransientError = false

    /// The validator's options these flags ask for.
    var validation: ModelValidator.Options {
        ModelValidator.Options(suppressesInverseTransientError: suppressInverseTransientError)
    }
}

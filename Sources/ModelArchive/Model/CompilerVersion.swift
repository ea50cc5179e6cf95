/// The identity of the compiler recorded in a `.mom` (`CDMCompilerToolVersion`,
/// `CDMCompilerXcodeVersion`), which momc writes since Xcode 15.
public struct CompilerVersion: Sendable, Hashable {
    public var toolVersion: Double
    public var xcodeVersion: Int

    public init(toolVersion: Double, xcodeVersion: Int) {
        self.toolVersion = toolVersion
        self.xcodeVersion = xcodeVersion
    }

    /// Xcode 15.4's momc, whose output modelc reproduces by default.
    public static let xcode15_4 = CompilerVersion(toolVersion: 22758, xcodeVersion: 150400)
}

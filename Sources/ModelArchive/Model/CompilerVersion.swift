/// Which Xcode's momc modelc emulates, and what that momc wrote: the compiler identity in each
/// archive (`CDMCompilerXcodeVersion` / `CDMCompilerToolVersion`, since Xcode 15 in `.mom` files)
/// and version checksums in `VersionInfo.plist`.
///
/// One type for every compiled file (`.mom`, `VersionInfo.plist`, `.cdm`), so that `--xcode-version`
/// means the same for each. Each known era names the real file that shows what it wrote
/// (README, "Xcode eras").
public struct CompilerVersion: Sendable, Hashable {
    /// The Xcode release as the user writes it (`16.4`).
    public var xcode: String
    /// `CDMCompilerToolVersion`, or `nil` when this momc wrote no compiler identity.
    public var toolVersion: Double?
    /// `CDMCompilerXcodeVersion` (`160400` for 16.4), or `nil` when this momc wrote none.
    public var xcodeVersion: Int?
    /// Whether `VersionInfo.plist` holds `NSManagedObjectModel_VersionChecksums`.
    public var writesVersionChecksums: Bool

    public init(xcode: String, toolVersion: Double?, xcodeVersion: Int?, writesVersionChecksums: Bool) {
        self.xcode = xcode
        self.toolVersion = toolVersion
        self.xcodeVersion = xcodeVersion
        self.writesVersionChecksums = writesVersionChecksums
    }

    /// Whether the archives record the compiler identity.
    public var writesIdentity: Bool { toolVersion != nil && xcodeVersion != nil }

    // MARK: - Known eras

    /// Before Xcode 13.4 (here: 12.5): neither identity nor checksums
    /// (`alemar11/CoreDataPlus` `SampleModel.momd`).
    public static let xcode12_5 = CompilerVersion(xcode: "12.5", toolVersion: nil, xcodeVersion: nil, writesVersionChecksums: false)
    /// Xcode 13.4: identity 130400 / 20086.0, no checksums (reported by issue 16; no file at hand).
    public static let xcode13_4 = CompilerVersion(xcode: "13.4", toolVersion: 20086, xcodeVersion: 130400, writesVersionChecksums: false)
    /// Xcode 15.4: identity 150400 / 22758.0 and checksums (`alemar11/CoreDataPlus` `SampleModel3.momd`).
    public static let xcode15_4 = CompilerVersion(xcode: "15.4", toolVersion: 22758, xcodeVersion: 150400, writesVersionChecksums: true)
    /// Xcode 16.4: identity 160400 / 23788.4 and checksums (`richardpiazza/TranslationCatalog`
    /// `CatalogModel_*.momd_precompiled`).
    public static let xcode16_4 = CompilerVersion(xcode: "16.4", toolVersion: 23788.4, xcodeVersion: 160400, writesVersionChecksums: true)
    /// Xcode 26.2: identity 260200 / 24512.0 and checksums (reported by issue 16; no file at hand).
    public static let xcode26_2 = CompilerVersion(xcode: "26.2", toolVersion: 24512, xcodeVersion: 260200, writesVersionChecksums: true)

    /// Every era `--xcode-version` accepts, oldest first.
    public static let known: [CompilerVersion] = [xcode12_5, xcode13_4, xcode15_4, xcode16_4, xcode26_2]

    /// The newest Xcode whose output a real file confirms: what modelc writes by default.
    public static let newestVerified = xcode16_4

    /// The era named `xcode` (`16.4`), or `nil` when it is not one of ``known``.
    public static func named(_ xcode: String) -> CompilerVersion? {
        known.first { $0.xcode == xcode }
    }
}

import ModelArchive

/// A `.momd` that Xcode compiled, the source it was compiled from, and the Xcode that compiled it
/// (as its files show: compiler identity in the `.mom` files, checksums in `VersionInfo.plist`).
public struct XcodeCompiled: Sendable, CustomStringConvertible {
    public var momd: String
    public var source: String
    public var compiler: CompilerVersion
    /// `false` when the committed source lacks the `.xccurrentversion` the compile had: Xcode's
    /// `VersionInfo.plist` names a current version that the source cannot tell.
    public var sourceNamesCurrentVersion: Bool

    public var description: String { momd }

    static let plus = "alemar11__CoreDataPlus/Tests/Resources"
    static let catalog = "richardpiazza__TranslationCatalog@2735875/Sources/TranslationCatalogCoreData"

    /// Every Xcode-compiled bundle of the corpus.
    public static let all: [XcodeCompiled] = [
        XcodeCompiled(
            momd: "\(plus)/SampleModel/Fixtures/SampleModel.momd",
            source: "alemar11__CoreDataPlus@c42926a7797e/Tests/Resources/SampleModel/SampleModel.xcdatamodeld",
            compiler: .xcode12_5, sourceNamesCurrentVersion: true),
        XcodeCompiled(
            momd: "\(plus)/SampleModel3/Fixtures/SampleModel3.momd",
            source: "\(plus)/SampleModel3/SampleModel3.xcdatamodeld", compiler: .xcode15_4, sourceNamesCurrentVersion: true),
        XcodeCompiled(
            momd: "\(catalog)/PrecompiledResources/CatalogModel_1.momd_precompiled",
            source: "\(catalog)/Resources/CatalogModel_1.xcdatamodeld", compiler: .xcode16_4, sourceNamesCurrentVersion: true),
        XcodeCompiled(
            momd: "\(catalog)/PrecompiledResources/CatalogModel_2.momd_precompiled",
            source: "\(catalog)/Resources/CatalogModel_2.xcdatamodeld", compiler: .xcode16_4, sourceNamesCurrentVersion: true),
        XcodeCompiled(
            momd: "\(catalog)/PrecompiledResources/CatalogModel_3.momd_precompiled",
            source: "\(catalog)/Resources/CatalogModel_3.xcdatamodeld", compiler: .xcode16_4, sourceNamesCurrentVersion: false),
    ]
}

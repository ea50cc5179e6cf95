import Foundation
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

    /// Every Xcode-compiled bundle of the corpus: those it has held since 2026-11-24, and those
    /// proposed for it that it already holds.
    public static let all: [XcodeCompiled] = known + proposed.filter {
        FileManager.default.fileExists(atPath: Corpus.path("\($0.momd)/VersionInfo.plist"))
    }

    /// The Xcode-compiled bundles the corpus has held since 2026-11-24.
    public static let known: [XcodeCompiled] = [
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

    static let cartKit = "Karim-ezzedine__CartKit@63f7d27/Sources/CartKitStorageCoreData/Resources"
    static let xcodeServer = "richardpiazza__XcodeServer/Sources"
    static let coreDataPlus = "richardpiazza__CoreDataPlus@8ebfbd5/Tests/CoreDataPlusTests"

    /// Public Xcode-compiled bundles found for issue 24, proposed for the corpus under these
    /// folders: Karim-ezzedine/CartKit at 63f7d27 (Xcode 26.2; four decimal attributes whose
    /// default is `0.0`) and richardpiazza/XcodeServer at b47a554 (three model packages compiled
    /// by Xcode 12.5 and 13.4, committed as `*.momd_precompiled`); and richardpiazza/CoreDataPlus
    /// at 8ebfbd5 (the two versions its mapping model's `.cdm` joins).
    public static let proposed: [XcodeCompiled] = [
        XcodeCompiled(
            momd: "\(cartKit)/CartStorage.momd", source: "\(cartKit)/CartStorage.xcdatamodeld",
            compiler: .xcode26_2, sourceNamesCurrentVersion: true),
        XcodeCompiled(
            momd: "\(xcodeServer)/XcodeServerModel_1_0_0/Resources/XcodeServer.momd_precompiled",
            source: "\(xcodeServer)/XcodeServerModel_1_0_0/Resources/XcodeServer.xcdatamodeld",
            compiler: .xcode12_5, sourceNamesCurrentVersion: true),
        XcodeCompiled(
            momd: "\(xcodeServer)/XcodeServerModel_1_1_0/Resources/XcodeServer.momd_precompiled",
            source: "\(xcodeServer)/XcodeServerModel_1_1_0/Resources/XcodeServer.xcdatamodeld",
            compiler: .xcode12_5, sourceNamesCurrentVersion: true),
        XcodeCompiled(
            momd: "\(xcodeServer)/XcodeServerModel_2_0_0/Resources/XcodeServer.momd_precompiled",
            source: "\(xcodeServer)/XcodeServerModel_2_0_0/Resources/XcodeServer.xcdatamodeld",
            compiler: .xcode13_4, sourceNamesCurrentVersion: true),
        XcodeCompiled(
            momd: "\(coreDataPlus)/PrecompiledResources/CoreDataPlus_1.0.momd_precompiled",
            source: "\(coreDataPlus)/Resources/CoreDataPlus_1.0.xcdatamodeld", compiler: .xcode12_5, sourceNamesCurrentVersion: true),
        XcodeCompiled(
            momd: "\(coreDataPlus)/PrecompiledResources/CoreDataPlus_1.1.momd_precompiled",
            source: "\(coreDataPlus)/Resources/CoreDataPlus_1.1.xcdatamodeld", compiler: .xcode12_5, sourceNamesCurrentVersion: true),
    ]
}

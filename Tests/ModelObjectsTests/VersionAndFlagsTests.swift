import Testing
@testable import ModelObjects

/// The word that keeps an object's row version and flags: each part is set without touching the
/// others, and a version either reads back as it was stored or is reported as kept elsewhere.
struct VersionAndFlagsTests {
    @Test(arguments: [0, 1, 1 << 46 - 1, -(1 << 46) + 1, 1 << 46, -(1 << 46), .max, .min] as [Int64])
    func eachPartKeepsTheOthers(version: Int64) {
        for (checksQueue, lifecycle, listed) in [(false, 0xFF, 0x00), (true, 0x00, 0xFF), (true, 0xA5, 0x5A)] as [(Bool, UInt8, UInt8)] {
            var word = VersionAndFlags(checksQueue: checksQueue)
            #expect(word.version == 0 && word.checksQueue == checksQueue)
            word.lifecycle = ManagedObject.Lifecycle(rawValue: lifecycle)
            word.listed = listed
            let fits = word.setVersion(version)
            #expect(fits == (-(1 << 46) < version && version < 1 << 46))
            #expect(word.version == (fits ? version : nil))
            #expect(word.lifecycle.rawValue == lifecycle && word.listed == listed && word.checksQueue == checksQueue)
            #expect(word.setVersion(7) && word.version == 7)
            #expect(word.lifecycle.rawValue == lifecycle && word.listed == listed && word.checksQueue == checksQueue)
            word.lifecycle = ManagedObject.Lifecycle(rawValue: ~lifecycle)
            word.listed = ~listed
            #expect(word.version == 7 && word.checksQueue == checksQueue)
        }
    }
}

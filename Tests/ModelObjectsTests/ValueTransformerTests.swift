import Foundation
import ModelObjects
import Testing

/// Transformers found by name answer as the registered one does (Foundation's
/// `ValueTransformer(forName:)` returns the registered instance itself).
struct ValueTransformerTests {
    /// Stores a string as its reversed UTF-8 bytes, so that a transformation that did nothing shows.
    final class ReversingTransformer: ValueTransformer, @unchecked Sendable {
        override func transformedValue(_ value: Any?) -> Any? {
            (value as? Data).flatMap { String(data: Data($0.reversed()), encoding: .utf8) }
        }

        override func reverseTransformedValue(_ value: Any?) -> Any? {
            (value as? String).map { Data(Data($0.utf8).reversed()) }
        }
    }

    @Test func aTransformerFoundByNameTransformsAsTheRegisteredOne() throws {
        let name = NSValueTransformerName("ReversingTransformer-\(UUID().uuidString)")
        ValueTransformer.setValueTransformer(ReversingTransformer(), forName: name)
        defer { ValueTransformer.setValueTransformer(nil, forName: name) }
        let found = try #require(ValueTransformer(forName: name))
        let stored = try #require(found.reverseTransformedValue("abc") as? Data)
        #expect(stored == Data("cba".utf8))
        #expect(found.transformedValue(stored) as? String == "abc")
    }

    @Test func anUnknownOrRemovedNameFindsNone() {
        let name = NSValueTransformerName("Removed-\(UUID().uuidString)")
        #expect(ValueTransformer(forName: name) == nil)
        ValueTransformer.setValueTransformer(ReversingTransformer(), forName: name)
        #expect(ValueTransformer(forName: name) != nil)
        ValueTransformer.setValueTransformer(nil, forName: name)
        #expect(ValueTransformer(forName: name) == nil)
    }

    /// The object layer's own names, which Apple platforms use, reach the same registry as
    /// Foundation's names, which it gives where Foundation lacks them.
    @Test func theObjectLayersNamesAndFoundationsReachOneRegistry() throws {
        let name = AttributeValueTransformer.Name("OwnNames-\(UUID().uuidString)")
        AttributeValueTransformer.setValueTransformer(ReversingTransformer(), forName: name)
        defer { AttributeValueTransformer.setValueTransformer(nil, forName: name) }
        let found = try #require(ValueTransformer(forName: NSValueTransformerName(name.rawValue)))
        #expect(found.reverseTransformedValue("xy") as? Data == Data("yx".utf8))
    }
}

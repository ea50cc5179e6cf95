import ModelStore
import Testing

@testable import ModelObjects

/// The table of keys a save hands its new objects answers as a dictionary by identity would:
/// every identity set is found with its key through growth from empty, in the order added or any
/// other, an identity never set is not, setting one again replaces its key, and a merge adds only
/// identities not there already.
struct SaveKeysTests {
    /// Objects whose identities to key, allocated one after another as a save's new objects are.
    final class Token {}

    @Test func everyIdentityIsFoundWithItsKeyThroughGrowth() {
        let tokens = (0..<20_000).map { _ in Token() }
        var table = SaveKeys()
        #expect(table.isEmpty)
        #expect(table[ObjectIdentifier(tokens[0])] == nil)
        for (index, token) in tokens.enumerated() { table[ObjectIdentifier(token)] = ObjectKey(number: index % 3, key: Int64(index)) }
        #expect(table.count == tokens.count)
        // In the order they were added (each found where the last lookup left off), and in any other.
        for (index, token) in tokens.enumerated() {
            #expect(table[ObjectIdentifier(token)] == ObjectKey(number: index % 3, key: Int64(index)))
        }
        var generator = SystemRandomNumberGenerator()
        for index in tokens.indices.shuffled(using: &generator) + tokens.indices.reversed() {
            #expect(table[ObjectIdentifier(tokens[index])] == ObjectKey(number: index % 3, key: Int64(index)))
        }
        let others = (0..<1_000).map { _ in Token() }
        #expect(others.allSatisfy { table[ObjectIdentifier($0)] == nil })
        withExtendedLifetime((tokens, others)) {}
    }

    @Test func settingAnIdentityAgainReplacesItsKey() {
        let tokens = (0..<100).map { _ in Token() }
        var table = SaveKeys(minimumCapacity: 10)
        for token in tokens { table[ObjectIdentifier(token)] = ObjectKey(number: 1, key: 1) }
        for (index, token) in tokens.enumerated() { table[ObjectIdentifier(token)] = ObjectKey(number: 2, key: Int64(index)) }
        #expect(table.count == 100)
        for (index, token) in tokens.enumerated() { #expect(table[ObjectIdentifier(token)] == ObjectKey(number: 2, key: Int64(index))) }
        withExtendedLifetime(tokens) {}
    }

    @Test func aMergeKeepsTheTablesOwnKeys() {
        let tokens = (0..<300).map { _ in Token() }
        var first = SaveKeys(minimumCapacity: 200)
        var second = SaveKeys()
        for token in tokens[..<200] { first[ObjectIdentifier(token)] = ObjectKey(number: 1, key: 1) }
        for token in tokens[100...] { second[ObjectIdentifier(token)] = ObjectKey(number: 2, key: 2) }
        first.merge(second)
        #expect(first.count == 300)
        #expect(tokens[..<200].allSatisfy { first[ObjectIdentifier($0)] == ObjectKey(number: 1, key: 1) })
        #expect(tokens[200...].allSatisfy { first[ObjectIdentifier($0)] == ObjectKey(number: 2, key: 2) })
        withExtendedLifetime(tokens) {}
    }
}

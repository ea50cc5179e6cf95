import Foundation
import ModelStore
import Testing

/// `ZCOLUMNS` bit order: bit n counts from the most significant bit of the first byte. The
/// cases are the bitmaps of a store SwiftData (Core Data build 1345) wrote with updates in its
/// history (Documentation/History.md): on `Item` (craftingRecipe, name) an edit of the name is
/// 0x40, setting the crafting recipe 0x80; on `CraftingRecipe` (producedItem, producedItemCount,
/// requiredComponents) 0x80, 0x40 and 0x20.
struct ChangedColumnsTests {
    @Test(arguments: [
        ([0x80], [0]), ([0x40], [1]), ([0x20], [2]), ([0xC0], [0, 1]), ([0x00, 0x01], [15]), ([0x01, 0x80], [7, 8]), ([], []),
    ] as [([UInt8], [Int])])
    func positionsCountFromTheMostSignificantBit(_ bytes: [UInt8], _ positions: [Int]) {
        #expect(ChangedColumns.positions(in: Data(bytes), below: 16) == positions)
    }

    /// Bits past the entity's property count name nothing and are not decoded: a megabyte of
    /// set bits on a three-property entity is three positions, not eight million.
    @Test func positionsStopAtTheEntitysPropertyCount() {
        let bitmap = Data(repeating: 0xFF, count: 1 << 20)
        #expect(ChangedColumns.positions(in: bitmap, below: 3) == [0, 1, 2])
        #expect(ChangedColumns.positions(in: bitmap, below: 0) == [])
        #expect(ChangedColumns.positions(in: Data([0x01, 0x80]), below: 8) == [7])
    }
}

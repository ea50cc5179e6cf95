import Foundation

/// `ACHANGE.ZCOLUMNS`, the bitmap of an update's changed properties: bit *n* stands for the *n*th
/// property of the changed object's entity, its persistent attributes and relationships (to-manys
/// included) sorted by name, counted from the most significant bit of the first byte.
///
/// The order is settled on a store SwiftData (Core Data build 1345) wrote with update changes in
/// its history, where a two-property entity's updates carry 0x80 and 0x40 and never a low bit
/// (Documentation/History.md).
package enum ChangedColumns {
    /// The positions below `count` of the bits set in `bitmap`, lowest first: only the bytes
    /// that hold them are read, so a bitmap longer than its entity needs costs nothing more.
    package static func positions(in bitmap: Data, below count: Int) -> [Int] {
        var positions = [Int]()
        for (index, byte) in bitmap.prefix(max(count, 0) / 8 + 1).enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 && index * 8 + bit < count { positions.append(index * 8 + bit) }
        }
        return positions
    }
}

extension ChangedColumns {
    /// The bitmap with the bits at `positions` set, as many bytes as the highest one needs.
    package static func bitmap(_ positions: [Int]) -> Data {
        guard let highest = positions.max() else { return Data() }
        var bytes = [UInt8](repeating: 0, count: highest / 8 + 1)
        for position in positions { bytes[position / 8] |= 0x80 >> UInt8(position % 8) }
        return Data(bytes)
    }
}

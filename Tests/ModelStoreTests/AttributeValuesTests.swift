import Foundation
import ModelStore
import _ModelTestSupport
import Testing

/// An object's saved values come back as they were set: each of its own Swift type, with its
/// exact bits, whether kept as eight bytes or as itself.
struct AttributeValuesTests {
    @Test func everyValueComesBackOfItsTypeWithItsBits() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1234.000_000_1)
        let values: [Any?] = [
            Int64.min, Int32(-7), Int16(-32768), true, Double.nan, -0.0, Float(-1.5), date, nil, "text",
            Data([0, 1]), NSNumber(value: 5), 5 as Int, Decimal(string: "1.10")!, UUID(uuidString: "3B7E4C1A-0000-4000-8000-000000000001")!,
        ]
        let kept = AttributeValues(values)
        #expect(kept.count == values.count)
        #expect(kept[0] as? Int64 == Int64.min)
        #expect(kept[1] as? Int32 == -7)
        #expect(kept[2] as? Int16 == -32768)
        #expect(kept[3] as? Bool == true)
        #expect((kept[4] as? Double)?.bitPattern == Double.nan.bitPattern)
        #expect((kept[5] as? Double)?.bitPattern == (-0.0 as Double).bitPattern)
        #expect(kept[6] as? Float == -1.5)
        #expect(kept[7] as? Date == date)
        #expect(kept[8] == nil)
        #expect(kept[9] as? String == "text")
        #expect(kept[10] as? Data == Data([0, 1]))
        // A number of another type keeps its type: a bridged cast would have made these Int64s.
        #expect(type(of: try #require(kept[11])) == type(of: NSNumber(value: 5) as Any))
        #expect(type(of: try #require(kept[12])) == Int.self)
        #expect(kept[13] as? Decimal == Decimal(string: "1.10"))
        #expect(kept[14] as? UUID == UUID(uuidString: "3B7E4C1A-0000-4000-8000-000000000001"))
        #expect(type(of: try #require(kept[0])) == Int64.self)
        #expect(type(of: try #require(kept[7])) == Date.self)
    }

    @Test func aSlotTakesValuesOfAnyKindInTurn() {
        var values = AttributeValues(nils: 9)
        #expect(values.allSatisfy { $0 == nil })
        values[8] = "first"
        values[8] = Int64(3)
        values[8] = "second"
        values[8] = nil
        values[0] = "zero"
        #expect(values[8] == nil)
        #expect(values[0] as? String == "zero")
        values[8] = Decimal(2)
        #expect(values[8] as? Decimal == Decimal(2))
        #expect(values[0] as? String == "zero")
        // A copy is a value: changing it leaves the original as it was.
        var copy = values
        copy[0] = Int64(1)
        #expect(values[0] as? String == "zero")
        #expect(copy[0] as? Int64 == 1)
    }

    @Test func slotsBeyondTheFirstWordOfKindsKeepTheirKinds() throws {
        // Eight kinds share a word: 40 slots take five, each slot a different kind in turn.
        let date = Date(timeIntervalSinceReferenceDate: 99)
        let samples: [Any?] = [Int64(-1), Int32(2), Int16(3), false, 4.5, Float(5.5), date, "six", Data([7]), nil, NSNumber(value: 11)]
        let values = AttributeValues((0..<40).map { samples[$0 % samples.count] })
        #expect(values.count == 40)
        for slot in 0..<40 {
            let expected = samples[slot % samples.count]
            let kept = values[slot]
            if let expected {
                let value = try #require(kept)
                #expect(type(of: value) == type(of: expected), "slot \(slot)")
                #expect(String(describing: value) == String(describing: expected), "slot \(slot)")
            } else {
                #expect(kept == nil, "slot \(slot)")
            }
        }
        #expect(AttributeValues(nils: 0).isEmpty)
        #expect(AttributeValues(nils: 17).allSatisfy { $0 == nil })
    }

    @Test func valuesOfEverySizeCountTheirSlots() {
        // Every size up to entities far wider than a table can hold gives its count back, the
        // last slot usable.
        for count in 0...2_000 {
            var values = AttributeValues(nils: count)
            #expect(values.count == count)
            guard count > 0 else { continue }
            values[count - 1] = "last"
            values.set(Int64(count), at: 0)
            #expect(values[count - 1] as? String == (count == 1 ? nil : "last"))
            #expect(values.scalar(at: 0).map { "\($0.value)" } == "\(count)")
        }
    }

    @Test(arguments: Array(1...40) + [0x7FFE, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF, 0x1_0000])
    func everySlotKeepsItsOwnKindAndWordBesideTheCount(count: Int) {
        // The count and the kinds share the first words: setting every slot, each to a kind and
        // bits of its own, must leave the count and every other slot as they were, at the sizes
        // where the kinds take one more word, and where the count no longer fits sixteen bits.
        var values = AttributeValues(nils: count)
        let expected = Self.fillInTurn(&values, [{ Int64(-$0) }, { Double($0) + 0.5 }, { $0.isMultiple(of: 2) }])
        #expect(values.count == count)
        let copy = values
        values.set(Int16(7), at: count - 1)
        var wrong = 0
        for slot in 0..<count {
            if copy[slot].map({ "\($0)" }) != expected[slot] { wrong += 1 }
            if slot < count - 1, values[slot].map({ "\($0)" }) != expected[slot] { wrong += 1 }
        }
        #expect(wrong == 0)
        // The copy kept its own words when the original changed.
        #expect(values[count - 1] as? Int16 == 7)
        #expect(copy.count == count)
    }

    @Test func randomChangesGiveWhatAnArrayOfTheSameValuesGives() {
        // Values of every kind set, cleared and copied at random, into rows of sizes on both
        // sides of each word of kinds, and copies taken along the way: each read must give what
        // a plain array given the same changes gives, and a copy what it held when taken.
        var generator = TestSeed.generator(for: "randomChangesGiveWhatAnArrayOfTheSameValuesGives")
        func randomValue() -> Any? {
            switch Int.random(in: 0..<9, using: &generator) {
            case 0: nil
            case 1: Int64.random(in: .min ... .max, using: &generator)
            case 2: Int32.random(in: .min ... .max, using: &generator)
            case 3: Int16.random(in: .min ... .max, using: &generator)
            case 4: Bool.random(using: &generator)
            case 5: Double(bitPattern: UInt64.random(in: 0 ... .max, using: &generator) & ~(0x7FF << 52))
            case 6: "s\(Int.random(in: 0..<1_000, using: &generator))"
            case 7: Data([UInt8.random(in: 0 ... 255, using: &generator)])
            default: Decimal(Int.random(in: -99...99, using: &generator))
            }
        }
        func same(_ kept: Any?, _ expected: Any?) -> Bool {
            guard let kept, let expected else { return kept == nil && expected == nil }
            return type(of: kept) == type(of: expected) && String(describing: kept) == String(describing: expected)
        }
        var wrong = [String]()
        for count in [1, 2, 11, 12, 13, 27, 28, 29, 44, 45, 70] {
            var values = AttributeValues(nils: count)
            var model = [Any?](repeating: nil, count: count)
            var snapshots = [(AttributeValues, [Any?])]()
            for step in 0..<400 {
                let slot = Int.random(in: 0..<count, using: &generator)
                switch Int.random(in: 0..<10, using: &generator) {
                case 0:
                    snapshots.append((values, model))
                case 1:
                    let source = AttributeValues(model.indices.map { _ in randomValue() })
                    values.copySlot(slot, from: source)
                    model[slot] = source[slot]
                default:
                    let value = randomValue()
                    values[slot] = value
                    model[slot] = value
                }
                let mismatches = (0..<count).filter { !same(values[$0], model[$0]) }
                if values.count != count || !mismatches.isEmpty {
                    wrong.append("\(count) slots, step \(step): count \(values.count), slots \(mismatches)")
                }
            }
            for (index, (copy, held)) in snapshots.enumerated() where !(0..<count).allSatisfy({ same(copy[$0], held[$0]) }) {
                wrong.append("\(count) slots: copy \(index) changed")
            }
            #expect(values.keptValueCount <= 2 * count)
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test func stringsAndOtherValuesTakeSlotsFromEachOther() {
        // A string is kept apart from values of other types (and an NSString among those): a
        // slot moving between them gives back what it was given last, of that type.
        var values = AttributeValues(nils: 2)
        values[0] = "text"
        values[1] = NSString(string: "bridged")
        #expect(values.string(at: 0) == "text")
        #expect(values.string(at: 1) == nil)
        #expect(values[1] is NSString)
        values[0] = Data([1])
        values[1] = "now a string"
        #expect(values.string(at: 0) == nil)
        #expect(values[0] as? Data == Data([1]))
        #expect(values.string(at: 1) == "now a string")
        values.set("set typed", at: 0)
        #expect(values[0] as? String == "set typed")
        #expect(values.keptValueCount <= 2 * values.count)
    }

    @Test func settingSlotsAgainAndAgainKeepsNoMoreValuesThanSlots() {
        var values = AttributeValues(nils: 3)
        values[2] = "last"
        for round in 0..<1_000 {
            // Slot 0 goes from a string to nil or to a number, and back, leaving its string behind each time.
            values[0] = "round \(round)"
            values[0] = round.isMultiple(of: 2) ? nil : Int64(round)
            values[1] = "one \(round)"
            #expect(values.keptValueCount <= 3)
        }
        values[0] = "zero"
        #expect(values[0] as? String == "zero")
        #expect(values[1] as? String == "one 999")
        #expect(values[2] as? String == "last")
    }

    @Test func aCopiedSlotKeepsItsValueItsTypeAndTheOtherSlots() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1234.5)
        let source: [Any?] = [Int64(-9), Int32(8), Int16(-7), true, -0.0, Float(2.5), date, "text", Data([1, 2]), nil, NSNumber(value: 5), 5 as Int]
        let from = AttributeValues(source)
        // Each slot held a value of another kind first, a string or another value among them, so
        // that a copy must replace what a slot kept, not add beside it.
        var into = AttributeValues(source.indices.map { $0.isMultiple(of: 2) ? "before \($0)" : Decimal($0) as Any? })
        for slot in source.indices { into.copySlot(slot, from: from) }
        #expect(into[0] as? Int64 == -9)
        #expect(into[1] as? Int32 == 8)
        #expect(into[2] as? Int16 == -7)
        #expect(into[3] as? Bool == true)
        #expect((into[4] as? Double)?.bitPattern == (-0.0 as Double).bitPattern)
        #expect(into[5] as? Float == 2.5)
        #expect(into[6] as? Date == date)
        #expect(into[7] as? String == "text")
        #expect(into[8] as? Data == Data([1, 2]))
        #expect(into[9] == nil)
        #expect(type(of: try #require(into[10])) == type(of: NSNumber(value: 5) as Any))
        #expect(type(of: try #require(into[11])) == Int.self)
        // Copied again and again, the slots keep no more values than they hold.
        for _ in 0..<50 { for slot in source.indices { into.copySlot(slot, from: from) } }
        #expect(into.keptValueCount <= 2 * into.count)
        #expect(into[7] as? String == "text")
    }

    /// Sets each slot of `values` to a value of its own, made by `kinds` in turn from the slot's
    /// number, and gives the text each reads back as.
    static func fillInTurn(_ values: inout AttributeValues, _ kinds: [(Int) -> Any]) -> [String] {
        (0..<values.count).map { slot in
            let value = kinds[slot % kinds.count](slot)
            values[slot] = value
            return "\(value)"
        }
    }

    /// Keys a to-one may hold: any entity number and any key, a new object's negative one too.
    static let sampleKeys: [ObjectKey?] = [
        ObjectKey(number: 3, key: 42), nil, ObjectKey(number: Int(Int64.min), key: -1), ObjectKey(number: -1, key: Int64.max),
        ObjectKey(number: 0, key: 0),
    ]

    @Test(arguments: [
        (0, 1), (1, 0), (4, 1), (10, 1), (10, 3), (12, 2), (13, 1), (3, 127), (3, 128), (0x7FFC, 1), (0x7FFD, 1), (0x7FFE, 1), (0x8000, 2),
    ])
    func toOnesSitAfterTheAttributesAndLeaveThemAsTheyWere(attributes count: Int, toOnes: Int) {
        // The to-ones' keys take the last slots, their number beside the count, in as few bits as
        // fit: each size puts the kinds where another form of the count ends.
        var values = AttributeValues(nils: count, toOnes: toOnes, strings: 1, others: 1)
        let expected = Self.fillInTurn(&values, [{ Int64($0) }, { "s\($0)" }, { Data([UInt8($0 & 0xFF)]) }])
        for index in 0..<toOnes { values.setToOne(Self.sampleKeys[index % Self.sampleKeys.count], at: index) }
        let copy = values
        if toOnes > 0 { values.setToOne(ObjectKey(number: 9, key: 9), at: toOnes - 1) }
        #expect(values.count == count)
        #expect(values.toOneCount == toOnes)
        #expect(values.toOne(at: toOnes) == nil)
        #expect(values.toOne(at: -1) == nil)
        var wrong = 0
        for slot in 0..<count where values[slot].map({ "\($0)" }) != expected[slot] || copy[slot].map({ "\($0)" }) != expected[slot] {
            wrong += 1
        }
        for index in 0..<toOnes {
            let expected = Self.sampleKeys[index % Self.sampleKeys.count]
            if copy.toOne(at: index) != expected { wrong += 1 }
            if values.toOne(at: index) != (index == toOnes - 1 ? ObjectKey(number: 9, key: 9) : expected) { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(copy.toOnes.count == toOnes)
    }

    @Test func anotherNumberOfToOnesKeepsTheAttributesAndTheirStrings() {
        // A new object's values, made without to-ones, take them when it is saved; a row read
        // before a model change may keep another number. The attributes stay as they were, a copy
        // taken before keeps what it had.
        var values: AttributeValues = [Int64(1), "two", Data([3]), nil, 5.5]
        let before = values
        values.setToOnes([ObjectKey(number: 2, key: 7), nil, ObjectKey(number: 4, key: -3)])
        #expect(values.toOnes == [ObjectKey(number: 2, key: 7), nil, ObjectKey(number: 4, key: -3)])
        values.setToOnes([nil])
        #expect(values.toOnes == [nil])
        values[1] = "changed"
        values.setToOnes([])
        #expect(values.toOneCount == 0)
        #expect(values.count == 5)
        #expect(values[0] as? Int64 == 1)
        #expect(values[1] as? String == "changed")
        #expect(values[2] as? Data == Data([3]))
        #expect(values[3] == nil)
        #expect(values[4] as? Double == 5.5)
        #expect(before[1] as? String == "two")
        #expect(before.toOneCount == 0)
    }
}

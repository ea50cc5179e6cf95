import ModelStore
import Testing

/// A set of row slots holds slots on both sides of the first word's 64, lists them in order, and
/// is equal to (and hashes as) any set of the same slots, however it was made.
struct SlotSetTests {
    @Test func slotsPastTheFirstWordAreKeptAndListedInOrder() {
        var set = SlotSet()
        #expect(set.isEmpty)
        for slot in [200, 3, 64, 63, 0, 127, 128] { set.insert(slot) }
        var listed = [Int]()
        set.forEach { listed.append($0) }
        #expect(listed == [0, 3, 63, 64, 127, 128, 200])
        #expect(set.contains(128) && !set.contains(129) && !set.contains(1_000))
        set.remove(128)
        set.remove(5_000)
        #expect(!set.contains(128) && set.contains(127))
    }

    @Test func everySlotBelowACountIsInTheSetOfAll() {
        for count in [0, 1, 63, 64, 65, 128, 129] {
            var listed = [Int]()
            SlotSet(all: count).forEach { listed.append($0) }
            #expect(listed == Array(0..<count), "count \(count)")
        }
    }

    @Test func setsOfTheSameSlotsAreEqualHoweverTheyWereMade() {
        var widened = SlotSet()
        widened.insert(5)
        widened.insert(150)
        widened.remove(150)
        var narrow = SlotSet()
        narrow.insert(5)
        #expect(widened == narrow)
        #expect(widened.hashValue == narrow.hashValue)
        #expect(Set([widened, narrow]).count == 1)
        var emptied = SlotSet()
        emptied.insert(70)
        emptied.remove(70)
        #expect(emptied.isEmpty)
        #expect(emptied == SlotSet())
        narrow.insert(70)
        #expect(narrow != widened)
    }
}

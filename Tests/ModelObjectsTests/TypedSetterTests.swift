import Foundation
import ModelObjects
import ModelStack
import Observation
import Testing
import _ModelTestSupport

/// A model with an attribute of each type kept as its bits, written as an Xcode model into a
/// test's folder, for the typed setters' tests.
enum GaugeModel {
    static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Gauge" representedClassName="Gauge" syncable="YES">
                <attribute name="wide" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="middle" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="narrow" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="on" optional="YES" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                <attribute name="ratio" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="weight" optional="YES" attributeType="Float" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="at" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="label" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    /// A loaded container of the model on a new store in `folder`.
    static func container(in folder: URL) async throws -> PersistentContainer {
        let model = folder.appendingPathComponent("Gauges.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try contents.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return try await ContextTestSupport.container(model.path, in: folder)
    }
}

/// The class `modelc generate` would write for `Gauge`, its properties reading and writing
/// through `ManagedPropertyKey`s; `count` is declared `Int`, as `@Managed` allows for an Integer 64.
final class Gauge: ManagedObject {
    enum Keys {
        static let wide = ManagedPropertyKey("wide")
        static let middle = ManagedPropertyKey("middle")
        static let narrow = ManagedPropertyKey("narrow")
        static let on = ManagedPropertyKey("on")
        static let ratio = ManagedPropertyKey("ratio")
        static let weight = ManagedPropertyKey("weight")
        static let at = ManagedPropertyKey("at")
        static let label = ManagedPropertyKey("label")
    }
    var wide: Int64 { get { managedValue(for: Keys.wide, as: Int64.self) ?? 0 } set { setValue(newValue, for: Keys.wide) } }
    var count: Int { get { managedValue(for: Keys.wide, as: Int.self) ?? 0 } set { setValue(newValue, for: Keys.wide) } }
    var middle: Int32 { get { managedValue(for: Keys.middle, as: Int32.self) ?? 0 } set { setValue(newValue, for: Keys.middle) } }
    var narrow: Int16 { get { managedValue(for: Keys.narrow, as: Int16.self) ?? 0 } set { setValue(newValue, for: Keys.narrow) } }
    var narrowAsInt: Int { get { managedValue(for: Keys.narrow, as: Int.self) ?? 0 } set { setValue(newValue, for: Keys.narrow) } }
    var on: Bool { get { managedValue(for: Keys.on, as: Bool.self) ?? false } set { setValue(newValue, for: Keys.on) } }
    var ratio: Double { get { managedValue(for: Keys.ratio, as: Double.self) ?? 0 } set { setValue(newValue, for: Keys.ratio) } }
    var weight: Float { get { managedValue(for: Keys.weight, as: Float.self) ?? 0 } set { setValue(newValue, for: Keys.weight) } }
    var at: Date? { get { managedValue(for: Keys.at, as: Date.self) } set { setValue(newValue, for: Keys.at) } }
    var label: String? { get { managedValue(for: Keys.label, as: String.self) } set { setValue(newValue, for: Keys.label) } }
}

/// The typed setters (`setValue(_:for:)` with a number, boolean or date of the property's type,
/// what generated accessors call) hand a value to the object as itself: what the object then
/// holds, saves and gives back must be what `setValue(_:forKey:)` makes of the same value, down
/// to the Swift type, and the change must be an ordinary one (announced, undoable, saved).
struct TypedSetterTests {
    static let moment = Date(timeIntervalSinceReferenceDate: 123_456.789_012)

    /// Sets every property of a new gauge through its typed setter, another through
    /// `setValue(_:forKey:)` with the same values.
    static func setBothWays(_ context: ManagedObjectContext) -> (typed: Gauge, keyed: Gauge) {
        let typed = Gauge(context: context)
        typed.wide = .min
        typed.middle = -7
        typed.narrowAsInt = 70_000
        typed.on = true
        typed.ratio = -0.0
        typed.weight = 1.5
        typed.at = moment
        typed.label = "dial"
        let keyed = Gauge(context: context)
        let values: [String: Any] = [
            "wide": Int64.min, "middle": Int32(-7), "narrow": 70_000, "on": true, "ratio": -0.0, "weight": Float(1.5), "at": moment, "label": "dial",
        ]
        for (key, value) in values { keyed.setValue(value, forKey: key) }
        return (typed, keyed)
    }

    static let keys = ["wide", "middle", "narrow", "on", "ratio", "weight", "at", "label"]

    /// The value of `key` as `value(forKey:)` gives it, with its Swift type.
    static func described(_ object: ManagedObject, _ key: String) -> String {
        guard let value = object.value(forKey: key) else { return "nil" }
        return "\(type(of: value)) \(value)"
    }

    @Test func aTypedSetterHoldsWhatSetValueForKeyHolds() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await GaugeModel.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let (typed, keyed) = Self.setBothWays(context)
            for key in Self.keys { #expect(Self.described(typed, key) == Self.described(keyed, key), "\(key)") }
            // Each value in the attribute's own type; an Int for an Integer 16 truncated as Core Data truncates it.
            #expect(typed.value(forKey: "wide") as? Int64 == .min)
            #expect(typed.value(forKey: "narrow") as? Int16 == Int16(truncatingIfNeeded: 70_000))
            #expect(typed.value(forKey: "weight") as? Float == 1.5)
            #expect((typed.value(forKey: "ratio") as? Double)?.sign == .minus)
            #expect(typed.changedValues().count == 8)
            try context.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let gauges = try reader.fetch(FetchRequest<Gauge>(entityName: "Gauge"))
            #expect(gauges.count == 2)
            for key in Self.keys { #expect(Self.described(gauges[0], key) == Self.described(gauges[1], key), "\(key)") }
            #expect(gauges.allSatisfy { $0.wide == .min && $0.middle == -7 && $0.on && $0.weight == 1.5 && $0.at == Self.moment })
        }
    }

    @Test func aValueOfAnotherTypeIsConvertedAsSetValueForKeyConvertsIt() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await GaugeModel.container(in: folder.url)
        let context = container.newBackgroundContext()
        context.performAndWait {
            let typed = Gauge(context: context)
            let keyed = Gauge(context: context)
            typed.setValue(3.9, for: Gauge.Keys.wide)
            keyed.setValue(3.9, forKey: "wide")
            typed.setValue(Int64(1), for: Gauge.Keys.ratio)
            keyed.setValue(Int64(1), forKey: "ratio")
            typed.setValue(Int32(2), for: Gauge.Keys.on)
            keyed.setValue(Int32(2), forKey: "on")
            for key in Self.keys { #expect(Self.described(typed, key) == Self.described(keyed, key), "\(key)") }
            #expect(typed.value(forKey: "wide") as? Int64 == 3)
            #expect(typed.value(forKey: "ratio") as? Double == 1)
            // A nil through a typed optional clears the value.
            typed.at = Self.moment
            typed.at = nil
            #expect(typed.value(forKey: "at") == nil)
            typed.count = 42
            #expect(typed.wide == 42 && typed.count == 42)
        }
    }

    @Test func aTypedChangeOfASavedObjectIsAnnouncedUndoableAndSaved() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await GaugeModel.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let gauge = Gauge(context: context)
            gauge.wide = 1
            try context.save()
            context.undoManager = UndoManager()
            let changes = ObservationTests.Changes()
            _ = withObservationTracking { gauge.wide } onChange: { changes.note() }
            gauge.wide = 2
            #expect(changes.seen == 1)
            #expect(gauge.isUpdated)
            context.undoManager?.undo()
            #expect(gauge.wide == 1)
            gauge.wide = 3
            try context.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let gauges = try reader.fetch(FetchRequest<Gauge>(entityName: "Gauge"))
            #expect(gauges.map(\.wide) == [3])
        }
    }

    @Test func settingOneStringAgainAndAgainKeepsEveryValue() async throws {
        let folder = try StackFolder()
        defer { folder.remove() }
        let container = try await GaugeModel.container(in: folder.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let gauge = Gauge(context: context)
            for round in 1...1_000 {
                gauge.label = round % 3 == 0 ? nil : "round \(round)"
                gauge.wide = Int64(round)
            }
            #expect(gauge.label == "round 1000")
            try context.save()
            gauge.label = nil
            gauge.label = "after"
            #expect(gauge.label == "after" && gauge.wide == 1_000)
        }
    }
}

import CoreData
import Foundation
import Testing
import _ModelTestSupport

/// A garage model written as Xcode writes one, for classes declared with `@Managed` as Core Data
/// code declares them with `@NSManaged`.
enum GarageModel {
    static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Vehicle" representedClassName="Vehicle" syncable="YES">
                <attribute name="plate" attributeType="String"/>
                <attribute name="model" optional="YES" attributeType="String"/>
                <attribute name="seats" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="mileage" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="price" optional="YES" attributeType="Decimal" defaultValueString="0.0"/>
                <attribute name="weight" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="NO"/>
                <attribute name="electric" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                <attribute name="registered" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="vin" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
                <attribute name="manual" optional="YES" attributeType="URI"/>
                <attribute name="photo" optional="YES" attributeType="Binary"/>
                <attribute name="speed" optional="YES" transient="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Driver" inverseName="vehicles" inverseEntity="Driver"/>
                <relationship name="garage" maxCount="1" deletionRule="Nullify" destinationEntity="Garage" inverseName="vehicles" inverseEntity="Garage"/>
            </entity>
            <entity name="Driver" representedClassName="Driver" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="fleet" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Fleet" inverseName="drivers" inverseEntity="Fleet"/>
                <relationship name="vehicles" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Vehicle" inverseName="owner" inverseEntity="Vehicle"/>
            </entity>
            <entity name="Fleet" representedClassName="Fleet" syncable="YES">
                <relationship name="drivers" toMany="YES" deletionRule="Nullify" destinationEntity="Driver" inverseName="fleet" inverseEntity="Driver"/>
            </entity>
            <entity name="Garage" representedClassName="Garage" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="vehicles" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Vehicle" inverseName="garage" inverseEntity="Vehicle"/>
            </entity>
        </model>
        """

    /// A loaded container for the garage model, in memory.
    static func container(in folder: URL) async throws -> PersistentContainer {
        let model = try writeFile("Garage.xcdatamodel/contents", contents, in: folder)
        let container = try PersistentContainer(name: "Garage", model: model.deletingLastPathComponent())
        container.persistentStoreDescriptions = [StoreDescription(url: folder.appendingPathComponent("Garage.sqlite"))]
        try await container.loadPersistentStores()
        return container
    }

    /// Runs `body` with a loaded container for the garage model in a new temporary folder,
    /// removed with its store afterwards.
    static func withContainer<Result>(_ body: (PersistentContainer) async throws -> Result) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-garage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(container(in: folder))
    }
}

// The classes as a developer writes them for Core Data (CoreDataPlus's test model declares its
// classes so: a class with @NSManaged properties, `String!`, `private(set)`, a transient scalar),
// with `@NSManaged` renamed and the `@objc(Name)` lines deleted.

public class Vehicle: NSManagedObject {
    @Managed public var plate: String!
    @Managed public var model: String?
    @Managed public var seats: Int16
    @Managed public var mileage: Int
    @Managed public var price: NSDecimalNumber?
    @Managed public var weight: NSNumber?
    @Managed public var electric: Bool
    @Managed public private(set) var registered: Date?
    @Managed public var vin: UUID?
    @Managed public var manual: URL?
    @Managed public var photo: Data?
    @Managed public var speed: Int
    @Managed public var owner: Driver?
    @Managed public var garage: Garage

    /// Sets the registration date, which is read-only outside the class.
    func register(on date: Date) { registered = date }
}

// Xcode's Class Definition codegen writes properties and accessors in extensions
// (`Driver+CoreDataProperties.swift`).
public class Driver: NSManagedObject {}

extension Driver {
    @nonobjc public class func fetchRequest() -> NSFetchRequest<Driver> {
        return NSFetchRequest<Driver>(entityName: "Driver")
    }

    @Managed public var name: String
    @Managed public var vehicles: NSSet?
}

// MARK: Generated accessors for vehicles
extension Driver {
    @ManagedAccessor public func addToVehicles(_ value: Vehicle)

    @ManagedAccessor public func removeFromVehicles(_ value: Vehicle)

    @ManagedAccessor public func addToVehicles(_ values: NSSet)

    @ManagedAccessor public func removeFromVehicles(_ values: NSSet)
}

/// A to-many declared as a Swift `Set`, which `@NSManaged` bridges from the relationship's `NSSet`.
public class Fleet: NSManagedObject {
    @Managed public var drivers: Set<Driver>
}

public class Garage: NSManagedObject {}

extension Garage {
    @Managed public var name: String?
    @Managed public var vehicles: NSOrderedSet?
}

// MARK: Generated accessors for vehicles
extension Garage {
    @ManagedAccessor public func insertIntoVehicles(_ value: Vehicle, at idx: Int)

    @ManagedAccessor public func removeFromVehicles(at idx: Int)

    @ManagedAccessor public func insertIntoVehicles(_ values: [Vehicle], at indexes: NSIndexSet)

    @ManagedAccessor public func removeFromVehicles(at indexes: NSIndexSet)

    @ManagedAccessor public func replaceVehicles(at idx: Int, with value: Vehicle)

    @ManagedAccessor public func replaceVehicles(at indexes: NSIndexSet, with values: [Vehicle])

    @ManagedAccessor public func addToVehicles(_ value: Vehicle)

    @ManagedAccessor public func removeFromVehicles(_ value: Vehicle)

    @ManagedAccessor public func addToVehicles(_ values: NSOrderedSet)

    @ManagedAccessor public func removeFromVehicles(_ values: NSOrderedSet)
}

/// `@Managed` classes used as an app uses its `@NSManaged` ones: typed reads and writes, scalars
/// that read 0 or false when unset, relationships changed through generated accessors, saved and
/// fetched back through another container.
struct ManagedMacroUseTests {
    @Test func managedPropertiesSaveAndFetchAsTheirTypes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-macro-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let container = try await GarageModel.container(in: folder)
        let context = container.newBackgroundContext()
        let registered = Date(timeIntervalSince1970: 1_700_000_000)
        let vin = UUID()
        try context.performAndWait {
            let garage = Garage(context: context)
            garage.name = "North"
            let driver = Driver(context: context)
            driver.name = "Ada"
            let car = Vehicle(context: context)
            // Unset scalars read as 0 and false, unset objects as nil, as with @NSManaged.
            #expect(car.mileage == 0)
            #expect(car.electric == false)
            #expect(car.model == nil)
            car.plate = "AB-123"
            car.seats = 5
            car.mileage = 120_000
            car.price = NSDecimalNumber(string: "19999.5")
            #expect(car.price == NSDecimalNumber(string: "19999.5"))
            car.weight = 1_250.5
            car.electric = true
            car.register(on: registered)
            car.vin = vin
            car.manual = URL(string: "https://example.com/manual.pdf")
            car.photo = Data([1, 2, 3])
            car.speed = 88
            car.garage = garage
            let van = Vehicle(context: context)
            van.plate = "CD-456"
            van.garage = garage
            driver.addToVehicles(car)
            driver.addToVehicles(NSSet(object: van))
            driver.removeFromVehicles(van)
            #expect(car.owner === driver)
            #expect(van.owner == nil)
            #expect(car.speed == 88)
            #expect(garage.vehicles?.array.count == 2)
            let fleet = Fleet(context: context)
            #expect(fleet.drivers.isEmpty)
            fleet.drivers = [driver]
            #expect(fleet.drivers == [driver])
            try context.save()
        }
        let second = try await GarageModel.container(in: folder)
        let reader = second.newBackgroundContext()
        try withExtendedLifetime(second) { try reader.performAndWait {
            let drivers = try reader.fetch(Driver.fetchRequest())
            let driver = try #require(drivers.first)
            #expect(driver.name == "Ada")
            #expect(try reader.fetch(FetchRequest<Fleet>(entityName: "Fleet")).first?.drivers == [driver])
            let car = try #require(driver.vehicles?.anyObject() as? Vehicle)
            #expect(driver.vehicles?.count == 1)
            #expect(car.plate == "AB-123")
            #expect(car.seats == 5)
            #expect(car.mileage == 120_000)
            #expect(car.price == NSDecimalNumber(string: "19999.5"))
            #expect(car.weight == 1_250.5)
            #expect(car.electric)
            #expect(car.registered == registered)
            #expect(car.vin == vin)
            #expect(car.manual == URL(string: "https://example.com/manual.pdf"))
            #expect(car.photo == Data([1, 2, 3]))
            // A transient is not saved: a fetched object reads it as 0.
            #expect(car.speed == 0)
            #expect(car.garage.name == "North")
            #expect(car.garage.vehicles?.count == 2)
        } }
        withExtendedLifetime(container) {}
    }
}

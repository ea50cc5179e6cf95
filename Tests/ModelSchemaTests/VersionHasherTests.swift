import ModelSchema
import Testing

/// The hasher on models built in code, against values Apple wrote into real stores (the test
/// vectors of FORMATS.md §5.8, read from `CoreDataMigration_Example_1.sqlite` and
/// `SampleModel2_V1.sqlite`).
struct VersionHasherTests {
    /// wibosco's `Post`: three optional attributes; Apple's `NSStoreModelVersionHashes.Post`.
    static let post = ModelVersion(
        name: "CoreDataMigration_Example", path: "contents",
        entities: [
            Entity(
                name: "Post",
                attributes: [
                    Attribute(name: "color", type: .string, isOptional: true),
                    Attribute(name: "date", type: .date, isOptional: true),
                    Attribute(name: "postID", type: .string, isOptional: true),
                ])
        ])

    @Test func entityHashMatchesTheOneCoreDataStoredForPost() {
        let hashes = VersionHasher(Self.post).entityHashes()
        #expect(hashes["Post"]?.hex == "b9f1d1b43446f1ad118ca4a03e226e05f98c899c98b524c13f02f6514ded5e80")
    }

    @Test func checksumOfAOneEntityModelIsTheSha256OfItsHash() {
        #expect(VersionHasher(Self.post).versionChecksum() == "a+8jCKAKKwc9kGZsnEGCjO2xVIIxBAiRd/5T6wHi9c4=")
    }

    @Test func renamingIdentifiersUserInfoAndDeleteRulesDoNotChangeHashes() {
        var changed = Self.post
        changed.entities[0].renamingIdentifier = "OldPost"
        changed.entities[0].userInfo = [UserInfoEntry(key: "k", value: "v")]
        changed.entities[0].attributes[0].renamingIdentifier = "colour"
        changed.entities[0].attributes[1].defaultValueString = "0"
        changed.entities[0].representedClassName = "PostMO"
        #expect(VersionHasher(changed).entityHashes() == VersionHasher(Self.post).entityHashes())
    }

    @Test func transientAndFetchedPropertiesAreLeftOut() {
        var changed = Self.post
        changed.entities[0].attributes.append(Attribute(name: "cache", type: .string, isOptional: true, isTransient: true))
        changed.entities[0].fetchedProperties.append(
            FetchedProperty(name: "related", fetchRequest: FetchRequestTemplate(name: "r", entityName: "Post")))
        #expect(VersionHasher(changed).entityHashes() == VersionHasher(Self.post).entityHashes())
    }

    @Test func optionalityTypeAndModifiersChangeHashes() {
        let base = VersionHasher(Self.post).entityHashes()["Post"]
        var required = Self.post
        required.entities[0].attributes[0].isOptional = false
        var retyped = Self.post
        retyped.entities[0].attributes[0].type = .uri
        var modified = Self.post
        modified.entities[0].versionHashModifier = "2"
        for variant in [required, retyped, modified] {
            #expect(VersionHasher(variant).entityHashes()["Post"] != base)
        }
    }

    @Test func aSelfInverseRelationshipLeavesItsInverseNameOut() {
        func model(inverse: String?) -> ModelVersion {
            ModelVersion(
                name: "M", path: "contents",
                entities: [
                    Entity(
                        name: "Person",
                        relationships: [
                            Relationship(
                                name: "friends", isOptional: true, isToMany: true, destinationEntityName: "Person",
                                inverseName: inverse, inverseEntityName: inverse == nil ? nil : "Person")
                        ])
                ])
        }
        // A relationship that is its own inverse hashes as if it had none (style 0).
        #expect(VersionHasher(model(inverse: "friends")).entityHashes() == VersionHasher(model(inverse: nil)).entityHashes())
    }

    @Test func derivedAttributesHashTheCanonicalExpressionText() {
        func model(_ expression: String, name: String) -> ModelVersion {
            ModelVersion(
                name: "M", path: "contents",
                entities: [
                    Entity(
                        name: "Folder",
                        attributes: [
                            Attribute(name: name, type: .integer64, isOptional: true, isDerived: true, derivationExpression: expression)
                        ])
                ])
        }
        // `breads.@count` is stored as `count:(breads)`; the attribute's name is not hashed.
        #expect(
            VersionHasher(model("breads.@count", name: "a")).entityHashes()
                == VersionHasher(model("count:(breads)", name: "b")).entityHashes())
    }

    @Test func hashesDigestCoversNamesAndHashesInNameOrder() {
        let digest = VersionHasher(Self.post).hashesDigest()
        #expect(digest.count == 88)
        var renamed = Self.post
        renamed.entities[0].name = "Article"
        #expect(VersionHasher(renamed).hashesDigest() != digest)
    }

    @Test func ofDuplicatePropertyNamesTheLastDeclaredCounts() {
        var duplicated = Self.post
        duplicated.entities[0].attributes.append(Attribute(name: "color", type: .uri, isOptional: true))
        var replaced = Self.post
        replaced.entities[0].attributes[0].type = .uri
        #expect(VersionHasher(duplicated).entityHashes() == VersionHasher(replaced).entityHashes())
    }
}

/// The name order of archives and version hashes, against the UTF-16 order it stands for.
struct NameOrderTests {
    static let names = [
        "postID", "Post", "post", "postIDs", "", "a", "é", "\u{E000}", "\u{1F600}", "\u{FFFD}x",
        "account0001", "account0001s", "account00010000000", "account00010000001", "zeta", "Zeta",
    ]

    @Test func precedesOrdersByUTF16CodeUnits() {
        for lhs in Self.names {
            for rhs in Self.names {
                #expect(NameOrder.precedes(lhs, rhs) == lhs.utf16.lexicographicallyPrecedes(rhs.utf16), "\(lhs) \(rhs)")
            }
        }
    }

    @Test func sortedPositionsSortByNameThenPosition() {
        let names = Self.names + ["post", "a", "\u{E000}"]
        let expected = names.indices.sorted { a, b in
            names[a].utf16.lexicographicallyPrecedes(names[b].utf16)
                || (a < b && !names[b].utf16.lexicographicallyPrecedes(names[a].utf16))
        }
        #expect(NameOrder.sortedPositions(of: names) == expected)
    }
}

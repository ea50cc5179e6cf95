import ModelSchema

/// Attributes and relationships of an Xcode 3 `elements` archive (`XDPMAttribute`,
/// `XDPMRelationship`), read from their stereotype settings (``Xcode3Stereotypes``).
enum Xcode3Properties {
    /// The settings every property has (`XD_PPSK_…`), applied by the caller.
    private struct Common {
        var isOptional: Bool
        var isTransient: Bool
        var isIndexed: Bool
        var isIndexedBySpotlight: Bool
        var isStoredInTruthFile: Bool
        var renamingIdentifier: String?
        var versionHashModifier: String?
        var userInfo: UserInfo

        init(_ settings: Xcode3Stereotypes) {
            isOptional = settings.bool("XD_PPSK_isOptional")
            isTransient = settings.bool("XD_PPSK_isTransient")
            isIndexed = settings.bool("XD_PPSK_isIndexed")
            isIndexedBySpotlight = settings.bool("XD_PPSK_isSpotlightIndexed")
            isStoredInTruthFile = settings.bool("XD_PPSK_isStoredInTruthFile")
            renamingIdentifier = settings.string("XD_PPSK_elementID")
            versionHashModifier = settings.string("XD_PPSK_versionHashModifier")
            userInfo = settings.userInfo("XD_PPSK_userInfo")
        }
    }

    // MARK: - Attributes

    /// One `XDPMAttribute`; date values go to the XML's time-interval fields.
    static func attribute(
        _ object: ArchivedObject, name: String, entity: String, dropped: Xcode3Stereotypes.DroppedKeys
    ) throws -> Attribute {
        let owner = "attribute '\(name)' of entity '\(entity)'"
        let settings = try Xcode3Stereotypes(object, owner: owner, dropped: dropped)
        let common = Common(settings)
        let code = settings.integer("XD_PAttK_attributeType") ?? 0
        guard let type = AttributeType(rawValue: UInt32(clamping: max(code, 0))) else {
            throw Xcode3ModelReader.FormatError(description: "unsupported XD_PAttK_attributeType \(code) of \(owner)")
        }
        var attribute = Attribute(
            name: name, type: type, isOptional: common.isOptional, isTransient: common.isTransient,
            regularExpressionString: settings.string("XD_PAttK_regularExpressionString"),
            valueTransformerName: settings.string("XD_PAttK_valueTransformerName"),
            allowsExternalBinaryDataStorage: settings.bool("XD_PAttK_allowsExternalBinaryDataStorage"),
            isIndexed: common.isIndexed, isIndexedBySpotlight: common.isIndexedBySpotlight,
            isStoredInTruthFile: common.isStoredInTruthFile, isSyncable: true,
            versionHashModifier: common.versionHashModifier, renamingIdentifier: common.renamingIdentifier,
            userInfo: common.userInfo)
        let defaultValue = settings.string("XD_PAttK_defaultValueAsString")
        let minimum = settings.string("XD_PAttK_minValueString")
        let maximum = settings.string("XD_PAttK_maxValueString")
        if type == .date {
            // The XML keeps date values as seconds since 2001 in their own attributes.
            for (key, text) in [("XD_PAttK_defaultValueAsString", defaultValue), ("XD_PAttK_minValueString", minimum), ("XD_PAttK_maxValueString", maximum)] {
                if let text, Double(text) == nil {
                    throw Xcode3ModelReader.FormatError(description: "unsupported date value '\(text)' in \(key) of \(owner)")
                }
            }
            attribute.defaultDateTimeInterval = defaultValue
            attribute.minDateTimeInterval = minimum
            attribute.maxDateTimeInterval = maximum
        } else {
            attribute.defaultValueString = defaultValue
            attribute.minValueString = minimum
            attribute.maxValueString = maximum
        }
        try settings.checkAllRead()
        return attribute
    }

    // MARK: - Relationships

    /// One `XDPMRelationship`, its counts kept as stored (a to-one is 1/1, as Xcode 4's XML writes it).
    static func relationship(
        _ object: ArchivedObject, name: String, entity: String, dropped: Xcode3Stereotypes.DroppedKeys
    ) throws -> Relationship {
        let owner = "relationship '\(name)' of entity '\(entity)'"
        let settings = try Xcode3Stereotypes(object, owner: owner, dropped: dropped)
        let common = Common(settings)
        guard let destination = settings.value("XD_PRK_destination")?.object?["_name"]?.string else {
            throw Xcode3ModelReader.FormatError(description: "no XD_PRK_destination entity for \(owner)")
        }
        let inverse = settings.value("XD_PRK_inverseRelationship")?.object
        let inverseName = inverse?["_name"]?.string
        let minCount = settings.integer("XD_PRK_minCount") ?? 0
        let maxCount = settings.integer("XD_PRK_maxCount") ?? 0
        let rule = settings.integer("XD_PRK_deleteRule") ?? DeleteRule.nullify.rawValue
        guard let deleteRule = DeleteRule(rawValue: rule) else {
            throw Xcode3ModelReader.FormatError(description: "unsupported XD_PRK_deleteRule \(rule) of \(owner)")
        }
        if common.isIndexedBySpotlight || common.isStoredInTruthFile {
            // The model has no place for these on a relationship; none of the files at hand sets them.
            throw Xcode3ModelReader.FormatError(description: "unsupported XD_PPSK_isSpotlightIndexed/XD_PPSK_isStoredInTruthFile = YES on \(owner)")
        }
        let relationship = Relationship(
            name: name, isOptional: common.isOptional, isTransient: common.isTransient,
            isToMany: settings.bool("XD_PRK_isToMany"), isOrdered: settings.bool("XD_PRK_ordered"),
            minCount: minCount == 0 ? nil : minCount, maxCount: maxCount == 0 ? nil : maxCount,
            deleteRule: deleteRule, destinationEntityName: destination, inverseName: inverseName,
            inverseEntityName: inverseName == nil ? nil : destination, isIndexed: common.isIndexed,
            isSyncable: true, renamingIdentifier: common.renamingIdentifier,
            versionHashModifier: common.versionHashModifier, userInfo: common.userInfo)
        try settings.checkAllRead()
        return relationship
    }
}

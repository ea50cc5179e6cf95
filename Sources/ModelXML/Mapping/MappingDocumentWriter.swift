import Foundation
import ModelSchema

/// Writes a ``MappingDocument`` as the `xcmapping.xml` Xcode's mapping editor saves: a Core Data
/// XML store of `XDDEVMAPPINGMODEL`, `XDDEVENTITYMAPPING`, `XDDEVATTRIBUTEMAPPING` and
/// `XDDEVRELATIONSHIPMAPPING` objects, with the store metadata Xcode writes for them.
public enum MappingDocumentWriter {
    /// The `xcmapping.xml` text of `document`; `uuid` names the store.
    public static func xml(_ document: MappingDocument, uuid: String = UUID().uuidString) -> String {
        var objects = [String]()
        var next = 102
        func allocate() -> String {
            defer { next += 1 }
            return "z\(next)"
        }
        let modelID = "z101"
        var entityIDs = [String]()
        for (index, entity) in document.entityMappings.enumerated() {
            let id = allocate()
            entityIDs.append(id)
            let attributeIDs = entity.attributeMappings.map { _ in allocate() }
            let relationshipIDs = entity.relationshipMappings.map { _ in allocate() }
            var lines = [String]()
            lines.append(attribute("migrationpolicyclassname", entity.policyClassName))
            lines.append(attribute("name", entity.name))
            lines.append(attribute("sourcename", entity.sourceName))
            lines.append(attribute("mappingtypename", entity.typeName ?? "Undefined"))
            lines.append(attribute("mappingnumber", String(index + 1), type: "int16"))
            lines.append(attribute("destinationname", entity.destinationName))
            lines.append(attribute("sourcefilterpredicatestring", entity.filterPredicate))
            lines.append(binary("userinfodata", entity.userInfoData))
            lines.append(attribute("autogenerateexpression", entity.autogeneratesExpressions ? "1" : "0", type: "bool"))
            lines.append(relationship("mappingmodel", "1/1", "XDDEVMAPPINGMODEL", [modelID]))
            lines.append(relationship("attributemappings", "0/0", "XDDEVATTRIBUTEMAPPING", attributeIDs))
            lines.append(relationship("relationshipmappings", "0/0", "XDDEVRELATIONSHIPMAPPING", relationshipIDs))
            objects.append(object("XDDEVENTITYMAPPING", id, lines))
            for (property, propertyID) in zip(entity.attributeMappings, attributeIDs) {
                objects.append(object("XDDEVATTRIBUTEMAPPING", propertyID, [
                    binary("valueexpressiondata", property.valueExpressionData), attribute("name", property.name),
                    relationship("entitymapping", "1/1", "XDDEVENTITYMAPPING", [id]),
                ]))
            }
            for (property, propertyID) in zip(entity.relationshipMappings, relationshipIDs) {
                objects.append(object("XDDEVRELATIONSHIPMAPPING", propertyID, [
                    binary("valueexpressiondata", property.valueExpressionData),
                    attribute("autogenerateexpression", property.autogeneratesExpressions ? "1" : "0", type: "bool"),
                    attribute("name", property.name), attribute("sourcemappingname", property.sourceMappingName),
                    attribute("sourcekeypath", property.sourceKeyPath),
                    relationship("entitymapping", "1/1", "XDDEVENTITYMAPPING", [id]),
                ]))
            }
        }
        objects.append(object("XDDEVMAPPINGMODEL", modelID, [
            attribute("sourcemodelpath", document.sourceModelPath), binary("sourcemodeldata", document.sourceModelData),
            attribute("destinationmodelpath", document.destinationModelPath),
            binary("destinationmodeldata", document.destinationModelData),
            relationship("entitymappings", "0/0", "XDDEVENTITYMAPPING", entityIDs),
        ]))
        return header(uuid: uuid, nextObjectID: next) + objects.joined() + "</database>\n"
    }

    // MARK: - Pieces

    private static func object(_ type: String, _ id: String, _ lines: [String]) -> String {
        "    <object type=\"\(type)\" id=\"\(id)\">\n" + lines.filter { !$0.isEmpty }.joined() + "    </object>\n"
    }

    private static func attribute(_ name: String, _ value: String?, type: String = "string") -> String {
        guard let value else { return "" }
        return "        <attribute name=\"\(name)\" type=\"\(type)\">\(escaped(value))</attribute>\n"
    }

    /// Base64 wrapped at 76 columns, as the XML store writes binary attributes.
    private static func binary(_ name: String, _ bytes: [UInt8]?) -> String {
        guard let bytes else { return "" }
        let text = Data(bytes).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
        return "        <attribute name=\"\(name)\" type=\"binary\">\(text)\n</attribute>\n"
    }

    private static func relationship(_ name: String, _ type: String, _ destination: String, _ ids: [String]) -> String {
        "        <relationship name=\"\(name)\" type=\"\(type)\" destination=\"\(destination)\" idrefs=\"\(ids.joined(separator: " "))\"></relationship>\n"
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The store header: Xcode's store version and the metadata of its mapping-editor model
    /// (the entity hashes of Xcode's private `XDDev…` entities, as every corpus file records them).
    private static func header(uuid: String, nextObjectID: Int) -> String {
        let hashes = [
            ("XDDevAttributeMapping", "0plcXXRN7XHKl5CcF+fwriFmUpON3ZtcI/AfK748aWc="),
            ("XDDevEntityMapping", "qeN1Ym3TkWN1G6dU9RfX6Kd2ccEvcDVWHpd3LpLgboI="),
            ("XDDevMappingModel", "EqtMzvRnVZWkXwBHu4VeVGy8UyoOe+bi67KC79kphlQ="),
            ("XDDevPropertyMapping", "XN33V44TTGY4JETlMoOB5yyTKxB+u4slvDIinv0rtGA="),
            ("XDDevRelationshipMapping", "akYY9LhehVA/mCb4ATLWuI9XGLcjpm14wWL1oEBtIcs="),
        ]
        let entries = hashes.map {
            "                        <key>\($0.0)</key>\n                        <data>\n\t\t\($0.1)\n\t\t</data>\n"
        }.joined()
        return """
            <?xml version="1.0" standalone="yes"?>
            <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

            <database>
                <databaseInfo>
                    <version>134481920</version>
                    <UUID>\(uuid)</UUID>
                    <nextObjectID>\(nextObjectID)</nextObjectID>
                    <metadata>
                        <plist version="1.0">
                            <dict>
                                <key>NSPersistenceFrameworkVersion</key>
                                <integer>1044</integer>
                                <key>NSStoreModelVersionHashes</key>
                                <dict>

            """ + entries + """
                                </dict>
                                <key>NSStoreModelVersionHashesDigest</key>
                                <string>+Hmc2uYZK6og+Pvx5GUJ7oW75UG4V/ksQanTjfTKUnxyGWJRMtB5tIRgVwGsrd7lz/QR57++wbvWsr6nxwyS0A==</string>
                                <key>NSStoreModelVersionHashesVersion</key>
                                <integer>3</integer>
                                <key>NSStoreModelVersionIdentifiers</key>
                                <array>
                                    <string></string>
                                </array>
                            </dict>
                        </plist>
                    </metadata>
                </databaseInfo>

            """
    }
}

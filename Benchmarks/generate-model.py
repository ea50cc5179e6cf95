#!/usr/bin/env python3
"""Writes a large, valid Core Data model bundle (.xcdatamodeld) for benchmarks.

The XML has the shape Xcode 15 writes: the same declaration and <model> attributes, four-space
indentation, entities sorted by name, each entity's attributes then relationships sorted by
name, and XML attributes in Xcode's order. Every entity gets --attributes attributes drawn from a
catalogue of realistic ones (String, Integer 16/32/64, Double, Float, Boolean, Date, Binary,
Decimal, UUID, with Xcode's usual defaults), and every pair of neighbouring entities (in name
order) is linked by a to-many relationship and its to-one inverse, so that the model validates
without a single diagnostic.

With --versions V > 1 the bundle holds V versions named like Xcode names them (Name.xcdatamodel,
Name 2.xcdatamodel, ...); version v adds one attribute, `addedInVersion<v>`, to every tenth
entity (offset by v), on top of what the earlier versions added. .xccurrentversion names the last
version. The output depends only on the options, byte for byte.

    Benchmarks/generate-model.py --entities 2000 --attributes 12 --out Benchmarks/output

prints the path of the bundle it wrote (--out DIR/Name.xcdatamodeld; or --out itself when it
ends in .xcdatamodeld). An existing bundle at that path is replaced.
"""

import argparse
import os
import shutil
import sys
from xml.sax.saxutils import quoteattr

MODEL_HEADER = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" '
    'lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" '
    'sourceLanguage="Swift" userDefinedModelVersionIdentifier="">\n'
)
MODEL_FOOTER = "</model>\n"

CURRENT_VERSION = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
    '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
    '<plist version="1.0">\n'
    "<dict>\n"
    "\t<key>_XCCurrentVersionName</key>\n"
    "\t<string>{name}.xcdatamodel</string>\n"
    "</dict>\n"
    "</plist>\n"
)

# (name, XML attributes after `name`, in Xcode's order). Names are distinct and end in a letter,
# so a numeric suffix (used past the first round of the catalogue) cannot collide.
ATTRIBUTE_CATALOGUE = [
    ("name", 'optional="YES" attributeType="String"'),
    ("identifier", 'attributeType="UUID" usesScalarValueType="NO"'),
    ("createdAt", 'attributeType="Date" defaultDateTimeInterval="631123200" usesScalarValueType="NO"'),
    ("sortIndex", 'attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"'),
    ("count", 'optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"'),
    ("serverID", 'attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"'),
    ("rating", 'optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"'),
    ("progress", 'attributeType="Float" defaultValueString="0.0" usesScalarValueType="YES"'),
    ("isFavorite", 'attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"'),
    ("thumbnail", 'optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"'),
    ("price", 'optional="YES" attributeType="Decimal" defaultValueString="0.0"'),
    ("updatedAt", 'optional="YES" attributeType="Date" usesScalarValueType="NO"'),
    ("title", 'attributeType="String" defaultValueString=""'),
    ("remoteID", 'optional="YES" attributeType="UUID" usesScalarValueType="NO"'),
    ("version", 'attributeType="Integer 16" defaultValueString="1" usesScalarValueType="YES"'),
    ("flags", 'optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="NO"'),
    ("latitude", 'attributeType="Double" defaultValueString="0.0" usesScalarValueType="NO"'),
    ("weight", 'optional="YES" attributeType="Float" defaultValueString="0.0" usesScalarValueType="YES"'),
    ("isArchived", 'optional="YES" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"'),
    ("payload", 'optional="YES" attributeType="Binary"'),
    ("balance", 'attributeType="Decimal" defaultValueString="0"'),
    ("summary", 'optional="YES" attributeType="String"'),
    ("deletedAt", 'optional="YES" attributeType="Date" usesScalarValueType="NO"'),
    ("position", 'optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"'),
]

ADDED_ATTRIBUTE = 'optional="YES" attributeType="String"'

NOUNS = [
    "Account", "Address", "Album", "Article", "Attachment", "Author", "Booking", "Category",
    "Comment", "Contact", "Device", "Document", "Event", "Invoice", "Item", "Location",
    "Message", "Note", "Order", "Payment", "Photo", "Playlist", "Product", "Profile",
    "Project", "Review", "Session", "Tag", "Task", "Track", "User", "Vehicle",
]


def entity_names(count):
    width = max(4, len(str(count)))
    names = [f"{NOUNS[k % len(NOUNS)]}{k + 1:0{width}d}" for k in range(count)]
    return sorted(names)


def lower_first(name):
    return name[:1].lower() + name[1:]


def base_attributes(index, count):
    """The attributes of the entity at `index` (in name order): a rotation of the catalogue."""
    size = len(ATTRIBUTE_CATALOGUE)
    result = []
    for slot in range(count):
        name, xml = ATTRIBUTE_CATALOGUE[(index + slot) % size]
        rounds = slot // size
        result.append((name if rounds == 0 else f"{name}{rounds + 1}", xml))
    return result


def relationships(names, index):
    """The entity's to-many relationship to its next neighbour and to-one inverse to its previous."""
    result = []
    me = names[index]
    if index + 1 < len(names):
        nxt = names[index + 1]
        result.append((
            lower_first(nxt) + "s",
            f'optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="{nxt}" '
            f'inverseName="{lower_first(me)}" inverseEntity="{nxt}"',
        ))
    if index > 0:
        prev = names[index - 1]
        result.append((
            lower_first(prev),
            f'optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="{prev}" '
            f'inverseName="{lower_first(me)}s" inverseEntity="{prev}"',
        ))
    return result


def added_attributes(index, version):
    """Attributes versions 2...version add to the entity at `index`."""
    return [
        (f"addedInVersion{v}", ADDED_ATTRIBUTE)
        for v in range(2, version + 1)
        if index % 10 == v % 10
    ]


def model_xml(names, attribute_count, version):
    out = [MODEL_HEADER]
    for index, name in enumerate(names):
        out.append(
            f'    <entity name={quoteattr(name)} representedClassName={quoteattr(name)} '
            f'syncable="YES" codeGenerationType="class">\n'
        )
        attributes = base_attributes(index, attribute_count) + added_attributes(index, version)
        for attr_name, xml in sorted(attributes):
            out.append(f'        <attribute name="{attr_name}" {xml}/>\n')
        for rel_name, xml in sorted(relationships(names, index)):
            out.append(f'        <relationship name="{rel_name}" {xml}/>\n')
        out.append("    </entity>\n")
    out.append(MODEL_FOOTER)
    return "".join(out)


def version_name(model, version):
    return model if version == 1 else f"{model} {version}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entities", type=int, default=2000, help="number of entities (default 2000)")
    parser.add_argument("--attributes", type=int, default=12, help="attributes per entity (default 12)")
    parser.add_argument("--versions", type=int, default=1, help="model versions (default 1)")
    parser.add_argument("--name", default="Benchmark", help="model name (default Benchmark)")
    parser.add_argument(
        "--out", default=".",
        help="folder to write NAME.xcdatamodeld into, or the .xcdatamodeld path itself (default .)")
    args = parser.parse_args(argv)
    if args.entities < 1 or args.attributes < 0 or args.versions < 1:
        parser.error("--entities and --versions must be at least 1, --attributes at least 0")
    if not args.name or "/" in args.name:
        parser.error("--name must be a non-empty file name")

    out = args.out.rstrip("/") or "/"
    if out.endswith(".xcdatamodeld"):
        bundle = out
        model = os.path.basename(out)[: -len(".xcdatamodeld")]
    else:
        bundle = os.path.join(out, f"{args.name}.xcdatamodeld")
        model = args.name

    if os.path.isdir(bundle):
        shutil.rmtree(bundle)
    os.makedirs(bundle)
    names = entity_names(args.entities)
    for version in range(1, args.versions + 1):
        folder = os.path.join(bundle, f"{version_name(model, version)}.xcdatamodel")
        os.makedirs(folder)
        with open(os.path.join(folder, "contents"), "w", encoding="utf-8", newline="\n") as file:
            file.write(model_xml(names, args.attributes, version))
    with open(os.path.join(bundle, ".xccurrentversion"), "w", encoding="utf-8", newline="\n") as file:
        file.write(CURRENT_VERSION.format(name=version_name(model, args.versions)))
    print(bundle)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#if Postgres
import Foundation
import OpenCoreData
import Testing

/// The model of the save tests: `Node` has an attribute of every type, a to-one `parent` with
/// its inverse `children`, and `links`, a to-many without an inverse (a join table); `Keyed`
/// has a uniqueness constraint on `code`; deletions preserve `label`, `amount`, `when` and `blob`
/// in history. Each call builds new descriptions.
func saveModel() -> ManagedObjectModel {
    let node = EntityDescription(name: "Node")
    let keyed = EntityDescription(name: "Keyed")
    let parent = RelationshipDescription(name: "parent", destination: node)
    let children = RelationshipDescription(name: "children", destination: node, toMany: true)
    parent.inverseRelationship = children
    children.inverseRelationship = parent
    node.properties = [AttributeDescription(name: "label", type: .string, isOptional: false)]
        + SaveModelValues.attributes.map { AttributeDescription(name: $0.name, type: $0.type) }
        + [parent, children, RelationshipDescription(name: "links", destination: node, toMany: true)]
    keyed.properties = [
        AttributeDescription(name: "label", type: .string, isOptional: false),
        AttributeDescription(name: "code", type: .integer32, isOptional: false),
        AttributeDescription(name: "value", type: .string),
    ]
    keyed.uniquenessConstraints = [["code"]]
    // Deletions keep these in their history tombstones (labels, and values of three types).
    for attribute in [node, keyed].flatMap(\.properties).compactMap({ $0 as? AttributeDescription })
    where ["label", "amount", "when", "blob"].contains(attribute.name) {
        attribute.preservesValueInHistoryOnDeletion = true
    }
    return ManagedObjectModel(entities: [node, keyed])
}

/// Values of every attribute type, and how to compare what a store gives back exactly.
enum SaveModelValues {
    /// `Node`'s attributes besides `label`, one per type.
    static let attributes: [(name: String, type: AttributeType)] = [
        ("small", .integer16), ("medium", .integer32), ("large", .integer64), ("flag", .boolean),
        ("score", .double), ("ratio", .float), ("when", .date), ("amount", .decimal),
        ("text", .string), ("blob", .binaryData), ("uid", .uuid), ("site", .uri),
    ]

    /// Per attribute, values that must come back exactly: extremes, sub-second dates, long and
    /// small decimals, unicode (NFC and NFD apart), empty values.
    static var table: [String: [Any]] { [
        "small": [Int16.min, Int16.max, Int16(0), Int16(-1)],
        "medium": [Int32.min, Int32.max, Int32(7)],
        "large": [Int64.min, Int64.max, Int64(0), Int64(1) << 53 + 1],
        "flag": [true, false],
        "score": [Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude,
                  Double.infinity, -Double.infinity, 0.1, -0.0, 1e-300, Double(Int64(1) << 53) + 2],
        "ratio": [Float.greatestFiniteMagnitude, Float.leastNonzeroMagnitude, Float(0.1), -Float.infinity],
        "when": [Date(timeIntervalSinceReferenceDate: 0.123456789), Date(timeIntervalSinceReferenceDate: -987654321.000001),
                 Date(timeIntervalSinceReferenceDate: 1e15 + 0.5), Date.distantPast, Date.distantFuture],
        "amount": [Decimal(string: "0.1")!, Decimal(string: "-12345678901234567890.123456789012345678")!,
                   Decimal(string: "1.50")!, Decimal.greatestFiniteMagnitude, Decimal.leastNonzeroMagnitude,
                   -Decimal.greatestFiniteMagnitude, Decimal(0)],
        "text": ["", "plain", "é (NFC)", "e\u{301} (NFD)", "🇧🇷 日本語 \u{FFFF} \u{10FFFF}", "quote ' and \\ backslash",
                 String(repeating: "long ", count: 2000)],
        "blob": [Data(), Data([0]), Data((0...255).map { UInt8($0) }), Data(repeating: 0xFF, count: 100_000)],
        "uid": [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!, UUID()],
        "site": [URL(string: "https://example.com/a%20b?q=ü")!, URL(string: "file:///tmp/x")!, URL(string: "mailto:a@b.c")!],
    ] }

    /// A value as text that tells apart every value a store could give back differently:
    /// doubles and dates by their bits, decimals by their digits, the rest as described.
    static func canonical(_ value: Any?, type: AttributeType) -> String {
        guard let value else { return "nil" }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return "int \((value as? NSNumber)?.int64Value ?? -1)"
        case .booleanAttributeType:
            return "bool \((value as? NSNumber)?.boolValue ?? false)"
        case .doubleAttributeType, .floatAttributeType:
            return "double \((value as? NSNumber)?.doubleValue.bitPattern ?? 0)"
        case .dateAttributeType:
            return "date \((value as? Date)?.timeIntervalSinceReferenceDate.bitPattern ?? 0)"
        case .decimalAttributeType:
            return "decimal \((value as? Decimal)?.description ?? (value as? NSDecimalNumber)?.decimalValue.description ?? "?")"
        default:
            return "\(type) \(value)"
        }
    }
}
#endif

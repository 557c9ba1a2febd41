import FetchedResultsChecking
import Foundation
import OpenCoreData

/// Random models for ``StoredModelTests``: a few entities, some inheriting from earlier ones,
/// attributes of every type (optional or required, with or without a default), relationships of
/// every kind between any two entities,
/// and uniqueness constraints. Names are unique across the model, so no two properties of a
/// hierarchy collide. Entities inherit relationships, and relationships point to entities that
/// have subentities; an inverse is declared on the destination itself, as the model compiler
/// requires.
enum RandomModel {
    static func make(using random: inout SplitMix64) -> ManagedObjectModel {
        let count = Int.random(in: 1...5, using: &random)
        let entities = (0..<count).map { EntityDescription(name: "E\($0)") }
        for (index, entity) in entities.enumerated() {
            if index > 0, Int.random(in: 0..<3, using: &random) == 0 {
                entities[Int.random(in: 0..<index, using: &random)].subentities.append(entity)
            }
            entity.properties = (0..<Int.random(in: 0...4, using: &random)).map { attribute(named: "e\(index)a\($0)", using: &random) }
            let required = entity.properties.compactMap { $0 as? AttributeDescription }.filter { $0.attributeType != .binaryData }
            if let unique = required.randomElement(using: &random), Bool.random(using: &random) {
                entity.uniquenessConstraints = [[unique.name]]
            }
        }
        for number in 0..<Int.random(in: 0...5, using: &random) {
            let source = entities.randomElement(using: &random) ?? entities[0]
            let destination = entities.randomElement(using: &random) ?? entities[0]
            link(source, destination, name: "r\(number)", using: &random)
        }
        return ManagedObjectModel(entities: entities)
    }

    private static func attribute(named name: String, using random: inout SplitMix64) -> AttributeDescription {
        let type = AttributeType.allCases.randomElement(using: &random) ?? .string
        let defaults: [AttributeType: Any] = [
            .integer16: 7, .integer32: 70_000, .integer64: Int64(1) << 40, .decimal: Decimal(5) / 2, .double: 1.5,
            .float: Float(2.5), .string: "x", .boolean: true, .date: Date(timeIntervalSinceReferenceDate: 9),
            .binaryData: Data([1]), .uuid: UUID(), .uri: URL(fileURLWithPath: "/tmp"),
        ]
        return AttributeDescription(name: name, type: type, isOptional: Bool.random(using: &random),
                                    defaultValue: Bool.random(using: &random) ? defaults[type] : nil)
    }

    /// One relationship, or a pair of inverses, from `source` to `destination`.
    private static func link(_ source: EntityDescription, _ destination: EntityDescription, name: String,
                             using random: inout SplitMix64) {
        let forward = RelationshipDescription(name: "\(source.name ?? "")\(name)", destination: destination,
                                              toMany: Bool.random(using: &random))
        source.properties.append(forward)
        guard Bool.random(using: &random) else { return }
        let inverse = RelationshipDescription(name: "\(destination.name ?? "")\(name)inverse", destination: source,
                                              toMany: Bool.random(using: &random))
        destination.properties.append(inverse)
        forward.inverseRelationship = inverse
        inverse.inverseRelationship = forward
    }
}

import Foundation
import OpenCoreData
import Testing

/// Transformable attributes in model files, as Xcode writes them, bound to `@Managed` classes.
@Suite struct TransformableModelFileTests {
    struct Point: Codable, Equatable, ManagedCodableValue {
        var x: Int
        var y: Int
    }

    final class Sketch: ManagedObject {
        @Managed var title: String?
        @Managed var tags: [String]?
        @Managed var labels: [String]?
        @Managed var origin: Point?
        @Managed var anchor: Point?
    }

    /// Stores a point as "x;y" text.
    final class SemicolonPointTransformer: ValueTransformer {
        override class func allowsReverseTransformation() -> Bool { true }
        override func transformedValue(_ value: Any?) -> Any? {
            (value as? Point).map { Data("\($0.x);\($0.y)".utf8) }
        }
        override func reverseTransformedValue(_ value: Any?) -> Any? {
            guard let data = value as? Data else { return nil }
            let parts = String(decoding: data, as: UTF8.self).split(separator: ";").compactMap { Int($0) }
            return parts.count == 2 ? Point(x: parts[0], y: parts[1]) : nil
        }
    }

    /// Xcode's forms: the default transformer by its constant and by its class name, a custom
    /// transformer, and no transformer at all.
    private static func sketchFile(pointTransformer: String, in directory: TemporaryDirectory) throws -> URL {
        try ModelFiles.write(#"""
            <entity name="Sketch" representedClassName="Sketch" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]"/>
                <attribute name="labels" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromDataTransformer" customClassName="[String]"/>
                <attribute name="origin" optional="YES" attributeType="Transformable" valueTransformerName="\#(pointTransformer)" customClassName="Point"/>
                <attribute name="anchor" optional="YES" attributeType="Transformable" customClassName="Point"/>
            </entity>
            """#, in: directory)
    }

    @Test func theFileGivesTransformersAndClasses() throws {
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(contentsOf: try Self.sketchFile(pointTransformer: "SemicolonPoint", in: directory),
                                           managedObjectClasses: [Sketch.self])
        let attributes = try #require(model.entitiesByName["Sketch"]?.attributesByName)
        #expect(attributes["tags"]?.attributeType == .transformable)
        #expect(attributes["tags"]?.valueTransformerName == "NSSecureUnarchiveFromData")
        #expect(attributes["tags"]?.attributeValueClassName == "[String]")
        #expect(attributes["origin"]?.valueTransformerName == "SemicolonPoint")
        #expect(attributes["anchor"]?.valueTransformerName == nil)
    }

    @Test(arguments: StoreKind.withPostgres)
    func boundClassesRoundTripThroughTheFilesTransformers(kind: StoreKind) throws {
        let directory = TemporaryDirectory()
        let transformerName = "SemicolonPoint-\(UUID().uuidString)"
        ValueTransformer.setValueTransformer(SemicolonPointTransformer(), forName: NSValueTransformerName(transformerName))
        let model = try ManagedObjectModel(contentsOf: try Self.sketchFile(pointTransformer: transformerName, in: directory),
                                           managedObjectClasses: [Sketch.self])
        let stack = try TestStack(kind, model: model)
        let context = stack.newContext()
        try context.performAndWait {
            let sketch = Sketch(context: context)
            sketch.title = "harbour"
            sketch.tags = ["sea", "boats"]
            sketch.labels = ["blue"]
            sketch.origin = Point(x: 5, y: 8)
            sketch.anchor = Point(x: -2, y: 0)
            try context.save()
        }
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let sketch = try #require(try fresh.fetch(Sketch.fetchRequest()).first)
            #expect(sketch.tags == ["sea", "boats"] && sketch.labels == ["blue"])
            #expect(sketch.origin == Point(x: 5, y: 8) && sketch.anchor == Point(x: -2, y: 0))
            #expect(sketch.value(forKey: "origin") as? Point == Point(x: 5, y: 8))
        }
    }

    final class DataSketch: ManagedObject {
        override class var entityName: String { "Sketch" }
        @Managed var tags: Data?
    }

    @Test func aBoundClassMustDeclareACodableTypeForATransformable() throws {
        let directory = TemporaryDirectory()
        let url = try ModelFiles.write(#"""
            <entity name="Sketch" representedClassName="DataSketch">
                <attribute name="tags" optional="YES" attributeType="Transformable" customClassName="[String]"/>
            </entity>
            """#, in: directory)
        let error = #expect(throws: ModelError.self) {
            _ = try ManagedObjectModel(contentsOf: url, managedObjectClasses: [DataSketch.self])
        }
        #expect(error?.message.contains("declares tags as binaryData, but the model file says transformable") == true,
                "\(String(describing: error))")
    }
}

import Foundation
import OpenCoreData
import Testing

/// A secure-coded class of an app's. Foundation on Linux archives top-level classes only.
final class Swatch: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let red: Double
    let label: String

    init(red: Double, label: String) {
        self.red = red
        self.label = label
    }

    init?(coder: NSCoder) {
        red = coder.decodeDouble(forKey: "red")
        label = coder.decodeObject(of: NSString.self, forKey: "label") as String? ?? ""
    }

    func encode(with coder: NSCoder) {
        coder.encode(red, forKey: "red")
        coder.encode(label as NSString, forKey: "label")
    }
}

/// Transformable attributes with named value transformers, as Core Data apps register them.
@Suite struct ValueTransformerTests {
    /// A point, stored by ``PointTransformer`` as "x,y" text.
    struct Point: Equatable {
        var x: Int
        var y: Int
    }

    /// A transformer as apps write them: value to data forward, data to value in reverse. It
    /// refuses negative points, to test a value its transformer cannot store.
    final class PointTransformer: ValueTransformer {
        override class func allowsReverseTransformation() -> Bool { true }
        override class func transformedValueClass() -> AnyClass { NSData.self }

        override func transformedValue(_ value: Any?) -> Any? {
            guard let point = value as? Point, point.x >= 0, point.y >= 0 else { return nil }
            return Data("\(point.x),\(point.y)".utf8)
        }

        override func reverseTransformedValue(_ value: Any?) -> Any? {
            guard let data = value as? Data else { return nil }
            let parts = String(decoding: data, as: UTF8.self).split(separator: ",").compactMap { Int($0) }
            return parts.count == 2 ? Point(x: parts[0], y: parts[1]) : nil
        }
    }

    /// The transformer that allows the app's secure-coded class.
    final class SwatchTransformer: NSSecureUnarchiveFromDataTransformer {
        override class var allowedTopLevelClasses: [AnyClass] { [Swatch.self, NSString.self] }
    }

    /// A transformer name no other test registers: the registry is shared by the process.
    private static func uniqueName(_ base: String) -> String { "\(base)-\(UUID().uuidString)" }

    /// A `Drawing` entity with a point (custom transformer), a swatch (secure unarchiving
    /// subclass) and tags (no transformer named: Core Data's default).
    private static func model(pointTransformer: String, swatchTransformer: String) -> ManagedObjectModel {
        let drawing = EntityDescription(name: "Drawing")
        let title = AttributeDescription(name: "title", type: .string, isOptional: false)
        let origin = AttributeDescription(name: "origin", type: .transformable)
        origin.valueTransformerName = pointTransformer
        let swatch = AttributeDescription(name: "swatch", type: .transformable)
        swatch.valueTransformerName = swatchTransformer
        let tags = AttributeDescription(name: "tags", type: .transformable)
        drawing.properties = [title, origin, swatch, tags]
        return ManagedObjectModel(entities: [drawing])
    }

    private static func registeredModel() -> ManagedObjectModel {
        let point = uniqueName("PointTransformer")
        let swatch = uniqueName("SwatchTransformer")
        ValueTransformer.setValueTransformer(PointTransformer(), forName: NSValueTransformerName(point))
        ValueTransformer.setValueTransformer(SwatchTransformer(), forName: NSValueTransformerName(swatch))
        return model(pointTransformer: point, swatchTransformer: swatch)
    }

    /// A new drawing titled "sunset", with `values` set by key.
    private static func insertDrawing(of model: ManagedObjectModel, into context: ManagedObjectContext,
                                      _ values: [String: Any]) throws -> ManagedObject {
        let drawing = ManagedObject(entity: try #require(model.entitiesByName["Drawing"]), insertInto: context)
        drawing.setValue("sunset", forKey: "title")
        for (key, value) in values { drawing.setValue(value, forKey: key) }
        return drawing
    }

    @Test(arguments: StoreKind.withPostgres)
    func registeredTransformersRoundTripThroughEveryStore(kind: StoreKind) throws {
        let model = Self.registeredModel()
        let stack = try TestStack(kind, model: model)
        let context = stack.newContext()
        try context.performAndWait {
            _ = try Self.insertDrawing(of: model, into: context, [
                "origin": Point(x: 3, y: 4), "swatch": Swatch(red: 0.75, label: "coral"), "tags": ["warm", "evening"],
            ])
            try context.save()
        }
        let fresh = try (kind == .inMemory ? stack : stack.reopened(model: model)).newContext()
        try fresh.performAndWait {
            let drawing = try #require(try fresh.fetch(FetchRequest<ManagedObject>(entityName: "Drawing")).first)
            #expect(drawing.value(forKey: "origin") as? Point == Point(x: 3, y: 4))
            let swatch = try #require(drawing.value(forKey: "swatch") as? Swatch)
            #expect(swatch.red == 0.75 && swatch.label == "coral")
            #expect(drawing.value(forKey: "tags") as? [String] == ["warm", "evening"])
            // Dictionary results hold values too.
            let rows = FetchRequest<NSDictionary>(entityName: "Drawing")
            rows.resultType = .dictionaryResultType
            rows.propertiesToFetch = ["origin"]
            #expect(try fresh.fetch(rows).first?["origin"] as? Point == Point(x: 3, y: 4))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aValueItsTransformerRefusesFailsTheSaveAndKeepsWhatWasSaved(kind: StoreKind) throws {
        let model = Self.registeredModel()
        let stack = try TestStack(kind, model: model)
        let context = stack.newContext()
        try context.performAndWait {
            let drawing = try Self.insertDrawing(of: model, into: context, ["origin": Point(x: 1, y: 1)])
            try context.save()

            drawing.setValue(Point(x: -1, y: 0), forKey: "origin")
            let error = #expect(throws: ValidationError.self) { try context.save() }
            let message = error?.failures.first?.message ?? ""
            #expect(error?.failures.first?.key == "origin")
            #expect(message.contains("PointTransformer") && message.contains("could not transform a Point"), "\(message)")
        }
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let drawing = try #require(try fresh.fetch(FetchRequest<ManagedObject>(entityName: "Drawing")).first)
            #expect(drawing.value(forKey: "origin") as? Point == Point(x: 1, y: 1))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aStoreDoesNotLoadWithoutItsTransformer(kind: StoreKind) throws {
        let missing = Self.uniqueName("NeverRegistered")
        let model = Self.model(pointTransformer: missing, swatchTransformer: NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue)
        let error = #expect(throws: ModelError.self) { _ = try TestStack(kind, model: model) }
        #expect(error?.code == ModelError.missingValueTransformer)
        #expect(error?.message.contains("Drawing.origin is transformed by '\(missing)'") == true, "\(String(describing: error))")

        // Registered afterwards, the same model loads.
        ValueTransformer.setValueTransformer(PointTransformer(), forName: NSValueTransformerName(missing))
        _ = try TestStack(kind, model: model)
        ValueTransformer.setValueTransformer(nil, forName: NSValueTransformerName(missing))
        #expect(!ValueTransformer.valueTransformerNames().contains(NSValueTransformerName(missing)))
    }

    @Test func anArchiveOfAClassTheTransformerDoesNotAllowReadsAsNil() throws {
        let archive = try NSKeyedArchiver.archivedData(withRootObject: Swatch(red: 1, label: "x"), requiringSecureCoding: true)
        // The default transformer allows property-list classes only; Foundation on Linux would
        // stop the process here.
        #expect(NSSecureUnarchiveFromDataTransformer().transformedValue(archive) == nil)
        #expect((SwatchTransformer().transformedValue(archive) as? Swatch)?.label == "x")
        #expect(SwatchTransformer().transformedValue(Data("not an archive".utf8)) == nil)
        #expect(NSSecureUnarchiveFromDataTransformer.allowsReverseTransformation())
    }
}

extension ValueTransformerTests {
    /// A class Foundation on Linux cannot archive, being nested.
    final class NestedSwatch: NSObject, NSSecureCoding {
        static var supportsSecureCoding: Bool { true }
        override init() { super.init() }
        init?(coder: NSCoder) { super.init() }
        func encode(with coder: NSCoder) {}
    }

    @Test func aNestedClassIsNotArchivedInsteadOfStoppingTheProcess() {
        #expect(SwatchTransformer().reverseTransformedValue(NestedSwatch()) == nil)
        #expect(SwatchTransformer().reverseTransformedValue(Swatch(red: 0, label: "top")) is Data)
    }
}

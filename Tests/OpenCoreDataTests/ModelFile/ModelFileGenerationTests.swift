import Foundation
import OpenCoreData
import Testing

/// `ocd generate` writes a model file's classes as Xcode's code generation lays them out. The
/// classes in Generated/ are its output for ModelFiles/Garden.xcdatamodeld, compiled with these
/// tests: one test checks they are exactly what it writes today, the other that they work.
@Suite struct ModelFileGenerationTests {
    private static let generated = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Generated", isDirectory: true)

    @Test func theCompiledClassesAreWhatOcdGenerateWrites() async throws {
        let output = TemporaryDirectory()
        let result = try await OcdToolRunner.run(["generate", try ModelFiles.resource("Garden.xcdatamodeld").path,
                                                  "--output", output.url.path])
        #expect(result.status == 0, "\(result.stderr)")
        let manager = FileManager.default
        let written = try manager.contentsOfDirectory(atPath: output.url.path).sorted()
        let checkedIn = try manager.contentsOfDirectory(atPath: Self.generated.path).sorted()
        // Bed is Category/Extension (properties only), Journal Manual/None (nothing).
        #expect(written == ["GardenBed+CoreDataProperties.swift", "GardenOrganism+CoreDataClass.swift",
                            "GardenPlant+CoreDataClass.swift", "GardenPlant+CoreDataProperties.swift"])
        #expect(written == checkedIn)
        for name in written {
            let fresh = try String(contentsOf: output.file(name), encoding: .utf8)
            let compiled = try String(contentsOf: Self.generated.appendingPathComponent(name), encoding: .utf8)
            #expect(fresh == compiled, "\(name) differs from what ocd generate writes; run it again")
        }
        #expect(result.stdout.split(separator: "\n").count == 4)
    }

    /// Xcode declares a transformable without a custom class as `NSObject?`, which no `@Managed`
    /// property can hold: the tool asks for the class instead of writing code that does not build.
    @Test func aTransformableWithoutACustomClassIsRefused() async throws {
        let directory = TemporaryDirectory()
        let url = try ModelFiles.write(#"""
            <entity name="Note" representedClassName="Note" codeGenerationType="class">
                <attribute name="extras" optional="YES" attributeType="Transformable"/>
            </entity>
            """#, in: directory)
        let result = try await OcdToolRunner.run(["generate", url.path, "--output", directory.file("out").path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("Note.extras is Transformable with no Custom Class"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("out").path))
    }

    /// Objects of the generated classes keep every value, default and relationship through a
    /// save and a fresh context, on every store.
    @Test(arguments: StoreKind.withPostgres)
    func generatedClassesRoundTripObjects(kind: StoreKind) throws {
        let model = try ManagedObjectModel(contentsOf: try ModelFiles.resource("Garden.xcdatamodeld"),
                                           managedObjectClasses: [GardenOrganism.self, GardenPlant.self, GardenBed.self])
        let stack = try TestStack(kind, model: model)
        let context = stack.newContext()
        let identifier = UUID()
        let planted = Date(timeIntervalSince1970: 1_780_000_000)
        try context.performAndWait {
            let bed = GardenBed(context: context)
            #expect(bed.rows == 4 && bed.sunny == nil)
            bed.label = "south"
            bed.sunny = NSNumber(value: true)
            bed.layout = ["rows": 3, "spacing": 40]
            let tomato = GardenPlant(context: context)
            #expect(tomato.year == 2026 && tomato.ratio == 1 && tomato.price == 0 && !tomato.watered)
            tomato.identifier = identifier
            tomato.name = "tomato"
            tomato.count = NSNumber(value: Int64(12))
            tomato.default = "red"
            tomato.height = 1.5
            tomato.photo = Data([0xFF, 0xD8])
            tomato.tags = ["heirloom", "red"]
            tomato.planted = planted
            tomato.price = Decimal(string: "2.40")
            tomato.seeds = 30
            tomato.source = URL(string: "https://example.org/seeds")
            tomato.watered = true
            let basil = GardenPlant(context: context)
            basil.identifier = UUID()
            basil.name = "basil"
            tomato.addToCompanions(basil)
            bed.addToPlants([tomato, basil])
            let pepper = GardenPlant(context: context)
            pepper.identifier = UUID()
            pepper.name = "pepper"
            bed.insertIntoPlants(pepper, at: 1)
            try context.save()
        }
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let plants = try fresh.fetch(GardenPlant.fetchRequest())
            let tomato = try #require(plants.first { $0.name == "tomato" })
            #expect(plants.count == 3)
            #expect(tomato.identifier == identifier && tomato.count?.int64Value == 12 && tomato.default == "red")
            #expect(tomato.height == 1.5 && tomato.photo == Data([0xFF, 0xD8]) && tomato.planted == planted)
            #expect(tomato.tags == ["heirloom", "red"])
            #expect(tomato.price == Decimal(string: "2.40") && tomato.seeds == 30 && tomato.watered)
            #expect(tomato.source == URL(string: "https://example.org/seeds") && tomato.year == 2026)
            #expect(tomato.companions.map(\.name) == ["basil"])
            let bed = try #require(tomato.bed)
            #expect(bed.label == "south" && bed.sunny?.boolValue == true && bed.rows == 4)
            #expect(bed.layout == ["rows": 3, "spacing": 40])
            // Bed.plants is ordered.
            #expect(bed.plants.map(\.name) == ["tomato", "pepper", "basil"])
            bed.removeFromPlants(tomato)
            #expect(tomato.bed == nil && bed.plants.map(\.name) == ["pepper", "basil"])
            bed.replacePlants(at: 1, with: tomato)
            bed.removeFromPlants(at: 0)
            #expect(bed.plants.map(\.name) == ["tomato"])
            // The abstract Organism's fetch finds every plant, as GardenOrganism objects.
            #expect(try fresh.fetch(GardenOrganism.fetchRequest()).count == 3)
        }
    }
}

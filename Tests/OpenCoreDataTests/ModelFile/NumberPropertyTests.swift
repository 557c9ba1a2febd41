import Foundation
import OpenCoreData
import Testing

/// `@Managed var position: NSNumber?`, as Xcode generates numbers that do not use scalar types:
/// the attribute's type comes from the model file.
@Suite struct NumberPropertyTests {
    final class NumberedShelf: ManagedObject {
        override class var entityName: String { "Shelf" }
        @Managed var position: NSNumber?
        @Managed var room: String?
    }

    final class MisnumberedShelf: ManagedObject {
        override class var entityName: String { "Shelf" }
        @Managed var room: NSNumber?
    }

    @Test(arguments: StoreKind.withPostgres)
    func aNumberPropertyReadsAndWritesItsAttributesType(kind: StoreKind) throws {
        let url = try ModelFiles.resource("Shelves.xcdatamodel")
        let directory = TemporaryDirectory()
        let copy = directory.file("Shelves.xcdatamodel")
        try FileManager.default.copyItem(at: url, to: copy)
        let contents = copy.appendingPathComponent("contents")
        let text = try String(contentsOf: contents, encoding: .utf8)
            .replacingOccurrences(of: #"representedClassName="Shelf""#, with: #"representedClassName="NumberedShelf""#)
        try Data(text.utf8).write(to: contents)
        let model = try ManagedObjectModel(contentsOf: copy, managedObjectClasses: [NumberedShelf.self])
        let stack = try TestStack(kind, model: model)
        let context = stack.newContext()
        try context.performAndWait {
            let shelf = NumberedShelf(context: context)
            #expect(shelf.position?.int16Value == 0)
            shelf.position = NSNumber(value: 7)
            shelf.room = "hall"
            try context.save()
        }
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let shelf = try #require(try fresh.fetch(NumberedShelf.fetchRequest()).first)
            #expect(shelf.position?.intValue == 7 && shelf.room == "hall")
            // A value the attribute cannot hold is refused as any other: the save names it.
            shelf.position = NSNumber(value: 70_000)
            #expect(throws: ValidationError.self) { try fresh.save() }
        }
    }

    @Test func aNumberPropertyNeedsANumberAttributeAndAModelFile() throws {
        let directory = TemporaryDirectory()
        let url = try ModelFiles.write(#"""
            <entity name="Shelf" representedClassName="MisnumberedShelf">
                <attribute name="room" optional="YES" attributeType="String"/>
            </entity>
            """#, in: directory)
        let error = #expect(throws: ModelError.self) {
            _ = try ManagedObjectModel(contentsOf: url, managedObjectClasses: [MisnumberedShelf.self])
        }
        #expect(error?.message.contains("declares room as an NSNumber, but the model file's room is a string") == true,
                "\(String(describing: error))")
        let derived = #expect(throws: ModelError.self) {
            _ = try ManagedObjectModel(managedObjectClasses: [NumberedShelf.self])
        }
        #expect(derived?.message.contains("Shelf.position is an NSNumber") == true, "\(String(describing: derived))")
    }
}

import Foundation
import OpenCoreData
import Testing

/// External binary storage: large values of an `allowsExternalBinaryDataStorage` attribute live
/// in files beside an SQLite store, written and removed with the saves that set, replace and
/// delete them, never left behind; every store reads and writes them as `Data`.
@Suite struct ExternalBinaryStorageTests {
    final class Photo: ManagedObject {
        @Managed var name: String
        @Managed var image: Data?
        @Managed var thumbnail: Data?
    }

    /// Photo, with `image` allowed external storage and `thumbnail` not.
    private static func model() throws -> ManagedObjectModel {
        let model = try ManagedObjectModel(managedObjectClasses: [Photo.self])
        model.entitiesByName["Photo"]?.attributesByName["image"]?.allowsExternalBinaryDataStorage = true
        return model
    }

    /// Bytes of a given size, different for each seed.
    private static func bytes(_ count: Int, seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed })
    }

    private static let large = 200 * 1024

    private static func folder(of stack: TestStack) -> URL {
        stack.directory.url.appendingPathComponent(".Test_SUPPORT/_EXTERNAL_DATA")
    }

    /// The files holding values, by name.
    private static func files(of stack: TestStack) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder(of: stack).path)) ?? []).sorted()
    }

    private static func insert(_ name: String, image: Data?, thumbnail: Data? = nil, in stack: TestStack) throws {
        let context = stack.newContext()
        try context.performAndWait {
            let photo = Photo(context: context)
            photo.name = name
            photo.image = image
            photo.thumbnail = thumbnail
            try context.save()
        }
    }

    /// Each photo's name and values, read by a fresh context.
    private static func photos(in stack: TestStack) throws -> [String: (image: Data?, thumbnail: Data?)] {
        let context = stack.newContext()
        return try context.performAndWait {
            Dictionary(uniqueKeysWithValues: try context.all(Photo.self).map { ($0.name, ($0.image, $0.thumbnail)) })
        }
    }

    /// Runs `change` on the photo named `name` in a context of its own and saves.
    private static func change(_ name: String, in stack: TestStack, _ change: @escaping (Photo, ManagedObjectContext) -> Void) throws {
        let context = stack.newContext()
        try context.performAndWait {
            let request = FetchRequest<Photo>(entityName: "Photo")
            request.predicate = try FetchPredicate(format: "name == %@", name)
            for photo in try context.fetch(request) { change(photo, context) }
            try context.save()
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func largeAndSmallValuesRoundTrip(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: try Self.model())
        let big = Self.bytes(Self.large, seed: 1)
        let small = Self.bytes(1000, seed: 2)
        try Self.insert("big", image: big, thumbnail: Self.bytes(Self.large, seed: 3), in: stack)
        try Self.insert("small", image: small, in: stack)
        try Self.insert("none", image: nil, in: stack)
        let read = kind == .inMemory ? try Self.photos(in: stack) : try Self.photos(in: try stack.reopened(model: try Self.model()))
        #expect(read["big"]?.image == big)
        #expect(read["big"]?.thumbnail == Self.bytes(Self.large, seed: 3))
        #expect(read["small"]?.image == small)
        #expect(read["none"].map { $0.image == nil } == true)
        if kind == .sqlite {
            // Only the large value of the attribute that allows it is kept in a file.
            let files = Self.files(of: stack)
            #expect(files.count == 1)
            let file = try Data(contentsOf: Self.folder(of: stack).appendingPathComponent(try #require(files.first)))
            #expect(file == big)
        }
    }

    @Test func replacingAndDeletingAValueRemovesItsFile() throws {
        let stack = try TestStack(.sqlite, model: try Self.model())
        try Self.insert("a", image: Self.bytes(Self.large, seed: 1), in: stack)
        try Self.insert("b", image: Self.bytes(Self.large, seed: 2), in: stack)
        let first = Self.files(of: stack)
        #expect(first.count == 2)

        // A new large value: a new file, and the old one gone.
        try Self.change("a", in: stack) { photo, _ in photo.image = Self.bytes(Self.large + 1, seed: 4) }
        let replaced = Self.files(of: stack)
        #expect(replaced.count == 2)
        #expect(Set(replaced).intersection(first).count == 1)
        #expect(try Self.photos(in: stack)["a"]?.image == Self.bytes(Self.large + 1, seed: 4))

        // A small value goes back into the row; changing another attribute keeps the file.
        try Self.change("a", in: stack) { photo, _ in photo.image = Self.bytes(10, seed: 5) }
        #expect(Self.files(of: stack).count == 1)
        try Self.change("b", in: stack) { photo, _ in photo.name = "b2" }
        #expect(Self.files(of: stack).count == 1)
        #expect(try Self.photos(in: stack)["b2"]?.image == Self.bytes(Self.large, seed: 2))

        // Deleting the object removes its file; so does a batch delete.
        try Self.change("b2", in: stack) { photo, context in context.delete(photo) }
        #expect(Self.files(of: stack).isEmpty)
        try Self.insert("c", image: Self.bytes(Self.large, seed: 6), in: stack)
        #expect(Self.files(of: stack).count == 1)
        let context = stack.newContext()
        try context.performAndWait {
            _ = try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest<Photo>(entityName: "Photo")))
        }
        #expect(Self.files(of: stack).isEmpty)
        #expect(try Self.photos(in: stack).isEmpty)
    }

    @Test func aSaveThatFailsLeavesNoFile() throws {
        let stack = try TestStack(.sqlite, model: try Self.model())
        try Self.insert("a", image: nil, in: stack)
        // Two contexts change the same photo; the second save meets the first's change.
        let first = stack.newContext()
        let second = stack.newContext()
        let photos = try [first, second].map { context in
            try context.performAndWait {
                let photo = try #require(try context.all(Photo.self).first)
                // Read now, so that the second context's change is based on the first version.
                _ = photo.image
                return photo
            }
        }
        try first.performAndWait {
            photos[0].image = Self.bytes(Self.large, seed: 1)
            try first.save()
        }
        let afterFirst = Self.files(of: stack)
        #expect(afterFirst.count == 1)
        let failed = second.performAndWait {
            photos[1].image = Self.bytes(Self.large, seed: 2)
            return Result { try second.save() }
        }
        #expect(throws: (any Error).self) { try failed.get() }
        #expect(Self.files(of: stack) == afterFirst)
        #expect(try Self.photos(in: stack)["a"]?.image == Self.bytes(Self.large, seed: 1))
    }

    @Test func loadingRemovesFilesNoRowNames() throws {
        let stack = try TestStack(.sqlite, model: try Self.model())
        try Self.insert("a", image: Self.bytes(Self.large, seed: 1), in: stack)
        let kept = Self.files(of: stack)
        // What a process killed between writing a file and committing its save leaves, and a
        // file that is not one of the store's.
        let stray = UUID().uuidString
        try Data([1, 2, 3]).write(to: Self.folder(of: stack).appendingPathComponent(stray))
        try Data([4]).write(to: Self.folder(of: stack).appendingPathComponent("notes.txt"))
        let reopened = try stack.reopened(model: try Self.model())
        #expect(Self.files(of: reopened) == (kept + ["notes.txt"]).sorted())
        #expect(try Self.photos(in: reopened)["a"]?.image == Self.bytes(Self.large, seed: 1))
    }

    @Test func aBatchUpdateReplacingValuesRemovesTheirFiles() throws {
        let stack = try TestStack(.sqlite, model: try Self.model())
        try Self.insert("a", image: Self.bytes(Self.large, seed: 1), in: stack)
        try Self.insert("b", image: Self.bytes(Self.large, seed: 2), in: stack)
        let context = stack.newContext()
        try context.performAndWait {
            let request = BatchUpdateRequest(entityName: "Photo")
            request.predicate = try FetchPredicate(format: "name == %@", "a")
            request.propertiesToUpdate = ["image": Data([9])]
            _ = try context.execute(request)
        }
        #expect(Self.files(of: stack).count == 1)
        let read = try Self.photos(in: stack)
        #expect(read["a"]?.image == Data([9]))
        #expect(read["b"]?.image == Self.bytes(Self.large, seed: 2))
    }

    @Test func copiesOfTheStoreTakeTheirFilesAndDestroyingRemovesThem() throws {
        let stack = try TestStack(.sqlite, model: try Self.model())
        let big = Self.bytes(Self.large, seed: 1)
        try Self.insert("a", image: big, in: stack)
        let coordinator = stack.container.persistentStoreCoordinator
        let store = try #require(coordinator.persistentStores.first)

        // Migrated to a new file: the values come along.
        let movedURL = stack.directory.file("Moved.sqlite")
        _ = try coordinator.migratePersistentStore(store, to: movedURL, type: .sqlite)
        #expect(try Self.photos(in: stack)["a"]?.image == big)
        let movedFolder = stack.directory.url.appendingPathComponent(".Moved_SUPPORT/_EXTERNAL_DATA")
        #expect(try FileManager.default.contentsOfDirectory(atPath: movedFolder.path).count == 1)

        // Replacing another store with it copies them too.
        let backupURL = stack.directory.file("Backup.sqlite")
        try coordinator.replacePersistentStore(at: backupURL, withPersistentStoreFrom: movedURL, type: .sqlite)
        let backup = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try backup.addPersistentStore(type: .sqlite, at: backupURL)
        let backupContext = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        backupContext.persistentStoreCoordinator = backup
        let backupImage = try backupContext.performAndWait { try backupContext.all(Photo.self).first?.image }
        #expect(backupImage == big)

        // Destroying the original store's file takes its folder with it.
        try coordinator.destroyPersistentStore(at: stack.storeURL, type: .sqlite)
        #expect(!FileManager.default.fileExists(atPath: stack.directory.url.appendingPathComponent(".Test_SUPPORT").path))
    }

    @Test func aMissingFileIsAnErrorNamingIt() throws {
        let stack = try TestStack(.sqlite, model: try Self.model())
        try Self.insert("a", image: Self.bytes(Self.large, seed: 1), in: stack)
        let name = try #require(Self.files(of: stack).first)
        try FileManager.default.removeItem(at: Self.folder(of: stack).appendingPathComponent(name))
        let context = stack.newContext()
        let outcome = context.performAndWait { Result { try context.all(Photo.self) } }
        #expect(throws: PersistentStoreError.self) { try outcome.get() }
        if case .failure(let error) = outcome {
            #expect("\(error)".contains(name) && "\(error)".contains("Photo.image"), "\(error)")
        }
    }
}

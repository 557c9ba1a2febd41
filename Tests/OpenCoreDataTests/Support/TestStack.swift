import Foundation
import OpenCoreData
import Testing

/// The stores the behaviour tests run against.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case inMemory

    var testDescription: String { rawValue }
}

/// A directory removed when the test that made it ends.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("OpenCoreDataTests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// A container on a fresh store, with helpers for running code on its contexts.
final class TestStack: Sendable {
    let container: PersistentContainer
    let directory: TemporaryDirectory
    let kind: StoreKind

    var storeURL: URL { directory.file("Test.sqlite") }

    /// What the store logs, SQL included, when made with `recordingSQL: true`.
    let log: LogRecorder?

    /// - Parameter storeType: A store type registered by the tests (see ``FailingReads``) instead
    ///   of the kind's.
    init(_ kind: StoreKind = .sqlite, model: ManagedObjectModel? = nil, directory: TemporaryDirectory = TemporaryDirectory(),
         recordingSQL: Bool = false, storeType: String? = nil) throws {
        self.kind = kind
        self.directory = directory
        container = PersistentContainer(name: "Test", managedObjectModel: try model ?? Fixtures.model())
        let description = PersistentStoreDescription(url: directory.file("Test.sqlite"))
        description.type = storeType ?? (kind == .sqlite ? SQLiteStoreType : InMemoryStoreType)
        log = recordingSQL ? LogRecorder() : nil
        description.logger = log?.logger()
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
    }

    /// A new container on the same SQLite file, as a relaunched app would open it.
    func reopened(model: ManagedObjectModel? = nil) throws -> TestStack {
        try TestStack(kind, model: model, directory: directory)
    }

    func newContext() -> ManagedObjectContext {
        container.newBackgroundContext()
    }
}

extension ManagedObjectContext {
    /// Fetches every object of a class's entity, ordered by key.
    func all<T: ManagedObject>(_ type: T.Type, sortedBy key: String? = nil) throws -> [T] {
        let request = T.fetchRequest()
        if let key { request.sortDescriptors = [FetchSortDescriptor(key: key)] }
        return try fetch(request)
    }
}

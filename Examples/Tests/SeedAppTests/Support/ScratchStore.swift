import ExampleSupport
import Foundation
import OpenCoreData

/// An app's store in a scratch directory, opened as the app opens it, with the SQL it runs
/// traced.
struct ScratchStore {
    let directory: ScratchDirectory
    let trace = SQLTrace()
    let container: PersistentContainer
    private let location: StoreLocation
    private let open: (StoreLocation, SQLTrace) throws -> PersistentContainer

    /// - Parameters:
    ///   - store: The app's store; its file is `<name>.sqlite` in the directory.
    ///   - inMemory: Uses the in-memory store instead of an SQLite file.
    init<Store: ExampleStore>(_ store: Store.Type, inMemory: Bool = false) throws {
        directory = try ScratchDirectory()
        location = inMemory ? .inMemory : .file(directory.file("\(Store.name).sqlite"))
        open = { try Store.open($0, trace: $1) }
        container = try Store.open(location, trace: trace)
    }

    /// The same store opened again in a new container, as the next launch of the app (or
    /// another process) opens it; an in-memory store starts empty again.
    func relaunched(trace: SQLTrace = SQLTrace()) throws -> PersistentContainer {
        try open(location, trace)
    }
}

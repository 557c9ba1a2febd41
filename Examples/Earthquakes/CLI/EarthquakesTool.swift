// The Earthquakes data layer on a terminal: `swift run --package-path Examples earthquakes --help`.
// The sample's list screen and refresh button become `list` and `import FILE`; its edit mode's
// delete becomes `delete CODE...`.
import ArgumentParser
import EarthquakesApp
import ExampleSupport
import Foundation
import OpenCoreData

@main
struct EarthquakesTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "earthquakes",
        abstract: "Earthquakes from a USGS GeoJSON feed, kept in an SQLite store through OpenCoreData.",
        discussion: """
            Download a feed yourself, for example \(QuakesProvider.feedURL?.absoluteString ?? "the USGS summary feed"), \
            and import the file.
            """,
        subcommands: [Import.self, List.self, Delete.self]
    )
}

/// `--store PATH`, shared by the commands.
struct StoreOption: ParsableArguments {
    @Option(name: .customLong("store"),
            help: ArgumentHelp("The store file (default: Earthquakes/Earthquakes.sqlite in the data directory).",
                               valueName: "path"))
    var path: String?

    func provider() throws -> QuakesProvider {
        try QuakesProvider(storeURL: path.map { URL(fileURLWithPath: $0) })
    }
}

extension EarthquakesTool {
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a GeoJSON feed: new quakes are added, known ones updated.")

        @OptionGroup var store: StoreOption
        @Argument(help: ArgumentHelp("The feed, a .geojson file.", valueName: "file"))
        var file: String

        func run() async throws {
            let provider = try store.provider()
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw ToolError.failure("cannot read \(file): \(error.localizedDescription)")
            }
            let before = try count(in: provider)
            do {
                try await provider.importQuakes(from: data)
            } catch let error as QuakeError {
                throw ToolError.failure(error.localizedDescription)
            }
            let after = try count(in: provider)
            print("Imported \(file): \(after - before) new quakes, \(after) in the store")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the quakes, newest first.")

        @OptionGroup var store: StoreOption
        @Option(help: ArgumentHelp("How many quakes to list.", valueName: "count"))
        var limit = 20

        func validate() throws {
            guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
        }

        func run() async throws {
            let provider = try store.provider()
            let context = provider.container.newBackgroundContext()
            let limit = limit
            let lines = try context.performAndWait {
                let request = FetchRequest<Quake>(entityName: "Quake")
                request.sortDescriptors = [FetchSortDescriptor(key: "time", ascending: false)]
                request.fetchLimit = limit
                return try context.fetch(request).map { quake in
                    let magnitude = String(format: "%.1f", quake.magnitude)
                    return "M \(magnitude)  \(quake.time.formatted(.iso8601))  \(quake.place)  [\(quake.code)]"
                }
            }
            print("\(try count(in: provider)) quakes, newest first")
            lines.forEach { print($0) }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete quakes by code, in one batch delete.")

        @OptionGroup var store: StoreOption
        @Argument(help: ArgumentHelp("The codes of the quakes to delete.", valueName: "code"))
        var codes: [String]

        func run() async throws {
            let provider = try store.provider()
            let context = provider.container.newBackgroundContext()
            let codes = codes
            let found = try context.performAndWait {
                let request = FetchRequest<Quake>(entityName: "Quake")
                request.predicate = try FetchPredicate(format: "code IN %@", codes)
                return try context.fetch(request).map { ($0.objectID, $0.code) }
            }
            let missing = Set(codes).subtracting(found.map(\.1))
            guard missing.isEmpty else {
                throw ToolError.failure("no quake with the code \(missing.sorted().joined(separator: ", ")); nothing deleted")
            }
            try await provider.deleteQuakes(identifiedBy: found.map(\.0))
            print("Deleted \(found.count) quakes, \(try count(in: provider)) left")
        }
    }
}

/// The number of quakes in the store.
private func count(in provider: QuakesProvider) throws -> Int {
    let context = provider.container.newBackgroundContext()
    return try context.performAndWait { try context.count(for: FetchRequest<Quake>(entityName: "Quake")) }
}

// swift-tools-version:6.1
import PackageDescription

// The examples: the World Cup web page, the four seed apps' tools and the data layer of Apple's
// Earthquakes sample, each with its tests. A package of its own, so that Hummingbird, the
// service lifecycle and the argument parser stay out of the library's dependencies; it uses the
// library from this repository, by path.
//
// Target kinds, so the manifest reads like a map of the package:
// - example: a sample app, run with `swift run --package-path Examples NAME`;
// - test: a test target, run by `swift test --package-path Examples`.
// - test-support: code the test targets share.
let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// The products every target names, from the root package and the argument parser.
let openCoreData = Target.Dependency.product(name: "OpenCoreData", package: "OpenCoreData")
let fetchedResultsChecking = Target.Dependency.product(name: "FetchedResultsChecking", package: "OpenCoreData")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
// The PostgreSQL store: an empty module unless the `Postgres` trait is on (see the traits below).
let openCoreDataPostgres = Target.Dependency.product(name: "OpenCoreDataPostgres", package: "OpenCoreData")
// What each seed app's library uses: the library, the shared example code, and the argument
// parser for its tool's commands.
let seedAppDependencies: [Target.Dependency] = [openCoreData, "ExampleSupport", argumentParser]

let package = Package(
    name: "OpenCoreDataExamples",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "worldcup", targets: ["WorldCupServer"]),
        .executable(name: "worldcup-load", targets: ["WorldCupLoad"]),
        .executable(name: "done", targets: ["DoneCLI"]),
        .executable(name: "carvalet", targets: ["CarValetCLI"]),
        .executable(name: "failedbanks", targets: ["FailedBanksCLI"]),
        .executable(name: "recipes", targets: ["RecipesCLI"]),
        .executable(name: "earthquakes", targets: ["EarthquakesCLI"]),
    ],
    // `--traits Postgres` gives the tools and `worldcup` the PostgreSQL store (`--store
    // postgres://…`) by turning on the root package's trait of the same name; off, nothing of
    // postgres-nio is resolved or built, and a postgres:// store is refused with an error.
    traits: [
        .trait(name: "Postgres", description: "The PostgreSQL store for --store postgres://…, through the root package's Postgres trait."),
    ],
    dependencies: [
        // The repository's root package. Named, so that the name below holds whatever the
        // clone's folder is called (a path dependency's identity is its folder's name).
        .package(
            name: "OpenCoreData",
            path: "..",
            traits: [.trait(name: "Postgres", condition: .when(traits: ["Postgres"]))]
        ),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The World Cup web example; no traits, so swift-configuration is not built.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The World Cup server's connection guards sit in SwiftNIO's channel pipeline.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        // example: the World Cup scoreboard as a live web page: the model, the seed, the controller
        // turned into change batches, the Hummingbird routes, the page and the command line;
        // tested by WorldCupTests.
        .target(
            name: "WorldCupApp",
            dependencies: [
                openCoreData,
                "ExampleSupport",
                argumentParser,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            path: "WorldCup/App",
            resources: [.copy("Assets")],
            swiftSettings: strictSwift
        ),
        // example: the README's first command, `swift run --package-path Examples worldcup`: the
        // World Cup server.
        .executableTarget(
            name: "WorldCupServer",
            dependencies: [
                "WorldCupApp",
                "ExampleSupport",
                argumentParser,
            ],
            path: "WorldCup/Server",
            swiftSettings: strictSwift
        ),
        // example: the World Cup's load tool, `swift run --package-path Examples -c release
        // worldcup-load`: 500 pages and clicks at full speed against a running server, reported as
        // clicks/s and click-to-page latency.
        .executableTarget(
            name: "WorldCupLoad",
            dependencies: [
                "WorldCupApp",
                argumentParser,
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "WorldCup/Load",
            swiftSettings: strictSwift
        ),
        // example: what the four sample tools share: opening the store (`--store PATH`, an SQL
        // trace with `--sql`), row numbers as the user types them, the errors of a command that
        // cannot be done (exit status 1; a bad command line is the argument parser's, 64), a
        // stand-in for a table view, and a one-section list screen over a fetched results
        // controller, saving with rollback.
        .target(
            name: "ExampleSupport",
            dependencies: [
                openCoreData,
                openCoreDataPostgres,
                argumentParser,
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Support",
            swiftSettings: strictSwift
        ),
        // example: Done (seed 001), the to-do list: its model, list and commands, tested in-process.
        .target(
            name: "DoneApp",
            dependencies: seedAppDependencies,
            path: "Done/App",
            swiftSettings: strictSwift
        ),
        // example: the Done tool (`swift run --package-path Examples done add "milk"`, `list`,
        // `done 1`, `delete 1`).
        .executableTarget(
            name: "DoneCLI",
            dependencies: ["DoneApp"],
            path: "Done/CLI",
            swiftSettings: strictSwift
        ),
        // example: CarValet (seed 002), the cars table: its model, table and commands, tested in-process.
        .target(
            name: "CarValetApp",
            dependencies: seedAppDependencies,
            path: "CarValet/App",
            swiftSettings: strictSwift
        ),
        // example: the CarValet tool (`swift run --package-path Examples carvalet add Ford "Model T"
        // 1927`, `list`, `delete 1`).
        .executableTarget(
            name: "CarValetCLI",
            dependencies: ["CarValetApp"],
            path: "CarValet/CLI",
            swiftSettings: strictSwift
        ),
        // example: Failed Banks (seed 003), its model, import, bank list and tool, driven by the tests.
        .target(
            name: "FailedBanksApp",
            dependencies: seedAppDependencies,
            path: "FailedBanks/App",
            swiftSettings: strictSwift
        ),
        // example: the Failed Banks command line (`swift run --package-path Examples failedbanks`).
        .executableTarget(
            name: "FailedBanksCLI",
            dependencies: ["FailedBanksApp"],
            path: "FailedBanks/CLI",
            swiftSettings: strictSwift
        ),
        // example: Recipes (seed 000), its model, sample recipes, sectioned list and tool, driven by the tests.
        .target(
            name: "RecipesApp",
            dependencies: seedAppDependencies,
            path: "Recipes/App",
            swiftSettings: strictSwift
        ),
        // example: the Recipes command line (`swift run --package-path Examples recipes`).
        .executableTarget(
            name: "RecipesCLI",
            dependencies: ["RecipesApp"],
            path: "Recipes/CLI",
            swiftSettings: strictSwift
        ),
        // example: Earthquakes, the data layer of Apple's "Loading and Displaying a Large Data Feed":
        // its model file, the USGS GeoJSON feed, batch import and delete, and the history merge.
        .target(
            name: "EarthquakesApp",
            dependencies: [
                openCoreData,
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Earthquakes/App",
            resources: [.copy("Earthquakes.xcdatamodeld")],
            swiftSettings: strictSwift
        ),
        // example: the Earthquakes tool (`swift run --package-path Examples earthquakes import
        // all_month.geojson`, `list`, `delete CODE`).
        .executableTarget(
            name: "EarthquakesCLI",
            dependencies: ["EarthquakesApp", "ExampleSupport", openCoreData, argumentParser],
            path: "Earthquakes/CLI",
            swiftSettings: strictSwift
        ),
        // test-support: a store of a test's own for the tools and servers the tests run, an SQLite
        // file or (with the `Postgres` trait) a PostgreSQL schema.
        .target(
            name: "ExampleTestSupport",
            path: "Tests/Support",
            swiftSettings: strictSwift
        ),
        // test: the seed apps driven as their seeds drive them, their controllers' batches checked
        // with the batch-update simulator, and their tools run as child processes.
        .testTarget(
            name: "SeedAppTests",
            dependencies: [
                openCoreData,
                fetchedResultsChecking,
                "ExampleSupport",
                "ExampleTestSupport",
                "DoneApp",
                "DoneCLI",
                "CarValetApp",
                "CarValetCLI",
                "FailedBanksApp",
                "FailedBanksCLI",
                "RecipesApp",
                "RecipesCLI",
            ],
            path: "Tests/SeedAppTests",
            swiftSettings: strictSwift
        ),
        // test: the Earthquakes data layer on an SQLite store: imports, upserts, batch deletes and
        // the history merge, seen through a fetched results controller checked with the simulator.
        .testTarget(
            name: "EarthquakesTests",
            dependencies: [
                "EarthquakesApp",
                openCoreData,
                fetchedResultsChecking,
            ],
            path: "Tests/EarthquakesTests",
            swiftSettings: strictSwift
        ),
        // test: the World Cup server through its routes and its command line, its change batches
        // through the batch-update simulator, its page in headless Chromium, and two servers
        // sharing a store.
        .testTarget(
            name: "WorldCupTests",
            dependencies: [
                "WorldCupApp",
                "ExampleSupport",
                "ExampleTestSupport",
                openCoreData,
                fetchedResultsChecking,
                argumentParser,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/WorldCupTests",
            exclude: ["Browser"],
            swiftSettings: strictSwift
        ),
    ]
)

// swift-tools-version:6.1
import PackageDescription

// Target kinds, so the manifest reads like a map of the package:
// - exported: a library module users import;
// - test: a test target, run by `swift test`;
// - example: a sample app, run with `swift run`;
// - benchmark: an executable that measures, run with `swift run -c release`;
// - test-support: code the tests share with other targets, or an executable they drive.
let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "OpenCoreData",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "OpenCoreData", targets: ["OpenCoreData"]),
        .executable(name: "ocd-bench", targets: ["OCDBench"]),
        .executable(name: "worldcup", targets: ["WorldCupServer"]),
        .executable(name: "done", targets: ["DoneCLI"]),
        .executable(name: "carvalet", targets: ["CarValetCLI"]),
        .executable(name: "failedbanks", targets: ["FailedBanksCLI"]),
        .executable(name: "recipes", targets: ["RecipesCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The World Cup web example; no traits, so swift-configuration is not built.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // exported: the object graph, its contexts and the SQLite and in-memory stores.
        .target(
            name: "OpenCoreData",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                // The SQLite C API, for binding new rows' values without building arguments.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // example: the World Cup scoreboard as a live web page: the model, the seed, the controller
        // turned into change batches, the Hummingbird routes and the page; tested by WorldCupTests.
        .target(
            name: "WorldCupApp",
            dependencies: [
                "OpenCoreData",
                "ExampleSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Examples/WorldCup/App",
            resources: [.copy("Assets")],
            swiftSettings: strictSwift
        ),
        // example: the README's first command, `swift run worldcup`: the World Cup server.
        .executableTarget(
            name: "WorldCupServer",
            dependencies: ["WorldCupApp", "ExampleSupport"],
            path: "Examples/WorldCup/Server",
            swiftSettings: strictSwift
        ),
        // example: what the four sample tools share: opening the store (`--store PATH`, an SQL
        // trace with `--sql`), the command line and its exit statuses (64 for a bad command line,
        // 1 for a command that cannot be done), a stand-in for a table view, and a one-section
        // list screen over a fetched results controller, saving with rollback.
        .target(
            name: "ExampleSupport",
            dependencies: [
                "OpenCoreData",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/Support",
            swiftSettings: strictSwift
        ),
        // example: Done (seed 001), the to-do list: its model, list and commands, tested in-process.
        .target(
            name: "DoneApp",
            dependencies: ["OpenCoreData", "ExampleSupport"],
            path: "Examples/Done/App",
            swiftSettings: strictSwift
        ),
        // example: the Done tool (`swift run done add "milk"`, `list`, `done 1`, `delete 1`).
        .executableTarget(
            name: "DoneCLI",
            dependencies: ["DoneApp"],
            path: "Examples/Done/CLI",
            swiftSettings: strictSwift
        ),
        // example: CarValet (seed 002), the cars table: its model, table and commands, tested in-process.
        .target(
            name: "CarValetApp",
            dependencies: ["OpenCoreData", "ExampleSupport"],
            path: "Examples/CarValet/App",
            swiftSettings: strictSwift
        ),
        // example: the CarValet tool (`swift run carvalet add Ford "Model T" 1927`, `list`, `delete 1`).
        .executableTarget(
            name: "CarValetCLI",
            dependencies: ["CarValetApp"],
            path: "Examples/CarValet/CLI",
            swiftSettings: strictSwift
        ),
        // example: Failed Banks (seed 003), its model, import, bank list and tool, driven by the tests.
        .target(
            name: "FailedBanksApp",
            dependencies: ["OpenCoreData", "ExampleSupport"],
            path: "Examples/FailedBanks/App",
            swiftSettings: strictSwift
        ),
        // example: the Failed Banks command line (`swift run failedbanks`).
        .executableTarget(
            name: "FailedBanksCLI",
            dependencies: ["FailedBanksApp"],
            path: "Examples/FailedBanks/CLI",
            swiftSettings: strictSwift
        ),
        // example: Recipes (seed 000), its model, sample recipes, sectioned list and tool, driven by the tests.
        .target(
            name: "RecipesApp",
            dependencies: ["OpenCoreData", "ExampleSupport"],
            path: "Examples/Recipes/App",
            swiftSettings: strictSwift
        ),
        // example: the Recipes command line (`swift run recipes`).
        .executableTarget(
            name: "RecipesCLI",
            dependencies: ["RecipesApp"],
            path: "Examples/Recipes/CLI",
            swiftSettings: strictSwift
        ),
        // benchmark: the controller against raw SQLite and refetch-and-diff (`swift run -c release ocd-bench`),
        // and the fuzzer at scale (`--fuzz-batches`).
        .executableTarget(
            name: "OCDBench",
            dependencies: [
                "OpenCoreData",
                "FetchedResultsChecking",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/OCDBench",
            swiftSettings: strictSwift
        ),
        // test-support: the batch-update simulator, the recording delegates and the controller's
        // differential fuzzer, shared by the tests and ocd-bench; not a product.
        .target(
            name: "FetchedResultsChecking",
            dependencies: ["OpenCoreData"],
            swiftSettings: strictSwift
        ),
        // test-support: a writer the crash tests kill with SIGKILL in the middle of saves.
        .executableTarget(
            name: "CrashTestWriter",
            dependencies: ["OpenCoreData"],
            path: "Tests/CrashTestWriter",
            swiftSettings: strictSwift
        ),
        // test
        .testTarget(
            name: "OpenCoreDataTests",
            dependencies: [
                "OpenCoreData",
                "FetchedResultsChecking",
                "CrashTestWriter",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // test: the seed apps driven as their seeds drive them, their controllers' batches checked
        // with the batch-update simulator, and their tools run as child processes.
        .testTarget(
            name: "SeedAppTests",
            dependencies: [
                "OpenCoreData",
                "FetchedResultsChecking",
                "ExampleSupport",
                "DoneApp",
                "DoneCLI",
                "CarValetApp",
                "CarValetCLI",
                "FailedBanksApp",
                "FailedBanksCLI",
                "RecipesApp",
                "RecipesCLI",
            ],
            swiftSettings: strictSwift
        ),
        // test: the World Cup server through its routes, its change batches through the
        // batch-update simulator, and its page in headless Chromium.
        .testTarget(
            name: "WorldCupTests",
            dependencies: [
                "WorldCupApp",
                "ExampleSupport",
                "OpenCoreData",
                "FetchedResultsChecking",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
            ],
            exclude: ["Browser"],
            swiftSettings: strictSwift
        ),
    ]
)

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
        .executable(name: "failedbanks", targets: ["FailedBanksCLI"]),
        .executable(name: "recipes", targets: ["RecipesCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // exported: the object graph, its contexts and the SQLite and in-memory stores.
        .target(
            name: "OpenCoreData",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // example: the World Cup scoreboard, the README's first command (`swift run WorldCup`).
        .executableTarget(
            name: "WorldCup",
            dependencies: ["OpenCoreData"],
            path: "Examples/WorldCup",
            swiftSettings: strictSwift
        ),
        // example: what the Failed Banks and Recipes apps share: opening a store (with an SQL
        // trace), command-line parsing and exit codes, and a stand-in for a table view.
        .target(
            name: "SampleAppSupport",
            dependencies: [
                "OpenCoreData",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/SampleAppSupport",
            swiftSettings: strictSwift
        ),
        // example: Failed Banks (seed 003), its model, import and bank list, driven by the tests.
        .target(
            name: "FailedBanksApp",
            dependencies: ["OpenCoreData", "SampleAppSupport"],
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
        // example: Recipes (seed 000), its model, sample recipes and sectioned list, driven by the tests.
        .target(
            name: "RecipesApp",
            dependencies: ["OpenCoreData", "SampleAppSupport"],
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
        // test: the sample apps driven the way their seeds drive them, in process and through
        // their command lines.
        .testTarget(
            name: "SeedAppTests",
            dependencies: [
                "OpenCoreData",
                "FetchedResultsChecking",
                "SampleAppSupport",
                "FailedBanksApp",
                "FailedBanksCLI",
                "RecipesApp",
                "RecipesCLI",
            ],
            swiftSettings: strictSwift
        ),
    ]
)

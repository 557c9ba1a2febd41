// swift-tools-version:6.1
import PackageDescription

// The library alone: a package that depends on OpenCoreData resolves GRDB and swift-log and
// nothing else (`Scripts/check-dependencies` shows it). The examples and the benchmark are
// packages of their own, `Examples/` and `Benchmarks/`, which depend on this one by path.
//
// Target kinds, so the manifest reads like a map of the package:
// - exported: a library module users import;
// - test: a test target, run by `swift test`;
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
        // For the Examples and Benchmarks packages; a package that uses only OpenCoreData
        // builds none of it.
        .library(name: "FetchedResultsChecking", targets: ["FetchedResultsChecking"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
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
        // test-support: the batch-update simulator, the recording delegates and the controller's
        // differential fuzzer, shared by the tests, the examples' tests and ocd-bench.
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
        // test-support: writers that insert constrained keys into one store at once, from
        // several processes.
        .executableTarget(
            name: "ConstraintTestWriter",
            dependencies: ["OpenCoreData"],
            path: "Tests/ConstraintTestWriter",
            swiftSettings: strictSwift
        ),
        // test-support: another process committing to the fuzz store, for the cross-process
        // differential tests.
        .executableTarget(
            name: "CrossProcessTestWriter",
            dependencies: ["FetchedResultsChecking"],
            path: "Tests/CrossProcessTestWriter",
            swiftSettings: strictSwift
        ),
        // test: a module that declares its own `protocol Managed`, as apps following a widely
        // taught Core Data pattern do; it compiles only if they can still declare properties.
        .testTarget(
            name: "PortingPatternTests",
            dependencies: ["OpenCoreData"],
            swiftSettings: strictSwift
        ),
        // test
        .testTarget(
            name: "OpenCoreDataTests",
            dependencies: [
                "OpenCoreData",
                "FetchedResultsChecking",
                "CrashTestWriter",
                "ConstraintTestWriter",
                "CrossProcessTestWriter",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
    ]
)

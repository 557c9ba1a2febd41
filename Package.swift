// swift-tools-version:6.1
import PackageDescription

// The library alone: a package that depends on OpenCoreData resolves GRDB and swift-log and
// nothing else (`Scripts/check-dependencies` shows it). The examples and the benchmark are
// packages of their own, `Examples/` and `Benchmarks/`, which depend on this one by path.
//
// The PostgreSQL store (`OpenCoreDataPostgres`) needs postgres-nio, which SwiftPM would resolve
// for every user if a product simply depended on it. So it sits behind the package trait
// `Postgres`, off by default: a user who leaves it off resolves and builds none of postgres-nio
// (the module then compiles empty); a user who wants the store writes
// `.package(url: ..., from: ..., traits: ["Postgres"])` and depends on `OpenCoreDataPostgres`.
// Here, `swift build --traits Postgres` (Scripts/test does). Docs/PostgresStore.md, "Packaging".
//
// Target kinds, so the manifest reads like a map of the package:
// - exported: a library module users import;
// - tool: a command-line program, run with `swift run NAME`;
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
        // `swift run ocd` here, or in a package that depends on this one.
        .executable(name: "ocd", targets: ["ocd"]),
        // The PostgreSQL store; empty unless the `Postgres` trait is on.
        .library(name: "OpenCoreDataPostgres", targets: ["OpenCoreDataPostgres"]),
    ],
    traits: [
        .trait(
            name: "Postgres",
            description: "The PostgreSQL store (OpenCoreDataPostgres), through vapor/postgres-nio."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Only with the `Postgres` trait: resolved by no one who leaves it off.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
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
        // exported: the PostgreSQL store. Its sources are inside `#if Postgres`, so that without
        // the trait it compiles empty and postgres-nio is neither resolved nor built. One trait
        // per condition: `.when(traits: ["A", "B"])` was broken before SwiftPM 6.2.1.
        .target(
            name: "OpenCoreDataPostgres",
            dependencies: [
                "OpenCoreData",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
            ],
            swiftSettings: strictSwift
        ),
        // tool: `ocd`, which inspects and watches any store without the app's classes: SQLite, and
        // PostgreSQL with the `Postgres` trait. It uses the library alone, so it adds no
        // dependency (arguments are parsed by hand).
        .executableTarget(
            name: "ocd",
            dependencies: ["OpenCoreData", "OpenCoreDataPostgres"],
            swiftSettings: strictSwift
        ),
        // test-support: the batch-update simulator, the recording delegates and the controller's
        // differential fuzzer, shared by the tests, the examples' tests and ocd-bench.
        .target(
            name: "FetchedResultsChecking",
            dependencies: ["OpenCoreData", "OpenCoreDataPostgres"],
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
            dependencies: ["OpenCoreData", "OpenCoreDataPostgres"],
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
        // test: the PostgreSQL store against a real server (OCD_POSTGRES_URL; Scripts/test starts
        // one). Empty without the `Postgres` trait.
        .testTarget(
            name: "OpenCoreDataPostgresTests",
            dependencies: [
                "OpenCoreData",
                "OpenCoreDataPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
            ],
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
                // Built first, so that the tests can run it (Tool/Ocd*Tests).
                "ocd",
                "OpenCoreDataPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // Model files in Xcode's format, copied as they are (Docs/ModelFiles.md).
            resources: [
                .copy("ModelFiles/Library.xcdatamodeld"), .copy("ModelFiles/Shelves.xcdatamodel"),
                .copy("ModelFiles/Garden.xcdatamodeld"),
            ],
            swiftSettings: strictSwift
        ),
    ]
)

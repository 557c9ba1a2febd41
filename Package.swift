// swift-tools-version:6.1
import PackageDescription

// Target kinds, so the manifest reads like a map of the package:
// - exported: a library module users import;
// - test: a test target, run by `swift test`;
// - example: a sample app, run with `swift run`;
// - benchmark: an executable that measures, run with `swift run -c release`;
// - test-support: an executable the tests drive as a child process.
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
                // The SQLite C API, for binding new rows' values without building arguments.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
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
        // benchmark: the controller against raw SQLite and refetch-and-diff (`swift run -c release ocd-bench`).
        .executableTarget(
            name: "OCDBench",
            dependencies: [
                "OpenCoreData",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/OCDBench",
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
                "CrashTestWriter",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
    ]
)

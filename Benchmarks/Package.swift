// swift-tools-version:6.1
import PackageDescription

// The benchmark: a package of its own, so that the library's users never resolve what it uses.
// It measures the library from this repository, by path.
//
// Target kinds, so the manifest reads like a map of the package:
// - benchmark: an executable that measures, run with
//   `swift run --package-path Benchmarks -c release ocd-bench`;
// - test: a test target, run by `swift test --package-path Benchmarks`.
//
// The trait `Postgres` (off by default) turns on the library's own `Postgres` trait and adds the
// PostgreSQL store and postgres-nio, for `ocd-bench --store postgres://...`:
// `swift build --package-path Benchmarks -c release --traits Postgres`. Without it, nothing of
// postgres-nio is resolved or built, and the code for PostgreSQL (inside `#if Postgres`) is not
// compiled.
let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "OpenCoreDataBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "ocd-bench", targets: ["OCDBench"]),
    ],
    traits: [
        .trait(
            name: "Postgres",
            description: "ocd-bench --store postgres://: the PostgreSQL store beside raw postgres-nio."
        ),
    ],
    dependencies: [
        // The repository's root package. Named, so that the name below holds whatever the
        // clone's folder is called (a path dependency's identity is its folder's name).
        .package(
            name: "OpenCoreData",
            path: "..",
            traits: [.trait(name: "Postgres", condition: .when(traits: ["Postgres"]))]
        ),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Only with the `Postgres` trait: the raw baseline beside the PostgreSQL store.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // benchmark: the controller against raw SQLite and refetch-and-diff, and the fuzzer at
        // scale (`--fuzz-batches`).
        .executableTarget(
            name: "OCDBench",
            dependencies: [
                .product(name: "OpenCoreData", package: "OpenCoreData"),
                .product(name: "FetchedResultsChecking", package: "OpenCoreData"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(
                    name: "OpenCoreDataPostgres",
                    package: "OpenCoreData",
                    condition: .when(traits: ["Postgres"])
                ),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
            ],
            path: "OCDBench",
            swiftSettings: strictSwift
        ),
        // test: ocd-bench's command line, and a few fuzzer batches as a smoke test; the timings
        // are run by CI's smoke run and by hand.
        .testTarget(
            name: "OCDBenchTests",
            dependencies: [
                "OCDBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/OCDBenchTests",
            swiftSettings: strictSwift
        ),
    ]
)

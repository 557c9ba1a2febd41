// swift-tools-version:6.1
import PackageDescription

// The predicate fuzzer: a package of its own, like Examples/ and Benchmarks/, so that the
// library's users never resolve or build it. Scripts/fuzz-predicates builds it with libFuzzer
// (`swift build --sanitize=fuzzer`, Linux) and runs it; see that script.
let package = Package(
    name: "OpenCoreDataFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The repository's root package, named so that the name holds whatever the clone's
        // folder is called.
        .package(name: "OpenCoreData", path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // The fuzz target: `LLVMFuzzerTestOneInput`, with libFuzzer's `main`.
        .executableTarget(
            name: "PredicateFuzzer",
            dependencies: [
                .product(name: "OpenCoreData", package: "OpenCoreData"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "PredicateFuzzer",
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
    ]
)

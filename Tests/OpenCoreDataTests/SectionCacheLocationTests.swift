import Foundation
@testable import OpenCoreData
import Testing

/// Where section caches live, and how cache names become directory names.
///
/// Each test makes its own ``SectionCacheLocation`` under a temporary directory; only
/// `overrideIsProcessWide` touches the process-wide override, and restores it.
@Suite struct SectionCacheLocationTests {
    static let hostileNames = [
        "plain", "with space", "a/b", "a%2Fb", "/", "//", ".", "..", "...", "../..", "../../etc/passwd", "",
        "a\u{0}b", "\u{0}", "🎉", "🎉🎉", "Ünïcødé", "~tilde", "%", "%25", "%2E", "CAPS", "caps",
        String(repeating: "long", count: 80), String(repeating: "long", count: 80) + "!", String(repeating: "🎉", count: 60),
    ]

    @Test func namesBecomeDistinctSafeDirectoriesInsideTheRoot() throws {
        let directory = TemporaryDirectory()
        let location = SectionCacheLocation(root: directory.url)
        var seen: [String: String] = [:]
        for name in Self.hostileNames {
            let escaped = SectionCacheLocation.escapedName(name)
            #expect(escaped != "." && escaped != ".." && !escaped.isEmpty, "\(name.debugDescription) → \(escaped)")
            #expect(escaped.utf8.count <= SectionCacheLocation.maximumNameLength)
            #expect(escaped.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || "0123456789._-%~".unicodeScalars.contains($0)) })
            #expect(seen[escaped] == nil, "\(name.debugDescription) and \(seen[escaped]?.debugDescription ?? "") both map to \(escaped)")
            seen[escaped] = name
            let file = location.fileURL(forCacheName: name)
            #expect(file.lastPathComponent == "sectionInfo")
            #expect(file.deletingLastPathComponent().lastPathComponent == escaped)
            #expect(file.deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.path == directory.url.standardizedFileURL.path)
        }
        #expect(SectionCacheLocation.escapedName("Team-cache_1.0") == "Team-cache_1.0")
        #expect(SectionCacheLocation.escapedName("a/b c") == "a%2Fb%20c")
    }

    /// The file system takes every escaped name, and each cache keeps its own file.
    @Test func everyNameGetsItsOwnFile() throws {
        let directory = TemporaryDirectory()
        let writer = SectionCacheWriter(location: SectionCacheLocation(root: directory.url))
        for (index, name) in Self.hostileNames.enumerated() {
            writer.write(SectionCacheFileTests.contents(sections: [], generation: Int64(index)), cacheName: name)
        }
        writer.waitUntilIdle()
        #expect(writer.filesWritten == Self.hostileNames.count)
        for (index, name) in Self.hostileNames.enumerated() {
            #expect(try writer.read(cacheName: name)?.get().storeGeneration == Int64(index), "\(name.debugDescription)")
        }
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(entries.count == Self.hostileNames.count)
    }

    @Test func theDefaultRootFollowsXDG() {
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        let xdg = SectionCacheLocation.defaultRoot(environment: ["XDG_CACHE_HOME": "/var/cache/me"], processName: "MyApp")
        #expect(xdg.path == "/var/cache/me/MyApp/.CoreDataCaches/SectionInfoCaches")
        let unset = SectionCacheLocation.defaultRoot(environment: [:], processName: "MyApp")
        #expect(unset.path == home + "/.cache/MyApp/.CoreDataCaches/SectionInfoCaches")
        let relative = SectionCacheLocation.defaultRoot(environment: ["XDG_CACHE_HOME": "relative/dir"], processName: "My App")
        #expect(relative.path == home + "/.cache/My%20App/.CoreDataCaches/SectionInfoCaches")
    }

    @Test func overrideIsProcessWide() {
        let saved = SectionCacheLocation.overrideRoot
        defer { SectionCacheLocation.overrideRoot = saved }
        let directory = TemporaryDirectory()
        SectionCacheLocation.overrideRoot = directory.url
        #expect(SectionCacheLocation.current.root == directory.url)
        SectionCacheLocation.overrideRoot = nil
        #expect(SectionCacheLocation.current.root == SectionCacheLocation.defaultRoot())
    }

    @Test func deletingOneCacheOrAll() throws {
        let directory = TemporaryDirectory()
        let root = directory.url.appendingPathComponent("caches", isDirectory: true)
        let location = SectionCacheLocation(root: root)
        // Nothing there yet: no error.
        try location.deleteCache(named: "absent")
        try location.deleteCache(named: nil)

        let writer = SectionCacheWriter(location: location)
        for name in ["one", "two", ".."] {
            writer.write(SectionCacheFileTests.small, cacheName: name)
        }
        writer.waitUntilIdle()
        try location.deleteCache(named: "one")
        #expect(writer.read(cacheName: "one") == nil)
        #expect(writer.read(cacheName: "two") != nil)
        try location.deleteCache(named: "..")
        #expect(FileManager.default.fileExists(atPath: root.path))
        #expect(writer.read(cacheName: "two") != nil)
        try location.deleteCache(named: nil)
        #expect(!FileManager.default.fileExists(atPath: root.path))
        #expect(FileManager.default.fileExists(atPath: directory.url.path))
        try location.deleteCache(named: nil)
    }
}

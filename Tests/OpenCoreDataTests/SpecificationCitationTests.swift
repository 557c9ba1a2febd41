import Foundation
import Testing

/// Tests cite the fetched results controller's behaviour by identifier (`// DEL-04: …`); each
/// identifier must lead to its statement in Docs/FetchedResultsBehavior.md, so that a reader of a
/// test can find what it checks and a change of behaviour has one place to be written down.
///
/// Every Swift file of the repository is scanned, not only the test targets: the test-support
/// code cites identifiers too, and the tests may move (the examples' own packages have `Tests`
/// directories of their own).
@Suite struct SpecificationCitationTests {
    /// Words of the same shape that are not citations: text encodings (`UTF-16`).
    private static let notCitations: Set<String> = ["UTF", "UCS"]

    private static let behaviorPath = "Docs/FetchedResultsBehavior.md"

    @Test func everyCitedIdentifierIsDefinedInTheBehaviorDocument() throws {
        let root = try Self.repositoryRoot()
        let defined = try Self.definedIdentifiers(root: root)
        var undefined: [String: Set<String>] = [:]
        for file in Self.swiftFiles(under: root) {
            let text = try String(contentsOf: file, encoding: .utf8)
            for cited in Self.citedIdentifiers(in: text) where !defined.contains(cited) {
                undefined[cited, default: []].insert(Self.relativePath(of: file, root: root))
            }
        }
        let report = undefined.keys.sorted().map { id in
            "\(id) (cited in \(undefined[id, default: []].sorted().joined(separator: ", ")))"
        }
        #expect(report.isEmpty, """
            \(report.count) identifier(s) cited but not defined by a heading in \(Self.behaviorPath): \
            \(report.joined(separator: "; ")). Add the behaviour there, or correct the citation.
            """)
    }

    @Test func everyIdentifierIsDefinedOnce() throws {
        let headings = try Self.headingIdentifiers(root: Self.repositoryRoot())
        let repeated = Dictionary(grouping: headings, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "defined more than once in \(Self.behaviorPath): \(repeated.joined(separator: ", "))")
    }

    @Test func theScanFindsTheTestsCitations() throws {
        // A scan that silently found no files would pass the first test; the controller's tests
        // cite dozens of identifiers.
        let root = try Self.repositoryRoot()
        let cited = try Self.swiftFiles(under: root).reduce(into: Set<String>()) { cited, file in
            cited.formUnion(Self.citedIdentifiers(in: try String(contentsOf: file, encoding: .utf8)))
        }
        #expect(cited.count >= 50, "found only \(cited.count) cited identifiers under \(root.path)")
    }

    // MARK: Reading the repository

    /// The directory holding the behaviour document, found upwards from this file.
    private static func repositoryRoot(from file: String = #filePath) throws -> URL {
        var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(behaviorPath).path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        throw CitationScanError("no \(behaviorPath) in any directory above \(file)")
    }

    private static func headingIdentifiers(root: URL) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(behaviorPath), encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasPrefix("#") }.flatMap { citedIdentifiers(in: String($0)) }
    }

    private static func definedIdentifiers(root: URL) throws -> Set<String> {
        Set(try headingIdentifiers(root: root))
    }

    /// Identifiers such as `API-01`, `CHG-15`, `PERF-08`: a group of two to five capitals, a dash,
    /// two digits. (The regex is made here: a `Regex` is not `Sendable`, so it cannot be a static.)
    private static func citedIdentifiers(in text: String) -> [String] {
        text.matches(of: /\b([A-Z]{2,5})-([0-9]{2})\b/).compactMap { match in
            notCitations.contains(String(match.output.1)) ? nil : String(match.output.0)
        }
    }

    /// Swift files under `root`, leaving out hidden directories (`.build`, `.git`, `.swiftpm`).
    private static func swiftFiles(under root: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil,
                                                              options: [.skipsHiddenFiles]) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    private static func relativePath(of file: URL, root: URL) -> String {
        let path = file.standardizedFileURL.path
        let prefix = root.standardizedFileURL.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

private struct CitationScanError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

import Foundation

/// Finds model files among a bundle's resources, as Core Data finds `.momd`s in an app bundle.
enum ModelFileSearch {
    /// The `.xcdatamodeld` packages and lone `.xcdatamodel`s at the top of the bundle's
    /// resources, sorted by name.
    static func modelFiles(in bundle: Bundle) -> [URL] {
        let roots = [bundle.resourceURL, bundle.bundleURL].compactMap { $0?.standardizedFileURL }
        var found: [URL] = []
        for root in Set(roots).sorted(by: { $0.path < $1.path }) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".xcdatamodel") {
                found.append(root.appendingPathComponent(name, isDirectory: true))
            }
        }
        return found
    }

    /// The model file named `name` (`name.xcdatamodeld`, else `name.xcdatamodel`) in the main
    /// bundle or in a resource bundle beside it (SwiftPM's `Package_Target.resources`, or a
    /// `.bundle`).
    static func modelFile(named name: String) throws(ModelError) -> URL {
        var bundles = [Bundle.main]
        let beside = Bundle.main.bundleURL
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: beside.path)) ?? []
        for entry in entries.sorted() where entry.hasSuffix(".resources") || entry.hasSuffix(".bundle") {
            if let bundle = Bundle(path: beside.appendingPathComponent(entry).path) { bundles.append(bundle) }
        }
        var matches: [URL] = []
        for bundle in bundles {
            let files = modelFiles(in: bundle)
            if let file = files.first(where: { $0.lastPathComponent == "\(name).xcdatamodeld" })
                ?? files.first(where: { $0.lastPathComponent == "\(name).xcdatamodel" }) {
                matches.append(file)
            }
        }
        guard let first = matches.first else {
            throw ModelError(ModelError.invalidModelFile, "no \(name).xcdatamodeld in \(beside.path) or the resource bundles beside it; add it to a target's resources with .copy(\"\(name).xcdatamodeld\"), or pass its URL with ManagedObjectModel(contentsOf:)")
        }
        guard Set(matches).count == 1 else {
            throw ModelError(ModelError.invalidModelFile, "\(name).xcdatamodeld is in more than one bundle (\(matches.map(\.path).joined(separator: ", "))); load the one you mean with ManagedObjectModel(contentsOf:)")
        }
        return first
    }

    /// The modules whose classes a model file's unqualified class names may mean: the module of
    /// the SwiftPM resource bundle that holds the file (SwiftPM names a target's bundle
    /// `Package_Target.resources`, or `.bundle` on Apple platforms; either part may hold `_`, so
    /// every suffix is a candidate), then the main executable's.
    static func candidateModules(for url: URL) -> [String] {
        var modules: [String] = []
        var directory = url.standardizedFileURL
        while directory.pathComponents.count > 1 {
            if ["resources", "bundle"].contains(directory.pathExtension) {
                let parts = directory.deletingPathExtension().lastPathComponent.split(separator: "_")
                for start in 1..<max(parts.count, 1) {
                    modules.append(parts[start...].joined(separator: "_"))
                }
                break
            }
            directory.deleteLastPathComponent()
        }
        if let executable = Bundle.main.executableURL?.lastPathComponent, !executable.isEmpty {
            modules.append(executable.replacingOccurrences(of: "-", with: "_"))
        }
        return modules
    }
}

import Foundation

/// Where a model's XML is, given the URL an app names: an `.xcdatamodeld` package (the version
/// its `.xccurrentversion` names, or its only version), an `.xcdatamodel` version, or the
/// `contents` file itself. Also the model's name: the package's, which its versions share.
struct ModelFilePackage {
    /// The `contents` file to parse.
    var contentsURL: URL
    /// The `.xcdatamodeld`'s name without extension, or the lone `.xcdatamodel`'s.
    var modelName: String

    init(locating url: URL) throws(ModelError) {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelError(ModelError.invalidModelFile, "there is no model at \(url.path)")
        }
        switch url.pathExtension {
        case "xcdatamodeld":
            let version = try Self.currentVersion(in: url)
            contentsURL = version.appendingPathComponent("contents")
            modelName = url.deletingPathExtension().lastPathComponent
        case "xcdatamodel":
            contentsURL = url.appendingPathComponent("contents")
            let parent = url.deletingLastPathComponent()
            modelName = (parent.pathExtension == "xcdatamodeld" ? parent : url).deletingPathExtension().lastPathComponent
        case "momd", "mom", "omo":
            throw ModelError(ModelError.invalidModelFile, "\(url.path) is a model compiled by Xcode's momc, which only Core Data reads; ship the .xcdatamodeld itself (see the article Shipping a Model File)")
        default:
            guard !isDirectory.boolValue else {
                throw ModelError(ModelError.invalidModelFile, "\(url.path) is neither an .xcdatamodeld nor an .xcdatamodel")
            }
            contentsURL = url
            let version = url.deletingLastPathComponent()
            let package = version.deletingLastPathComponent()
            modelName = (package.pathExtension == "xcdatamodeld" ? package : version).deletingPathExtension().lastPathComponent
        }
        guard fileManager.fileExists(atPath: contentsURL.path) else {
            throw ModelError(ModelError.invalidModelFile, "\(contentsURL.deletingLastPathComponent().path) has no contents file")
        }
    }

    /// The current version's XML, parsed.
    func readContents() throws(ModelError) -> ModelFileElement {
        let data: Data
        do {
            data = try Data(contentsOf: contentsURL)
        } catch {
            throw ModelError(ModelError.invalidModelFile, "\(contentsURL.path) cannot be read: \(error.localizedDescription)")
        }
        return try ModelFileElement.parse(data, file: contentsURL)
    }

    /// The versions inside an `.xcdatamodeld`, sorted by name.
    private static func versions(in package: URL) throws(ModelError) -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: package.path)
        } catch {
            throw ModelError(ModelError.invalidModelFile, "\(package.path) cannot be read: \(error.localizedDescription)")
        }
        return names.filter { $0.hasSuffix(".xcdatamodel") }.sorted()
            .map { package.appendingPathComponent($0, isDirectory: true) }
    }

    /// The version `.xccurrentversion` names (`_XCCurrentVersionName`), or the only one.
    private static func currentVersion(in package: URL) throws(ModelError) -> URL {
        let versions = try versions(in: package)
        let marker = package.appendingPathComponent(".xccurrentversion")
        guard let data = FileManager.default.contents(atPath: marker.path) else {
            guard versions.count == 1, let only = versions.first else {
                throw ModelError(ModelError.invalidModelFile, "\(package.path) has \(versions.count) versions and no .xccurrentversion to say which is current")
            }
            return only
        }
        let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
        guard let name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String else {
            throw ModelError(ModelError.invalidModelFile, "\(marker.path) is not a property list naming _XCCurrentVersionName")
        }
        guard let current = versions.first(where: { $0.lastPathComponent == name }) else {
            throw ModelError(ModelError.invalidModelFile, "\(marker.path) names the current version \(name), which \(package.lastPathComponent) does not hold")
        }
        return current
    }
}

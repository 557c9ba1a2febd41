import Foundation
import OpenCoreData

// The classes of ModelFiles/Library.xcdatamodeld's current version, as an app declares them
// beside its model file. Each entity names its class in another of the three forms Xcode writes
// (".LibraryAuthor", "OpenCoreDataTests.LibraryBook", "LibraryItem"); Tag has none.

final class LibraryAuthor: ManagedObject {
    @Managed var born: Date?
    @Managed var name: String
    @Managed(inverse: "author", deleteRule: .cascade, maxCount: 500) var books: Set<LibraryBook>
}

class LibraryItem: ManagedObject {
    @Managed var identifier: UUID?
    @Managed var title: String = "Untitled"
}

final class LibraryBook: LibraryItem {
    @Managed var cover: Data?
    @Managed var edition: Int16 = 1
    @Managed var inPrint: Bool = true
    @Managed var isbn: String?
    @Managed var pages: Int32 = 0
    @Managed var price: Decimal?
    @Managed var rating: Double = 0
    @Managed var serial: Int64 = 0
    @Managed var website: URL?
    @Managed var weight: Float = 0.5
    @Managed(inverse: "books") var author: LibraryAuthor?
}

/// Where the test bundle keeps its model files.
enum ModelFiles {
    static var library: URL {
        get throws { try resource("Library.xcdatamodeld") }
    }

    static func resource(_ name: String) throws -> URL {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
        }
        return url
    }

    /// Writes `body` (the elements inside `<model>`) as a one-version model file in Xcode's format.
    static func write(_ body: String, in directory: TemporaryDirectory, name: String = "Sample",
                      modelAttributes: String = "") throws -> URL {
        let version = directory.url.appendingPathComponent("\(name).xcdatamodeld/\(name).xcdatamodel", isDirectory: true)
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" \
            systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier=""\(modelAttributes)>
            \(body)
            </model>
            """
        try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        return version.deletingLastPathComponent()
    }
}

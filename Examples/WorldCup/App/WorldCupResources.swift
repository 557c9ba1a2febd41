import Foundation

/// The files under `Assets/`: the seed and the page's HTML, scripts and style sheet. (Not
/// `Resources/`: Foundation on Linux takes a bundle's `Resources` folder for the bundle's own.)
enum WorldCupResources {
    /// The contents of a bundled file.
    static func data(named name: String) throws -> Data {
        let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Assets")
        guard let url, let data = FileManager.default.contents(atPath: url.path) else {
            throw WorldCupError.missingResource(name)
        }
        return data
    }

    /// The contents of a bundled text file.
    static func text(named name: String) throws -> String {
        String(decoding: try data(named: name), as: UTF8.self)
    }
}

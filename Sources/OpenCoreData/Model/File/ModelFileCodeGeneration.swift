package import Foundation

/// What a model file tells Xcode's code generation, which the model itself does not keep: for
/// each entity, whether Xcode writes its class (`codeGenerationType`), and which number
/// attributes use scalar types (`usesScalarValueType`). `ocd generate` reads it.
package struct ModelFileCodeGeneration: Sendable {
    /// Xcode's three choices for an entity ("Codegen" in the model editor).
    package enum Kind: String, Sendable {
        /// `class`: Xcode writes the class and its properties.
        case classDefinition
        /// `category`: the app writes the class; Xcode writes its properties, in an extension.
        case propertiesExtension
        /// No `codeGenerationType`: the app writes everything.
        case manual
    }

    package struct Entity: Sendable {
        package var name: String
        package var kind: Kind
        /// Attributes declared `usesScalarValueType="YES"`.
        package var scalarAttributes: Set<String>
    }

    /// The `.xcdatamodeld` or `.xcdatamodel`'s name, and the version read.
    package var modelName: String
    package var versionName: String
    package var entities: [Entity]
    /// The model the file declares, compiled, its entities bound to no class: what the
    /// generated classes are written from.
    package let model: ManagedObjectModel

    /// Reads the model file at `url` (its current version) once: its model, and its generation
    /// settings.
    package init(contentsOf url: URL) throws(ModelError) {
        let package = try ModelFilePackage(locating: url)
        let root = try package.readContents()
        model = try ModelFileReader.model(from: root, in: package)
        // Resolves relationships' destinations, which the classes name.
        try model.compile()
        modelName = package.modelName
        versionName = package.contentsURL.deletingLastPathComponent().deletingPathExtension().lastPathComponent
        entities = try root.children(named: "entity").map { element throws(ModelError) in
            let name = element.attributes["name"] ?? ""
            let kind: Kind
            switch element.attributes["codeGenerationType"] {
            case nil: kind = .manual
            case "class": kind = .classDefinition
            case "category": kind = .propertiesExtension
            case let other?:
                throw ModelError(ModelError.invalidModelFile, "entity \(name) (line \(element.line)): codeGenerationType=\"\(other)\" is neither class nor category")
            }
            let scalars = element.children(named: "attribute")
                .filter { $0.attributes["usesScalarValueType"] == "YES" }
                .compactMap { $0.attributes["name"] }
            return Entity(name: name, kind: kind, scalarAttributes: Set(scalars))
        }
    }
}

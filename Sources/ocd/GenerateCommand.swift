import Foundation
import OpenCoreData

/// `ocd generate MODEL --output DIR`: writes the classes of a model file's entities as Xcode's
/// code generation does, with `@Managed` properties in place of `@NSManaged` ones.
enum GenerateCommand {
    static func run(_ arguments: Arguments) throws(ToolError) {
        let modelURL = URL(fileURLWithPath: arguments.storePath)
        let output = URL(fileURLWithPath: try arguments.required("output"), isDirectory: true)
        let generation: ModelFileCodeGeneration
        do {
            generation = try ModelFileCodeGeneration(contentsOf: modelURL)
        } catch {
            throw .failure("\(error)")
        }
        try requireCustomClasses(generation)
        let files = SwiftClassWriter(generation: generation).files()
        do {
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            for file in files {
                try Data(file.text.utf8).write(to: output.appendingPathComponent(file.name), options: .atomic)
            }
        } catch {
            throw .failure("cannot write to \(output.path): \(error.localizedDescription)")
        }
        for file in files { Output.line(output.appendingPathComponent(file.name).path) }
    }

    /// Xcode declares a transformable attribute without a custom class as `NSObject?`, which a
    /// `@Managed` property cannot hold: the file must name the value's type.
    private static func requireCustomClasses(_ generation: ModelFileCodeGeneration) throws(ToolError) {
        for setting in generation.entities where setting.kind != .manual {
            guard let entity = generation.model.entitiesByName[setting.name] else { continue }
            for case let attribute as AttributeDescription in entity.properties
            where attribute.attributeType == .transformable && (attribute.attributeValueClassName ?? "").isEmpty {
                throw .failure("\(entity.entityName).\(attribute.name) is Transformable with no Custom Class; set its Custom Class in the model editor to the value's type (a ManagedCodableValue such as [String], or a type your transformer reads back)")
            }
        }
    }
}

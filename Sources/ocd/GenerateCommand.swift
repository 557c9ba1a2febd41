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
}

import Foundation

// `ocd`: reads and watches an OpenCoreData store, read-only, without the app's classes, and
// writes the classes of a Core Data model file.
// The commands are in Command.swift, the usage in Usage.swift.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first.map({ ["help", "--help", "-h"].contains($0) }) ?? false {
    Output.line(Usage.text)
    exit(0)
}
do {
    let parsed = try Arguments(parsing: arguments)
    switch parsed.command {
    case .info: try InfoCommand.run(parsed)
    case .fetch: try FetchCommand.run(parsed)
    case .history: try HistoryCommand.run(parsed)
    case .watch: try WatchCommand.run(parsed)
    case .generate: try GenerateCommand.run(parsed)
    }
    exit(0)
} catch {
    Output.error(error.message)
    exit(error.status)
}

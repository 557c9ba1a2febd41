import Foundation

/// The switch for checking that managed objects are used on their context's queue: Core Data's
/// `-com.apple.CoreData.ConcurrencyDebug 1`.
///
/// On by default in debug builds, off in release builds. The environment variable
/// `OCD_CONCURRENCY_DEBUG` overrides the default either way (`1` on, `0` off), and so does Core
/// Data's launch argument `-com.apple.CoreData.ConcurrencyDebug 1` (or `0`), kept for ported
/// schemes. Read once, when the first context is created; contexts created before a change keep
/// the setting they started with.
package enum ConcurrencyDebugging {
    static let isEnabled: Bool = decide(environment: ProcessInfo.processInfo.environment,
                                        arguments: CommandLine.arguments)

    static let environmentVariable = "OCD_CONCURRENCY_DEBUG"
    static let launchArgument = "-com.apple.CoreData.ConcurrencyDebug"

    package static func decide(environment: [String: String], arguments: [String]) -> Bool {
        if let value = environment[environmentVariable], let setting = setting(value) { return setting }
        if let index = arguments.firstIndex(of: launchArgument), index + 1 < arguments.count,
           let setting = setting(arguments[index + 1]) {
            return setting
        }
        #if DEBUG
        return true
        #else
        return false
        #endif
    }

    /// `1`, `yes`, `true` or `on` turn the check on; `0`, `no`, `false` or `off` turn it off;
    /// anything else leaves the default.
    private static func setting(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "1", "yes", "true", "on": true
        case "0", "no", "false", "off": false
        default: nil
        }
    }
}

// The other process of the cross-process differential tests: a `CardWriter` on the store whose
// path (or PostgreSQL URL) is the only argument, committing what its standard input asks.
//
// Usage: CrossProcessTestWriter <store path or postgres:// URL>

import FetchedResultsChecking
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: CrossProcessTestWriter <store path or postgres:// URL>\n".utf8))
    exit(64)
}
exit(CardWriter.run(storeLocation: arguments[1]))

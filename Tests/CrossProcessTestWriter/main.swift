// The other process of the cross-process differential tests: a `CardWriter` on the store whose
// path is the only argument, committing what its standard input asks.
//
// Usage: CrossProcessTestWriter <store path>

import FetchedResultsChecking
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: CrossProcessTestWriter <store path>\n".utf8))
    exit(64)
}
exit(CardWriter.run(storePath: arguments[1]))

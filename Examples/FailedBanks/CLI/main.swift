// Failed Banks (seed 003) on a terminal: `swift run failedbanks --help`.
import FailedBanksApp
import Foundation

exit(FailedBanksCommand.main(Array(CommandLine.arguments.dropFirst())))

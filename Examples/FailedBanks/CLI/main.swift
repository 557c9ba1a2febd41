// Failed Banks (seed 003) on a terminal: `swift run --package-path Examples failedbanks --help`.
// FailedBanksApp holds the model, the list and the tool, so that the tests can run them
// in-process too.
import FailedBanksApp

FailedBanksTool.main()

public import ExampleSupport
public import OpenCoreData

/// The Failed Banks app's model and store: `FailedBankInfo` and `FailedBankDetails`, in
/// `<data directory>/FailedBanks/FailedBanks.sqlite` by default.
public enum FailedBanksStore: ExampleStore {
    /// `FailedBanks`.
    public static let name = "FailedBanks"
    /// A bank and its details.
    public static var managedObjectClasses: [ManagedObject.Type] { [FailedBankInfo.self, FailedBankDetails.self] }
}

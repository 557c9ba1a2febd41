public import OpenCoreData
public import SampleAppSupport

/// The Failed Banks app's model and store: `FailedBankInfo` and `FailedBankDetails`, in
/// `FailedBanks.sqlite` by default.
public enum FailedBanksStore: SampleAppStore {
    public static let name = "FailedBanks"
    public static var managedObjectClasses: [ManagedObject.Type] { [FailedBankInfo.self, FailedBankDetails.self] }
}

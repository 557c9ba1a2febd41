public import OpenCoreData

/// A failed bank as the list shows it: the seed's `FailedBankInfo`. What the list does not show
/// lives in ``details``, so that a screen of banks loads only what it displays.
public final class FailedBankInfo: ManagedObject {
    /// The bank's name.
    @Managed public var name: String
    /// The city of its head office.
    @Managed public var city: String
    /// The state's two-letter code.
    @Managed public var state: String
    /// When it closed and more; deleting the bank deletes them too.
    @Managed(inverse: "info", deleteRule: .cascade) public var details: FailedBankDetails?
}

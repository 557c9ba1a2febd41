public import Foundation
public import OpenCoreData

/// The rest of a failed bank's record: the seed's `FailedBankDetails`. The list is sorted by its
/// ``closeDate``, through the ``info`` relationship's inverse.
public final class FailedBankDetails: ManagedObject {
    /// The day the regulator closed the bank.
    @Managed public var closeDate: Date
    /// The day the record was last updated.
    @Managed public var updatedDate: Date
    /// The head office's ZIP code.
    @Managed public var zip: Int32 = 0
    /// The bank these details belong to.
    @Managed(inverse: "details") public var info: FailedBankInfo?
}

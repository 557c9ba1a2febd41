public import OpenCoreData

/// A row for the fetched results fuzzer: a section key that may be nil, sort keys with ties, a
/// flag the predicate reads, and a note nothing reads. The controller's behaviour tests use it
/// too, in the test fixtures' model.
public final class Card: ManagedObject {
    /// The section key; nil is a section of its own.
    @Managed public var deck: String?
    /// A sort key with many ties.
    @Managed public var rank: Int32 = 0
    /// The tie-break, and the name tests give a card.
    @Managed public var title: String = ""
    /// What the predicates read.
    @Managed public var visible: Bool = true
    /// Read by nothing: a change to it must not move a row.
    @Managed public var note: String?
}

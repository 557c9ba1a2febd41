public import ExampleSupport
public import OpenCoreData

/// The Done app's model and store: the to-do ``Item``, in `<data directory>/Done/Done.sqlite` by
/// default.
public enum DoneStore: ExampleStore {
    /// `Done`.
    public static let name = "Done"
    /// The to-do ``Item``.
    public static var managedObjectClasses: [ManagedObject.Type] { [Item.self] }
}

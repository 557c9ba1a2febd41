public import ExampleSupport
public import OpenCoreData

/// The CarValet app's model and store: the ``Car``, in `<data directory>/CarValet/CarValet.sqlite`
/// by default.
public enum CarValetStore: ExampleStore {
    /// `CarValet`.
    public static let name = "CarValet"
    /// The ``Car``.
    public static var managedObjectClasses: [ManagedObject.Type] { [Car.self] }
}

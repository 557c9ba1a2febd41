public import ExampleSupport
public import OpenCoreData

/// The World Cup's model and store: `~/.local/share/WorldCup/WorldCup.sqlite` by default, opened
/// as every example opens its store.
public enum WorldCupStore: ExampleStore {
    /// `WorldCup`: it names the container and the store's directory and file.
    public static let name = "WorldCup"
    /// The one entity, ``Team``.
    public static let managedObjectClasses: [ManagedObject.Type] = [Team.self]
}

public import ExampleSupport
public import OpenCoreData

/// The World Cup's model and store: `~/.local/share/WorldCup/WorldCup.sqlite` by default, opened
/// as every example opens its store.
public enum WorldCupStore: ExampleStore {
    public static let name = "WorldCup"
    public static let managedObjectClasses: [ManagedObject.Type] = [Team.self]
}

public import Foundation
public import OpenCoreData

/// One earthquake of the USGS feed: the `Quake` entity of `Earthquakes.xcdatamodeld`.
///
/// The model file's Codegen is Manual/None, so the class is written here, as the sample writes
/// it; the entity's `representedClassName` binds it. A quake is stored once per ``code``: the
/// entity's uniqueness constraint makes a later import of the same code update the row.
///
/// ```swift
/// let request = FetchRequest<Quake>(entityName: "Quake")
/// request.sortDescriptors = [FetchSortDescriptor(key: "time", ascending: false)]
/// let latest = try viewContext.fetch(request).first?.place
/// ```
public class Quake: ManagedObject {
    /// The magnitude on the scale the feed reports (`mag`).
    @Managed public var magnitude: Float
    /// Where it happened, as the feed words it ("12 km NE of Pāhala, Hawaii").
    @Managed public var place: String
    /// When it happened.
    @Managed public var time: Date
    /// The feed's identifier of the quake, unique among quakes.
    @Managed public var code: String
}

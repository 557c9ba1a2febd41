/// What `ocd watch --json` prints, one JSON object per line: `ready` once the controller has
/// fetched, then `changes` for each batch, and `failure` when the controller could not follow a
/// change (it catches up by itself; the next `changes` is valid for the list as it was).
struct WatchMessage: Encodable {
    struct Section: Encodable {
        var name: String
        /// The objects' IDs (URIs), in order.
        var objects: [String]
    }

    struct SectionChange: Encodable {
        /// `insert` or `delete`.
        var type: String
        /// The old index of a deleted section, the new index of an inserted one.
        var sectionIndex: Int
        var name: String
    }

    struct ObjectChange: Encodable {
        /// `insert`, `delete`, `move` or `update`.
        var type: String
        var object: String
        /// `[section, row]` before the batch; nil for an insert.
        var indexPath: [Int]?
        /// `[section, row]` after the batch; nil for a delete, and for an update in place.
        var newIndexPath: [Int]?
        /// The object's values after the batch; nil for a delete.
        var values: [String: JSONValue]?
    }

    /// `ready`, `changes` or `failure`.
    var event: String
    /// For `ready`: the sections and their objects.
    var sections: [Section]?
    /// For `ready`: the store's history token when the fetch began; `ocd history --after` takes it.
    var token: String?
    /// For `changes`: section deletes then inserts, then object deletes, inserts, moves and
    /// updates, in the order the delegate heard them. Applied with UIKit's batch-update rules to
    /// the list before, they give the list after.
    var sectionChanges: [SectionChange]?
    var objectChanges: [ObjectChange]?
    /// For `failure`: what went wrong.
    var message: String?
}

/// Why the scoreboard refused a request, with a reason a person can act on.
///
/// The routes turn each kind into an HTTP status and the WebSocket into an error frame; the
/// server keeps serving either way.
public struct WorldCupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, which decides the HTTP status.
    public enum Kind: Sendable, Equatable {
        /// A name or zone that is empty, too long or holds control characters (400).
        case invalidInput
        /// A request body or WebSocket message that is not the JSON expected (400).
        case malformedRequest
        /// No team has that ID (404).
        case unknownTeam
        /// A team of that name already exists (409).
        case duplicateTeam
        /// Concurrent saves of the same team kept coming first; the request may be tried
        /// again (503, with `Retry-After`).
        case busy
        /// A file the example ships is missing from its bundle.
        case missingResource
    }

    /// What went wrong.
    public let kind: Kind
    /// The reason, for the response body or the error frame.
    public let reason: String

    /// An error of a kind, with its reason.
    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The reason alone, so that logs and interpolations read as the page does.
    public var description: String { reason }

    static func missingResource(_ name: String) -> WorldCupError {
        WorldCupError(.missingResource, "the example's bundle has no Assets/\(name); rebuild it with `swift build`")
    }
}

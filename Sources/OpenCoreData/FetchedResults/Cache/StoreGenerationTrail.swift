/// Which store generation a controller's rows are known to match, followed commit by commit: a
/// section cache may be written only at that generation, so that it never claims to include a
/// commit the rows miss.
///
/// It starts at the generation read before the fetch (a commit that lands between that read and
/// the fetch only makes it behind, which is safe) or at the generation of the cache restored. Each
/// commit the controller's context makes or merges, heard with the generations around it, moves
/// it on when it starts where the trail is. Commits are heard in the order the context applies
/// them, which need not be the order they were committed in (a context may save before merging
/// an earlier save of another context): one that starts later waits until the commits before it
/// are heard. A commit nobody here hears (another process, a program writing the file, a context
/// whose saves this one never merges) leaves a gap that nothing fills: the trail then stays
/// behind the store, and the cache is not written until the next fetch.
struct StoreGenerationTrail: Sendable {
    /// The generation the rows match, or nil when unknown.
    private(set) var generation: Int64?
    /// Commits heard that start after ``generation``, by the generation they start at.
    private var waiting: [Int64: Int64] = [:]
    /// Beyond this many waiting commits, the gap is taken as permanent.
    static let maximumWaiting = 64

    init(generation: Int64?) {
        self.generation = generation
    }

    /// Notes a commit the rows now include, by the store generations before and after it.
    mutating func follow(commitFrom before: Int64, to after: Int64) {
        guard var current = generation, after > current else { return }
        guard before == current else {
            waiting[before] = after
            if waiting.count > Self.maximumWaiting { self = StoreGenerationTrail(generation: nil) }
            return
        }
        current = after
        while let next = waiting.removeValue(forKey: current) { current = next }
        generation = current
    }
}

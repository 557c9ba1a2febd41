/// The store generation just before and just after one commit.
///
/// A store's generation changes with every commit, whoever makes it (see
/// ``PersistentStoreBackend/generation()``). A reader that knows the store's contents at
/// generation `g` and hears a commit whose ``before`` is `g` knows the contents at ``after``;
/// a commit whose ``before`` is later than `g` means someone else committed in between, and
/// whatever the reader holds misses that.
package struct CommitGenerations: Equatable, Sendable {
    package var before: Int64
    package var after: Int64

    package init(before: Int64, after: Int64) {
        self.before = before
        self.after = after
    }
}

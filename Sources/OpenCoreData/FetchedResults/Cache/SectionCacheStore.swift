/// Placeholder until the section cache lands.
final class SectionCacheStore: @unchecked Sendable {
    static let shared = SectionCacheStore()
    func delete(named name: String?) {}
}

import Foundation

/// A dictionary result: the keys, shared by every result of a fetch, and this row's values, as
/// Core Data's `NSKnownKeysDictionary` is. Bridging a Swift dictionary to `NSDictionary` for each
/// row cost ten times reading the row on Linux's Foundation; this is one object and one array.
///
/// It answers `NSDictionary`'s primitives (`count`, `object(forKey:)`, `keyEnumerator()`), which
/// everything else of `NSDictionary` (subscripts, `allKeys`, equality, bridging to
/// `[String: Any]`) is built on. A key without a value (a NULL) is absent, as in Core Data.
final class KnownKeysDictionary: NSDictionary {
    /// The keys of a fetch's results, in the order of `propertiesToFetch`.
    final class Keys {
        let names: [String]

        init(_ names: [String]) { self.names = names }
    }

    private let keys: Keys
    /// One per key; nil where the row has no value.
    private let values: [Any?]

    init(keys: Keys, values: [Any?]) {
        self.keys = keys
        self.values = values
        super.init(objects: nil, forKeys: nil, count: 0)
    }

    required init(objects: UnsafePointer<AnyObject>!, forKeys keys: UnsafePointer<NSObject>!, count: Int) {
        // `NSDictionary`'s initializers copy dictionaries through this one: a plain dictionary
        // is what they make.
        self.keys = Keys([])
        self.values = []
        super.init(objects: objects, forKeys: keys, count: count)
    }

    required init?(coder: NSCoder) {
        nil
    }

    override var count: Int {
        values.reduce(0) { $1 == nil ? $0 : $0 + 1 }
    }

    override func object(forKey key: Any) -> Any? {
        let name: String
        switch key {
        case let text as String: name = text
        case let text as NSString: name = String(text)
        default: return nil
        }
        guard let index = keys.names.firstIndex(of: name) else { return nil }
        return values[index]
    }

    override func keyEnumerator() -> NSEnumerator {
        NSArray(array: zip(keys.names, values).compactMap { name, value in value == nil ? nil : name }).objectEnumerator()
    }
}

/// Reads the XML attributes of one model-file element and remembers which it read, so that an
/// attribute the library does not understand is reported instead of dropped.
struct ModelFileAttributes {
    private let element: ModelFileElement
    /// Where the element is, for errors: "entity Book, attribute title (line 12)".
    let place: String
    private var read: Set<String> = []

    init(_ element: ModelFileElement, place: String) {
        self.element = element
        self.place = place
    }

    /// The attributes of an element that must have a `name`, with a place that names it:
    /// `place(name)` once the name is read, `unnamed` in the error when it is missing.
    static func named(_ element: ModelFileElement, unnamed: String,
                      place: (String) -> String) throws(ModelError) -> (name: String, fields: ModelFileAttributes) {
        var unnamedFields = ModelFileAttributes(element, place: "\(unnamed) (line \(element.line))")
        let name = try unnamedFields.required("name")
        var fields = ModelFileAttributes(element, place: "\(place(name)) (line \(element.line))")
        _ = fields.string("name")
        return (name, fields)
    }

    mutating func string(_ key: String) -> String? {
        read.insert(key)
        return element.attributes[key]
    }

    mutating func required(_ key: String) throws(ModelError) -> String {
        guard let value = string(key), !value.isEmpty else {
            throw ModelError(ModelError.invalidModelFile, "\(place) has no \(key)")
        }
        return value
    }

    /// Xcode writes Booleans as `YES` and `NO`, and leaves them out when they are the default.
    mutating func flag(_ key: String, default defaultValue: Bool = false) throws(ModelError) -> Bool {
        switch string(key) {
        case nil: return defaultValue
        case "YES": return true
        case "NO": return false
        case let other?:
            throw ModelError(ModelError.invalidModelFile, "\(place): \(key)=\"\(other)\" is neither YES nor NO")
        }
    }

    mutating func integer(_ key: String) throws(ModelError) -> Int? {
        guard let text = string(key) else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw ModelError(ModelError.invalidModelFile, "\(place): \(key)=\"\(text)\" is not a count")
        }
        return value
    }

    /// Marks attributes as read that only Xcode's editor or Apple-only services use (the
    /// diagram's positions, CloudKit, Spotlight): they change nothing about the store or the
    /// objects, so leaving them out loses nothing.
    mutating func ignore(_ keys: [String]) {
        read.formUnion(keys)
    }

    /// Throws for the first attribute no reader asked for.
    func finish() throws(ModelError) {
        if let unknown = element.attributes.keys.sorted().first(where: { !read.contains($0) }) {
            throw ModelError(ModelError.unsupportedFeature,
                             "\(place): the attribute \(unknown)=\"\(element.attributes[unknown] ?? "")\" is not supported")
        }
    }
}

extension ModelFileElement {
    /// Throws for a child element none of `names` allows, naming it and where it is.
    func requireChildren(among names: Set<String>, place: String) throws(ModelError) {
        if let unknown = children.first(where: { !names.contains($0.name) }) {
            throw ModelError(ModelError.unsupportedFeature,
                             "\(place): the element <\(unknown.name)> (line \(unknown.line)) is not supported")
        }
    }

    func children(named name: String) -> [ModelFileElement] {
        children.filter { $0.name == name }
    }
}

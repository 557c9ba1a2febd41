import Foundation
import OpenCoreData

/// The request `fetch` and `watch` run, from `--entity`, `--predicate`, `--sort` and `--limit`,
/// checked against the store's model.
enum FetchSpecification {
    static func request(_ arguments: Arguments, in store: OpenedStore) throws(ToolError) -> FetchRequest<ManagedObject> {
        let entity = try store.entity(named: try arguments.required("entity"))
        let request = FetchRequest<ManagedObject>(entityName: entity.name ?? "")
        request.entity = entity
        if let format = arguments.value("predicate") {
            do {
                request.predicate = try FetchPredicate(format: format)
            } catch {
                throw ToolError(error)
            }
        }
        if let sort = arguments.value("sort") {
            request.sortDescriptors = try sortDescriptors(sort, of: entity)
        }
        if let limit = try arguments.positiveInteger("limit") {
            request.fetchLimit = limit
        }
        return request
    }

    /// `"k1,k2 desc"`: keys separated by commas, each followed by `asc` (the default) or `desc`.
    static func sortDescriptors(_ text: String, of entity: EntityDescription) throws(ToolError) -> [FetchSortDescriptor] {
        var descriptors: [FetchSortDescriptor] = []
        for term in text.split(separator: ",", omittingEmptySubsequences: false) {
            let words = term.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let key = words.first, words.count <= 2 else {
                throw .usage("--sort \"\(text)\": '\(term.trimmingCharacters(in: .whitespaces))' is not a key followed by an optional asc or desc")
            }
            let ascending: Bool
            switch words.dropFirst().first?.lowercased() {
            case nil, "asc": ascending = true
            case "desc": ascending = false
            case let direction?: throw .usage("--sort \"\(text)\": '\(direction)' after \(key) is not asc or desc")
            }
            let property = String(key.prefix { $0 != "." })
            guard entity.propertiesByName[property] != nil else {
                throw .usage("--sort: \(entity.name ?? "the entity") has no property '\(property)'; its properties are \(entity.propertiesByName.keys.sorted().joined(separator: ", "))")
            }
            descriptors.append(FetchSortDescriptor(key: key, ascending: ascending))
        }
        return descriptors
    }
}

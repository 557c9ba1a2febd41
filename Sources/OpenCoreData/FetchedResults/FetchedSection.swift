/// A section as a controller reports it: a value, fixed when read.
struct FetchedSection: FetchedResultsSectionInfo {
    let name: String
    let indexTitle: String?
    let numberOfObjects: Int
    let loadObjects: () -> [Any]

    init(name: String, indexTitle: String?, numberOfObjects: Int, loadObjects: @escaping () -> [Any]) {
        self.name = name
        self.indexTitle = indexTitle
        self.numberOfObjects = numberOfObjects
        self.loadObjects = loadObjects
    }

    var objects: [Any]? { loadObjects() }
}

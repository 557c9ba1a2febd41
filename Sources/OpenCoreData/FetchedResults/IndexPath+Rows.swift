public import Foundation

#if !canImport(UIKit)
extension IndexPath {
    /// An index path for a row in a section, as UIKit builds them.
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// An index path for an item in a section, as UIKit's collection views build them.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The section: the first index.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The row in the section: the second index.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The item in the section: the second index.
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
#endif

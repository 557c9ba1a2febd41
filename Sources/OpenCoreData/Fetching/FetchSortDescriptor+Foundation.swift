public import Foundation

extension FetchSortDescriptor {
    /// Converts a Foundation `SortDescriptor` over a `ManagedObject` subclass.
    ///
    /// ```swift
    /// request.sortDescriptors = [
    ///     try FetchSortDescriptor(SortDescriptor(\Team.qualifyingZone)),
    ///     try FetchSortDescriptor(SortDescriptor(\Team.wins, order: .reverse)),
    ///     try FetchSortDescriptor(SortDescriptor(\Team.coach?.name)),
    /// ]
    /// ```
    ///
    /// A string comparator with the case-insensitive option becomes ``Comparison/caseInsensitive``;
    /// one with the numeric option ``Comparison/localizedStandard``; others compare bytes.
    ///
    /// - Throws: ``FetchRequestError/unsupportedExpression`` if the descriptor has no key path or
    ///   its key path is not made of `@Managed` properties.
    public init<Root: ManagedObject>(_ descriptor: SortDescriptor<Root>) throws {
        guard let keyPath = descriptor.keyPath else {
            throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                    "a SortDescriptor without a key path cannot be fetched by")
        }
        let names = KeyPathNames.names(of: keyPath, rootClass: Root.self)
        guard !names.isEmpty else {
            throw FetchRequestError(FetchRequestError.unsupportedExpression,
                                    "\(keyPath) is not a @Managed property of \(Root.self), so it cannot be sorted by")
        }
        self.init(key: names.joined(separator: "."), ascending: descriptor.order == .forward,
                  comparison: Self.comparison(in: descriptor))
    }

    /// The string comparison a descriptor uses; Foundation keeps it private, so it is found by
    /// reflection.
    private static func comparison(in value: Any) -> Comparison {
        if value is String.StandardComparator {
            let options = Mirror(reflecting: value).children.first { $0.label == "options" }?.value as? String.CompareOptions ?? []
            if options.contains(.numeric) { return .localizedStandard }
            return options.contains(.caseInsensitive) ? .caseInsensitive : .binary
        }
        for child in Mirror(reflecting: value).children {
            let found = comparison(in: child.value)
            if found != .binary { return found }
        }
        return .binary
    }
}

public import Foundation

/// A change the cars table refuses; the store is left as it was.
public enum CarValetError: Error, Equatable, CustomStringConvertible {
    /// No row is at this index path; `count` is how many rows there are.
    case noSuchCar(IndexPath, count: Int)

    /// What the user reads: which car is missing, and which numbers there are.
    public var description: String {
        switch self {
        case .noSuchCar(let indexPath, let count):
            guard indexPath.count == 2, indexPath.section == 0 else {
                return "there is no car at \(indexPath): the table has one section, 0"
            }
            let number = indexPath.row + 1
            return count == 0 ? "there is no car \(number): there are no cars"
                : "there is no car \(number): the cars are numbered 1 to \(count)"
        }
    }
}

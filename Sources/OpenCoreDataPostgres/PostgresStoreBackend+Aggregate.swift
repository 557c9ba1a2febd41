#if Postgres
import Foundation
package import OpenCoreData
import PostgresNIO

/// Grouped fetches: one `GROUP BY` over the rows a fetch selects.
extension PostgresStoreBackend {
    /// Sums come back exact (integers and decimals as text) and averages are divided here, so
    /// that both agree with memory's arithmetic. Groups by relationships, and predicates the
    /// store cannot express, return nil.
    package func aggregate(_ aggregate: StoreAggregateFetch) throws -> [[PropertyValue]]? {
        let keys = aggregate.groupKeys.compactMap { $0 as? AttributeDescription }
        guard keys.count == aggregate.groupKeys.count else { return nil }
        let filter = try self.filter(for: aggregate.fetch, loaded: try loaded)
        guard filter.residual == nil else { return nil }
        let query = filter.query
        let keyColumns = keys.map { query.column(query.root.alias, $0) }
        let selectedKeys = zip(keys, keyColumns).map { key, column in
            key.attributeType == .decimalAttributeType ? "\(column)::text" : column
        }
        let functionColumns = aggregate.functions.flatMap { function -> [String] in
            let column = query.column(query.root.alias, function.property)
            let type = (function.property as? AttributeDescription)?.attributeType
            return switch function.kind {
            case .sum: [Self.sum(column, type)]
            case .average: [Self.sum(column, type), "count(\(column))"]
            case .min: [type == .decimalAttributeType ? "min(\(column))::text" : "min(\(column))"]
            case .max: [type == .decimalAttributeType ? "max(\(column))::text" : "max(\(column))"]
            case .count: ["count(\(column))"]
            }
        }
        let grouping = keyColumns.isEmpty ? "" : " GROUP BY \(keyColumns.joined(separator: ", "))"
        let source = filter.source
        let sql = "SELECT \((selectedKeys + functionColumns).joined(separator: ", "))\(source.sql)\(grouping)"
        var groups: [[PropertyValue]] = []
        for row in try read(SQLFragment(sql, source.arguments)) {
            let cells = row.makeRandomAccess()
            var group = try keys.enumerated().map { index, key in
                try PostgresValueCoding.propertyValue(cells[index], type: key.attributeType)
            }
            var cell = keys.count
            for function in aggregate.functions {
                let type = (function.property as? AttributeDescription)?.attributeType ?? .integer64AttributeType
                switch function.kind {
                case .sum:
                    group.append(try Self.sumValue(cells[cell], type))
                    cell += 1
                case .average:
                    let count = try cells[cell + 1].decode(Int64.self)
                    group.append(Self.average(of: try Self.sumValue(cells[cell], type), count: count))
                    cell += 2
                case .min, .max:
                    group.append(try PostgresValueCoding.propertyValue(cells[cell], type: type))
                    cell += 1
                case .count:
                    group.append(.integer(try cells[cell].decode(Int64.self)))
                    cell += 1
                }
            }
            groups.append(group)
        }
        return groups
    }

    /// Integers and decimals are summed exactly (as text); floating point as `double precision`.
    private static func sum(_ column: String, _ type: AttributeType?) -> String {
        switch type {
        case .doubleAttributeType?, .floatAttributeType?: "sum(\(column))"
        default: "sum(\(column))::text"
        }
    }

    /// A sum as memory gives it: an integer while it fits, then a double; a decimal for decimals;
    /// nil for NaN; 0 for no values.
    private static func sumValue(_ cell: PostgresCell, _ type: AttributeType) throws -> PropertyValue {
        guard cell.bytes != nil else { return .integer(0) }
        switch type {
        case .doubleAttributeType, .floatAttributeType:
            let sum = try cell.decode(Double.self)
            return sum.isNaN ? .null : .double(sum)
        case .decimalAttributeType:
            return Decimal(string: try cell.decode(String.self), locale: Locale(identifier: "en_US_POSIX")).map(PropertyValue.decimal) ?? .null
        default:
            let text = try cell.decode(String.self)
            if let integer = Int64(text) { return .integer(integer) }
            return Double(text).map(PropertyValue.double) ?? .null
        }
    }

    /// An average as memory computes it: the sum divided by the count.
    private static func average(of sum: PropertyValue, count: Int64) -> PropertyValue {
        guard count > 0 else { return .null }
        switch sum {
        case .integer(let integer): return .double(Double(integer) / Double(count))
        case .double(let double):
            let average = double / Double(count)
            return average.isNaN ? .null : .double(average)
        case .decimal(let decimal): return .decimal(decimal / Decimal(count))
        default: return .null
        }
    }
}
#endif

#if Postgres
import Foundation
import OpenCoreData
import PostgresNIO

/// Stored forms of attribute values in PostgreSQL (Docs/PostgresStore.md, "Schema"): integers
/// and booleans (0/1) as integers, doubles, floats and dates (seconds since 2001) as
/// `double precision` with NaN as NULL and -0.0 as 0.0, decimals as `numeric` (sent and read as their text, which
/// is exact both ways), text and URLs as `text`, data as `bytea`, UUIDs as `uuid`, to-ones as the
/// destination's key.
///
/// Every parameter is sent with the type postgres-nio gives its Swift value (a NULL has none)
/// and cast in the SQL to its column's type (``placeholder(_:for:)``), so that a statement never
/// depends on PostgreSQL inferring a type: in a multi-row `VALUES` a column of NULLs alone would
/// otherwise be `text`.
enum PostgresValueCoding {
    /// The stored form of `value`, appended to `binds`.
    static func append(_ value: PropertyValue, to binds: inout PostgresBindings) throws {
        switch value {
        case .null: binds.appendNull()
        case .integer(let integer): binds.append(integer)
        case .boolean(let flag): binds.append(Int64(flag ? 1 : 0))
        case .double(let double): appendDouble(double, to: &binds)
        case .date(let date): appendDouble(date.timeIntervalSinceReferenceDate, to: &binds)
        case .decimal(let decimal): binds.append(decimal.description)
        case .string(let text): binds.append(text)
        case .uri(let url): binds.append(url.absoluteString)
        case .data(let data): try binds.append(data)
        case .uuid(let uuid): binds.append(uuid)
        case .object(let id): binds.append(id.key)
        }
    }

    /// A double as SQLite stores it, so that both stores give back the same numbers: NaN as NULL
    /// (PostgreSQL would keep NaN, sort it above every number and find it equal to itself), and
    /// -0.0 as 0.0 (SQLite keeps no negative zero; the two compare equal everywhere).
    private static func appendDouble(_ double: Double, to binds: inout PostgresBindings) {
        if double.isNaN {
            binds.appendNull()
        } else {
            binds.append(double == 0 ? 0.0 : double)
        }
    }

    /// The placeholder of parameter `number`, cast to the type of the column storing `column`.
    static func placeholder(_ number: Int, for column: SQLiteSchema.Column) -> String {
        "$\(number)::\(castType(of: column))"
    }

    /// The type a parameter of `column` is cast to: the column's, without its collation (the
    /// column's own applies in comparisons).
    static func castType(of column: SQLiteSchema.Column) -> String {
        guard !column.isEntityCode, let attribute = column.property as? AttributeDescription else { return "bigint" }
        return castType(of: attribute.attributeType)
    }

    static func castType(of type: AttributeType) -> String {
        switch type {
        case .stringAttributeType, .URIAttributeType: "text"
        default: PostgresSchema.columnType(of: type)
        }
    }

    /// How a column is selected: numeric as its text, which ``propertyValue(_:type:)`` reads into
    /// a `Decimal` as the SQLite store reads its decimal text (and as the save wrote it); every
    /// other column as stored.
    static func selectExpression(_ column: SQLiteSchema.Column, prefix: String = "") -> String {
        let name = prefix + quoted(column.name)
        if !column.isEntityCode, let attribute = column.property as? AttributeDescription,
           attribute.attributeType == .decimalAttributeType {
            return "\(name)::text"
        }
        return name
    }

    /// The value of an attribute column selected with ``selectExpression(_:prefix:)``.
    ///
    /// - Throws: A decoding error when the cell does not hold the column's type (a column
    ///   altered by another program).
    static func propertyValue(_ cell: PostgresCell, type: AttributeType) throws -> PropertyValue {
        guard cell.bytes != nil else { return .null }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return .integer(try cell.decode(Int64.self))
        case .booleanAttributeType:
            return .boolean(try cell.decode(Int64.self) != 0)
        case .doubleAttributeType, .floatAttributeType:
            return .double(try cell.decode(Double.self))
        case .dateAttributeType:
            return .date(Date(timeIntervalSinceReferenceDate: try cell.decode(Double.self)))
        case .decimalAttributeType:
            return Decimal(string: try cell.decode(String.self), locale: Locale(identifier: "en_US_POSIX")).map(PropertyValue.decimal) ?? .null
        case .stringAttributeType:
            return .string(try cell.decode(String.self))
        case .URIAttributeType:
            return URL(string: try cell.decode(String.self)).map(PropertyValue.uri) ?? .null
        case .binaryDataAttributeType, .transformableAttributeType:
            return .data(try cell.decode(Data.self))
        case .UUIDAttributeType:
            return .uuid(try cell.decode(UUID.self))
        }
    }
}
#endif

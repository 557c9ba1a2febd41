import Foundation
import GRDB

/// Stored forms of attribute values: integers and booleans as INTEGER, doubles, floats and dates
/// (seconds since 2001, as Core Data) as REAL, decimals as canonical TEXT, UUIDs as 16-byte
/// BLOBs, URLs as TEXT, to-ones as the destination's key.
enum SQLiteValueCoding {
    static func databaseValue(_ value: PropertyValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .integer(let integer): integer.databaseValue
        case .double(let double): double.databaseValue
        case .boolean(let bool): Int64(bool ? 1 : 0).databaseValue
        case .decimal(let decimal): decimal.description.databaseValue
        case .string(let string): string.databaseValue
        case .date(let date): date.timeIntervalSinceReferenceDate.databaseValue
        case .data(let data): data.databaseValue
        case .uuid(let uuid): Data(uuid.bytes).databaseValue
        case .uri(let url): url.absoluteString.databaseValue
        case .object(let id): id.key.databaseValue
        }
    }

    /// Compiled fragments' arguments (``SQLFragment``), bound where the statement runs.
    static func statementArguments(_ values: [PropertyValue]) -> StatementArguments {
        StatementArguments(values.map(databaseValue))
    }

    /// The value of an attribute column. A value of an unexpected storage class (written by
    /// another program) is converted where it can be, and read as nil otherwise.
    static func propertyValue(_ value: DatabaseValue, type: AttributeType) -> PropertyValue {
        switch (value.storage, type) {
        case (.null, _):
            return .null
        case (.int64(let integer), .integer16AttributeType), (.int64(let integer), .integer32AttributeType),
             (.int64(let integer), .integer64AttributeType):
            return .integer(integer)
        case (.double(let double), .integer16AttributeType), (.double(let double), .integer32AttributeType),
             (.double(let double), .integer64AttributeType):
            return Int64(exactly: double).map(PropertyValue.integer) ?? .null
        case (.int64(let integer), .booleanAttributeType):
            return .boolean(integer != 0)
        case (.int64(let integer), .doubleAttributeType), (.int64(let integer), .floatAttributeType):
            return .double(Double(integer))
        case (.double(let double), .doubleAttributeType), (.double(let double), .floatAttributeType):
            return .double(double)
        case (.double(let seconds), .dateAttributeType):
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case (.int64(let seconds), .dateAttributeType):
            return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case (.string(let text), .decimalAttributeType):
            return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(PropertyValue.decimal) ?? .null
        case (.int64(let integer), .decimalAttributeType):
            return .decimal(Decimal(integer))
        case (.double(let double), .decimalAttributeType):
            return .decimal(Decimal(double))
        case (.string(let text), .stringAttributeType):
            return .string(text)
        case (.string(let text), .URIAttributeType):
            return URL(string: text).map(PropertyValue.uri) ?? .null
        case (.blob(let data), .binaryDataAttributeType), (.blob(let data), .transformableAttributeType):
            return .data(data)
        case (.blob(let data), .UUIDAttributeType) where data.count == 16:
            let bytes = Array(data)
            return .uuid(UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                     bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])))
        case (.string(let text), .UUIDAttributeType):
            return UUID(uuidString: text).map(PropertyValue.uuid) ?? .null
        default:
            return .null
        }
    }

    static let decimalCollationName = "ocd_decimal"

    /// Orders decimal text by value, for the `ocd_decimal` collation.
    static let decimalCollation = DatabaseCollation(decimalCollationName) { lhs, rhs in
        let locale = Locale(identifier: "en_US_POSIX")
        guard let left = Decimal(string: lhs, locale: locale), let right = Decimal(string: rhs, locale: locale) else {
            return lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
        }
        return left < right ? .orderedAscending : (left == right ? .orderedSame : .orderedDescending)
    }
}

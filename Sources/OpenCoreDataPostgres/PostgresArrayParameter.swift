#if Postgres
import Foundation
import NIOCore
import OpenCoreData
import PostgresNIO

/// One column's values as one parameter, a one-dimensional PostgreSQL array for
/// `unnest($1::bigint[], $2::text[], …)`, so that a statement of 100,000 rows takes one parameter
/// per column: each value in its stored form (``PostgresValueCoding``), NULL elements included.
///
/// postgres-nio encodes arrays of non-optional values only; this writes the binary array format
/// itself (`array_recv`: dimensions, a flag saying whether NULLs occur, the element type, each
/// dimension's length and lower bound, then each element's length and bytes, a NULL element
/// being the length -1 alone), as the values are appended.
struct PostgresArrayParameter: PostgresDynamicTypeEncodable {
    /// The elements' type, by the column that receives them.
    enum Element {
        /// Integers, booleans (0/1), keys and entity codes, as `bigint`.
        case integer
        /// Doubles, floats and dates (seconds since 2001), as `double precision`.
        case double
        /// Decimals, as their text (cast to `numeric` in the SQL, as a save sends them).
        case decimal
        /// Strings and URLs.
        case text
        case data
        case uuid

        /// The element type of the column storing `column`.
        init(_ column: SQLiteSchema.Column) {
            guard !column.isEntityCode, let attribute = column.property as? AttributeDescription else {
                self = .integer
                return
            }
            switch attribute.attributeType {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType: self = .integer
            case .doubleAttributeType, .floatAttributeType, .dateAttributeType: self = .double
            case .decimalAttributeType: self = .decimal
            case .stringAttributeType, .URIAttributeType: self = .text
            case .binaryDataAttributeType, .transformableAttributeType: self = .data
            case .UUIDAttributeType: self = .uuid
            }
        }

        /// The array type sent, and the element type inside it.
        fileprivate var types: (array: PostgresDataType, element: PostgresDataType) {
            switch self {
            case .integer: (.int8Array, .int8)
            case .double: (.float8Array, .float8)
            case .decimal, .text: (.textArray, .text)
            case .data: (.byteaArray, .bytea)
            case .uuid: (.uuidArray, .uuid)
            }
        }

        /// The parameter's cast in the SQL, to an array of the column's type.
        var cast: String {
            switch self {
            case .integer: "::bigint[]"
            case .double: "::double precision[]"
            case .decimal: "::text[]::numeric[]"
            case .text: "::text[]"
            case .data: "::bytea[]"
            case .uuid: "::uuid[]"
            }
        }
    }

    let element: Element
    private(set) var count = 0
    private var hasNulls = false
    /// The elements written so far, each its length and its bytes.
    private var elements = ByteBuffer()

    init(_ element: Element, capacity: Int) {
        self.element = element
        elements.reserveCapacity(capacity * 12)
    }

    var psqlType: PostgresDataType { element.types.array }
    var psqlFormat: PostgresFormat { .binary }

    /// Appends `value` in its stored form.
    ///
    /// - Throws: ``PersistentStoreError/saveFailed`` when the value is not of the column's kind
    ///   (the caller checked the values against their attributes: a bug, not bad input).
    mutating func append(_ value: PropertyValue) throws {
        switch (value, element) {
        case (.null, _): appendNull()
        case (.integer(let integer), .integer): append(integer)
        case (.boolean(let flag), .integer): append(Int64(flag ? 1 : 0))
        case (.object(let id), .integer): append(id.key)
        case (.double(let double), .double): append(double)
        case (.date(let date), .double): append(date.timeIntervalSinceReferenceDate)
        case (.decimal(let decimal), .decimal): append(text: decimal.description)
        case (.string(let text), .text): append(text: text)
        case (.uri(let url), .text): append(text: url.absoluteString)
        case (.data(let data), .data): appendElement { $0.writeBytes(data) }
        case (.uuid(let uuid), .uuid): appendElement { $0.writeBytes([uuid.uuid.0, uuid.uuid.1, uuid.uuid.2, uuid.uuid.3, uuid.uuid.4,
                                                                     uuid.uuid.5, uuid.uuid.6, uuid.uuid.7, uuid.uuid.8, uuid.uuid.9,
                                                                     uuid.uuid.10, uuid.uuid.11, uuid.uuid.12, uuid.uuid.13,
                                                                     uuid.uuid.14, uuid.uuid.15]) }
        default:
            throw PersistentStoreError(PersistentStoreError.saveFailed, "a value \(value) cannot go in a column of \(element) values")
        }
    }

    mutating func appendNull() {
        elements.writeInteger(Int32(-1))
        count += 1
        hasNulls = true
    }

    mutating func append(_ integer: Int64) {
        elements.writeInteger(Int32(8))
        elements.writeInteger(integer)
        count += 1
    }

    /// NaN as NULL and -0.0 as 0.0, as ``PostgresValueCoding`` stores doubles.
    private mutating func append(_ double: Double) {
        guard !double.isNaN else { return appendNull() }
        elements.writeInteger(Int32(8))
        elements.writeInteger((double == 0 ? 0.0 : double).bitPattern)
        count += 1
    }

    private mutating func append(text: String) {
        appendElement { $0.writeString(text) }
    }

    /// Writes an element's bytes with `write`, preceded by their length.
    private mutating func appendElement(_ write: (inout ByteBuffer) -> Int) {
        let lengthIndex = elements.writerIndex
        elements.writeInteger(Int32(0))
        let length = write(&elements)
        elements.setInteger(Int32(length), at: lengthIndex)
        count += 1
    }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        // An empty array has no dimensions.
        buffer.writeInteger(Int32(count == 0 ? 0 : 1))
        buffer.writeInteger(Int32(hasNulls ? 1 : 0))
        buffer.writeInteger(element.types.element.rawValue)
        guard count > 0 else { return }
        buffer.writeInteger(Int32(count))
        buffer.writeInteger(Int32(1))
        var elements = elements
        buffer.writeBuffer(&elements)
    }
}
#endif

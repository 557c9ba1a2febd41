import FetchedResultsChecking
import Foundation
import OpenCoreData
import Testing

/// Numbers given to numeric and boolean attributes, as imports give them: `NSNumber`s from
/// `JSONSerialization` or `[String: Any]`, Swift numbers of every width, `Bool`, `Decimal`.
/// Core Data takes any of them for any numeric or boolean attribute; a value that does not fit
/// exactly (a fraction for an integer, beyond the width, 2 for a boolean, NaN) is refused and the
/// save names the key.
@Suite struct NumericAttributeTests {
    // MARK: The class: random numbers in every form, against every numeric attribute

    @Test(arguments: StoreKind.withPostgres)
    func everyFormOfANumberIsStoredWhenItFitsAndRefusedWhenItDoesNot(kind: StoreKind) throws {
        var random = SplitMix64(seed: 0x6e75_6d62_6572)
        let numbers = (0..<400).map { _ in Number.random(using: &random) } + Number.edges
        let cases = numbers.flatMap { given in
            Form.allCases.flatMap { form in
                form.wrap(given).map { number, input in Sample.numericKeys.map { (number, form, input, $0) } } ?? []
            }
        }
        let accepted = cases.filter { $0.0.expected(for: $0.3) != nil }
        let refused = cases.filter { $0.0.expected(for: $0.3) == nil }
        #expect(accepted.count > 2_000 && refused.count > 1_000, "both outcomes are exercised")
        let stack = try TestStack(kind)

        // What fits is stored as it reads, and reads back the same from the store. Mismatches are
        // collected and reported together: an expectation per case would describe thousands of
        // values the test does not need to show.
        var mismatches: [String] = []
        let context = stack.newContext()
        let ids = try context.performAndWait {
            let samples = accepted.map { number, form, input, key in
                let sample = Sample(context: context)
                sample.setValue(input, forKey: key)
                if Stored(sample, key) != number.expected(for: key) {
                    mismatches.append("\(form) \(number) into \(key): read \(String(describing: Stored(sample, key)))")
                }
                return sample
            }
            try context.save()
            return samples.map(\.objectID)
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            for (id, (number, form, _, key)) in zip(ids, accepted) {
                let sample = try #require(try reader.existingObject(with: id) as? Sample)
                if Stored(sample, key) != number.expected(for: key) {
                    mismatches.append("\(form) \(number) into \(key), saved: read \(String(describing: Stored(sample, key)))")
                }
            }
        }

        // What does not fit is refused: not stored, and the save fails, naming every key.
        let refusing = stack.newContext()
        refusing.performAndWait {
            let untouched = Sample(context: refusing)
            for (number, form, input, key) in refused {
                let sample = Sample(context: refusing)
                if (try? sample.validateValue(input, forKey: key)) != nil {
                    mismatches.append("\(form) \(number) into \(key) passed validateValue")
                }
                sample.setValue(input, forKey: key)
                if Stored(sample, key) != Stored(untouched, key) {
                    mismatches.append("\(form) \(number) into \(key) was stored")
                }
            }
            let error = #expect(throws: ValidationError.self) { try refusing.save() }
            let failures = error?.failures ?? []
            let keysMatch = failures.compactMap(\.key).sorted() == refused.map(\.3).sorted()
            #expect(keysMatch, "one failure for each refused assignment, naming its key")
            let unclear = failures.filter { $0.code != ValidationError.invalidValue || !$0.message.contains("does not fit") }
            #expect(unclear.isEmpty, "\(unclear.prefix(5))")
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches: \(mismatches.prefix(10).joined(separator: "; "))")
    }

    // MARK: NaN and infinities

    @Test(arguments: StoreKind.withPostgres)
    func nanIsRefusedAtAssignmentAndTheSaveNamesIt(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let id = try context.performAndWait {
            let sample = Sample(context: context)
            sample.double = 2.5
            try context.save()
            return sample.objectID
        }
        context.performAndWait {
            let sample = context.object(with: id) as? Sample
            sample?.double = .nan
            sample?.float = .nan
            sample?.setValue(NSDecimalNumber.notANumber, forKey: "decimal")
            sample?.setValue(NSNumber(value: Double.nan), forKey: "int16")
            #expect(sample?.double == 2.5, "a refused value is not stored")
            let error = #expect(throws: ValidationError.self) { try context.save() }
            #expect(error?.failures.compactMap(\.key).sorted() == ["decimal", "double", "float", "int16"])
            #expect(error?.failures.allSatisfy { $0.message.contains("NaN") } == true, "\(String(describing: error))")
            #expect(error?.description.contains("Sample.double") == true)
            sample?.double = 3
            sample?.float = 1
            sample?.decimal = 1
            sample?.int16 = 1
            #expect(throws: Never.self) { try context.save() }
        }
        let reader = stack.newContext()
        reader.performAndWait {
            #expect((reader.object(with: id) as? Sample)?.double == 3)
        }
    }

    @Test(arguments: StoreKind.withPostgres)
    func infinitiesAreStoredAndReadBack(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let context = stack.newContext()
        let ids = try context.performAndWait {
            let positive = Sample(context: context)
            positive.double = .infinity
            positive.float = .infinity
            let negative = Sample(context: context)
            negative.setValue(-Double.infinity, forKey: "double")
            negative.setValue(NSNumber(value: -Float.infinity), forKey: "float")
            try context.save()
            return [positive.objectID, negative.objectID]
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let samples = try ids.map { try #require(reader.existingObject(with: $0) as? Sample) }
            #expect(samples.map(\.double) == [.infinity, -.infinity])
            #expect(samples.map(\.float) == [.infinity, -.infinity])
            let request = Sample.fetchRequest()
            request.predicate = try FetchPredicate(format: "double > %@", NSNumber(value: Double.greatestFiniteMagnitude))
            #expect(try reader.count(for: request) == 1, "infinity compares above every finite number in the store")
        }
    }

    @Test func aNaNDefaultValueIsAModelError() throws {
        let entity = EntityDescription(name: "Reading")
        entity.properties = [AttributeDescription(name: "value", type: .double, defaultValue: Double.nan)]
        let model = ManagedObjectModel(entities: [entity])
        let error = #expect(throws: ModelError.self) { _ = try TestStack(.inMemory, model: model) }
        #expect(error?.code == ModelError.invalidDefaultValue)
        #expect(error?.description.contains("Reading.value") == true && error?.description.contains("NaN") == true,
                "\(String(describing: error))")
    }

    // MARK: An import through JSONSerialization, as apps write it

    @Test(arguments: StoreKind.withPostgres)
    func aJSONImportThroughSetValueForKeySaves(kind: StoreKind) throws {
        let json = Data("""
            [{"int16": 12, "int32": 70000, "int64": 9007199254740993, "double": 0.1, "float": 2,
              "decimal": 12.5, "bool": true, "string": "one"},
             {"int16": 0, "int32": 1, "int64": -1, "double": 1, "float": 0, "decimal": 3,
              "bool": 0, "string": "two"}]
            """.utf8)
        let records = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: Any]])
        let stack = try TestStack(kind)
        let context = stack.newContext()
        try context.performAndWait {
            for record in records {
                let sample = Sample(context: context)
                for (key, value) in record { sample.setValue(value, forKey: key) }
            }
            try context.save()
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let samples = try reader.all(Sample.self, sortedBy: "string")
            #expect(samples.map(\.int16) == [12, 0])
            #expect(samples.map(\.int32) == [70_000, 1])
            #expect(samples.map(\.int64) == [9_007_199_254_740_993, -1])
            #expect(samples.map(\.double) == [0.1, 1])
            #expect(samples.map(\.float) == [2, 0])
            #expect(samples.map(\.decimal) == [Decimal(string: "12.5"), 3])
            #expect(samples.map(\.bool) == [true, false])
        }
    }
}

// MARK: - The numbers, their forms, and what each attribute should hold

/// A number as a test gives it, before it takes a Swift or Foundation form.
private enum Number: CustomStringConvertible {
    case integer(Int64)
    case unsigned(UInt64)
    case floating(Double)
    case boolean(Bool)
    case decimal(Decimal)

    static let edges: [Number] = [
        .integer(0), .integer(1), .integer(2), .integer(-1),
        .integer(Int64(Int16.max)), .integer(Int64(Int16.max) + 1), .integer(Int64(Int16.min)), .integer(Int64(Int16.min) - 1),
        .integer(Int64(Int32.max)), .integer(Int64(Int32.max) + 1), .integer(Int64(Int32.min) - 1),
        .integer(.max), .integer(.min), .integer(1 << 53 + 1), .unsigned(.max), .unsigned(UInt64(Int64.max) + 1),
        .floating(0), .floating(1), .floating(-0.0), .floating(0.5), .floating(-2.5), .floating(3), .floating(32_767),
        .floating(32_768), .floating(9.223372036854775807e18), .floating(-9.223372036854775808e18),
        .floating(.nan), .floating(.infinity), .floating(-.infinity), .floating(1e300), .floating(.leastNonzeroMagnitude),
        .boolean(true), .boolean(false),
        .decimal(0), .decimal(1), .decimal(Decimal(string: "2.5")!), .decimal(Decimal(string: "-40000")!),
        .decimal(Decimal(string: "99999999999999999999")!), .decimal(.nan),
    ]

    static func random(using random: inout SplitMix64) -> Number {
        let bits = random.next()
        switch bits % 5 {
        case 0:
            // Magnitudes spread over every width's boundary.
            let magnitude = Int64(bitPattern: random.next()) >> Int64(random.next() % 64)
            return .integer(magnitude)
        case 1:
            let whole = Double(Int64(bitPattern: random.next()) >> Int64(random.next() % 64))
            return .floating(bits & 8 == 0 ? whole : whole + Double(random.next() % 1000) / 1000)
        case 2:
            return .boolean(bits & 8 == 0)
        case 3:
            let cents = Int64(bitPattern: random.next()) >> Int64(20 + random.next() % 44)
            return .decimal(Decimal(cents) / (bits & 8 == 0 ? 1 : 100))
        default:
            return .unsigned(random.next() >> (random.next() % 64))
        }
    }

    var description: String {
        switch self {
        case .integer(let value): "\(value)"
        case .unsigned(let value): "\(value)u"
        case .floating(let value): "\(value)d"
        case .boolean(let value): "\(value)"
        case .decimal(let value): "\(value)m"
        }
    }

    /// The number's value as an exact decimal string's double (for the reference checks).
    private var asDouble: Double {
        switch self {
        case .integer(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .floating(let value): value
        case .boolean(let value): value ? 1 : 0
        case .decimal(let value): Double(value.description) ?? .nan
        }
    }

    /// The whole number it is, by a route independent of the library's: its digits.
    private var wholeNumber: Int64? {
        switch self {
        case .integer(let value): return value
        case .unsigned(let value): return value <= UInt64(Int64.max) ? Int64(value) : nil
        case .boolean(let value): return value ? 1 : 0
        case .floating(let value):
            guard value.isFinite, value == value.rounded(), value >= -0x1p63, value < 0x1p63 else { return nil }
            return Int64(value)
        case .decimal(let value):
            return value.isNaN ? nil : Int64(value.description)
        }
    }

    /// What an attribute of `key`'s type holds after the number is set, or nil when it must be
    /// refused.
    func expected(for key: String) -> Stored? {
        switch key {
        case "int16", "int32", "int64":
            let range: ClosedRange<Int64> = key == "int16" ? Int64(Int16.min)...Int64(Int16.max)
                : key == "int32" ? Int64(Int32.min)...Int64(Int32.max) : .min ... .max
            guard let whole = wholeNumber, range.contains(whole) else { return nil }
            return .integer(whole)
        case "bool":
            guard let whole = wholeNumber, whole == 0 || whole == 1 else { return nil }
            return .integer(whole)
        case "double":
            return asDouble.isNaN ? nil : .floating(asDouble)
        case "float":
            guard !asDouble.isNaN, Float(asDouble).isFinite || !asDouble.isFinite else { return nil }
            return .floating(Double(Float(asDouble)))
        case "decimal":
            // Decimal's exponent stops at ±128; the numbers here stay far from its edges or beyond them.
            guard asDouble.isFinite, asDouble == 0 || (1e-120...1e120).contains(abs(asDouble)) else { return nil }
            return .floating(asDouble)
        default:
            return nil
        }
    }
}

/// The forms a number reaches `setValue(_:forKey:)` in.
private enum Form: CaseIterable {
    case swift, nsNumber, json, narrowSwift

    /// The number in this form, and the number that form really holds: JSONSerialization on
    /// Linux parses some long decimals to a neighbouring double, which is Foundation's doing, so a
    /// JSON number is checked against what the parser produced.
    func wrap(_ number: Number) -> (Number, Any)? {
        let input: Any? = switch (self, number) {
        case (.swift, .integer(let value)): value
        case (.swift, .unsigned(let value)): value
        case (.swift, .floating(let value)): value
        case (.swift, .boolean(let value)): value
        case (.swift, .decimal(let value)): value
        case (.nsNumber, .integer(let value)): NSNumber(value: value)
        case (.nsNumber, .unsigned(let value)): NSNumber(value: value)
        case (.nsNumber, .floating(let value)): NSNumber(value: value)
        case (.nsNumber, .boolean(let value)): NSNumber(value: value)
        case (.nsNumber, .decimal(let value)): NSDecimalNumber(decimal: value)
        case (.json, _): Self.throughJSON(number)
        case (.narrowSwift, .integer(let value)): Int16(exactly: value).map { $0 as Any } ?? Int32(exactly: value).map { $0 as Any }
        case (.narrowSwift, .floating(let value)): Float(exactly: value)
        default: nil
        }
        guard let input else { return nil }
        guard self == .json, let parsed = input as? NSNumber else { return (number, input) }
        if let decimal = parsed as? NSDecimalNumber, type(of: parsed) is NSDecimalNumber.Type {
            return (.decimal(decimal.decimalValue), input)
        }
        switch String(cString: parsed.objCType) {
        case "d", "f": return (.floating(parsed.doubleValue), input)
        case "Q": return (.unsigned(parsed.uint64Value), input)
        default: return (.integer(parsed.int64Value), input)
        }
    }

    /// The number as `JSONSerialization` hands it over, when JSON can carry it.
    private static func throughJSON(_ number: Number) -> Any? {
        let text: String
        switch number {
        case .integer(let value): text = "\(value)"
        case .unsigned(let value): text = "\(value)"
        case .floating(let value) where value.isFinite: text = "\(value)"
        case .boolean(let value): text = "\(value)"
        default: return nil
        }
        let parsed = try? JSONSerialization.jsonObject(with: Data("[\(text)]".utf8)) as? [Any]
        return parsed?.first
    }
}

extension Sample {
    fileprivate static let numericKeys = ["int16", "int32", "int64", "double", "float", "decimal", "bool"]
}

/// An attribute's value, read through the typed property: integers exactly, the rest as doubles
/// (a decimal through its digits).
private enum Stored: Equatable {
    case integer(Int64)
    case floating(Double)

    init?(_ sample: Sample, _ key: String) {
        switch key {
        case "int16": self = .integer(Int64(sample.int16))
        case "int32": self = .integer(Int64(sample.int32))
        case "int64": self = .integer(sample.int64)
        case "bool": self = .integer(sample.bool ? 1 : 0)
        case "double": self = .floating(sample.double)
        case "float": self = .floating(Double(sample.float))
        case "decimal": self = .floating(Double(sample.decimal.description) ?? .nan)
        default: return nil
        }
    }
}

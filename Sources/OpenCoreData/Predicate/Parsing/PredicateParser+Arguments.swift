import Foundation

// Format arguments (%@, %K, %d, %f, %s), the CAST(...) forms the printer uses for values that
// have no literal syntax, and the FUNCTION(..., "valueForKeyPath:", ...) form it uses for keys
// that are not identifiers.

extension PredicateParser {
    /// The expression for the argument a `%` specifier consumes.
    mutating func argument(_ kind: PredicateArgumentKind, index: Int, token specifier: PredicateToken)
        throws(PredicateParseError) -> FetchExpression.Node {
        let value = try argumentValue(index: index, token: specifier)
        switch kind {
        case .object:
            if let node = FetchExpression.Node.constant(from: value) { return node }
        case .keyPath:
            // `%K.name` continues the path given as the argument.
            return .keyPath(root: .object, components: try keyPathArgument(index: index, token: specifier) + (try parsePathSuffix()))
        case .integer:
            if let bool = value as? Bool { return .constant(.integer(bool ? 1 : 0)) }
            if let integer = value as? any BinaryInteger {
                guard let exact = Int64(exactly: integer) else {
                    throw argumentError("\(integer) does not fit a 64-bit integer", at: specifier)
                }
                return .constant(.integer(exact))
            }
            if let number = value as? NSNumber, !["f", "d"].contains(String(cString: number.objCType)) {
                return .constant(.integer(number.int64Value))
            }
        case .double:
            switch value {
            case let double as Double: return .constant(.double(double))
            case let float as Float: return .constant(.double(Double(float)))
            case let integer as any BinaryInteger where !(value is Bool): return .constant(.double(Double(integer)))
            case let number as NSNumber: return .constant(.double(number.doubleValue))
            default: break
            }
        case .string:
            if let string = value as? String { return .constant(.string(string)) }
            if let substring = value as? Substring { return .constant(.string(String(substring))) }
        }
        let typeName = value.map { "\(type(of: $0))" } ?? "nil"
        let expected = switch kind {
        case .object: "\(typeName) values cannot be used in a predicate"
        case .keyPath: "'\(specifier.text)' expects a key path string or a Swift key path, got \(typeName)"
        case .integer: "'\(specifier.text)' expects an integer, got \(typeName)"
        case .double: "'\(specifier.text)' expects a floating-point number, got \(typeName)"
        case .string: "'\(specifier.text)' expects a string, got \(typeName)"
        }
        throw argumentError(expected, at: specifier)
    }

    /// The argument a specifier consumes, or the error for one missing.
    private func argumentValue(index: Int, token specifier: PredicateToken) throws(PredicateParseError) -> Any? {
        guard index < arguments.count else {
            throw PredicateParseError(code: PredicateParseError.missingArgument,
                                      message: "missing argument for '\(specifier.text)'", offset: specifier.offset, format: format)
        }
        return flattenOptional(arguments[index])
    }

    /// The keys of a `%K` argument: a dotted key path string (`"author.name"`), or a Swift key
    /// path of a managed object class (`\Post.author?.name`) or of another type, read from its
    /// description (`\Post.author.name`), since `#keyPath` needs the Objective-C runtime.
    func keyPathArgument(index: Int, token specifier: PredicateToken) throws(PredicateParseError) -> [String] {
        let value = try argumentValue(index: index, token: specifier)
        if let keyPath = value as? AnyKeyPath {
            guard let names = KeyPathNames.components(of: keyPath) else {
                throw argumentError("'%K' expects a key path of properties, got \(keyPath), whose keys cannot be named", at: specifier)
            }
            return names
        }
        guard let path = (value as? String) ?? (value as? Substring).map(String.init) else {
            let typeName = value.map { "\(type(of: $0))" } ?? "nil"
            throw argumentError("'\(specifier.text)' expects a key path string or a Swift key path, got \(typeName)", at: specifier)
        }
        guard let components = Self.keyPathComponents(path) else {
            throw argumentError("'%K' expects a key path, got \"\(path)\"", at: specifier)
        }
        return components
    }

    /// The keys of a dotted key path string, or nil if one is empty (`"a..b"`, `""`).
    static func keyPathComponents(_ path: String) -> [String]? {
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return components.contains(where: \.isEmpty) ? nil : components
    }

    private func argumentError(_ message: String, at specifier: PredicateToken) -> PredicateParseError {
        PredicateParseError(code: PredicateParseError.unsupportedArgument, message: message, offset: specifier.offset, format: format)
    }

    // MARK: - FUNCTION

    /// `FUNCTION(receiver, "valueForKeyPath:", "a.b")` or `FUNCTION(receiver, "valueForKey:",
    /// "a")`: the key path from the receiver (`SELF`, a variable or a key path). Core Data's
    /// other functions are not supported.
    mutating func parseFunction() throws(PredicateParseError) -> FetchExpression.Node {
        let functionOffset = token.offset
        try advance()
        try expect(.leftParen)
        let receiver = try parseExpression()
        try expect(.comma)
        guard case .string(let selector) = token.kind,
              selector == PredicatePrinter.valueForKeyPath || selector == "valueForKey:" else {
            throw unsupported("FUNCTION is supported only with \"valueForKeyPath:\" and \"valueForKey:\"", at: functionOffset)
        }
        try advance()
        try expect(.comma)
        guard case .string(let path) = token.kind else { throw syntaxError("expected a key path string", at: token.offset) }
        let pathOffset = token.offset
        try advance()
        try expect(.rightParen)
        let keys: [String]? = selector == "valueForKey:"
            ? (path.isEmpty || path.contains(".") ? nil : [path])
            : Self.keyPathComponents(path)
        guard let keys else {
            throw unsupported("\(PredicatePrinter.quoted(path)) is not a key for \(selector) here", at: pathOffset)
        }
        guard let keyPath = Self.keyPath(extending: receiver.node, with: keys) else {
            throw unsupported("FUNCTION's receiver must be SELF, a variable or a key path", at: receiver.offset)
        }
        return keyPath
    }

    // MARK: - CAST

    /// `CAST(value, "Type")` for the types the printer writes this way.
    mutating func parseCast() throws(PredicateParseError) -> FetchExpression.Node {
        let castOffset = token.offset
        try advance()
        try expect(.leftParen)
        let value = try parseExpression()
        try expect(.comma)
        guard case .string = token.kind else { throw syntaxError("expected a type name string", at: token.offset) }
        let typeToken = token
        try advance()
        try expect(.rightParen)
        return try castValue(value, castOffset: castOffset, typeToken: typeToken)
    }

    /// Converts a parsed CAST (kept apart from `parseCast`, which nested casts recurse through,
    /// so its stack frame stays small).
    private func castValue(_ value: ParsedExpression, castOffset: Int, typeToken: PredicateToken)
        throws(PredicateParseError) -> FetchExpression.Node {
        guard case .string(let typeName) = typeToken.kind else { return .constant(.null) }  // checked by parseCast
        if typeName == "NSManagedObjectID" {
            throw unsupported("object IDs cannot be parsed from a format string; pass the object or its ID as a %@ argument",
                              at: castOffset)
        }
        guard case .constant(let constant) = value.node else {
            throw unsupported("CAST of a non-constant value is not supported", at: value.offset)
        }
        guard let converted = try cast(constant, to: typeName, typeToken: typeToken) else {
            throw syntaxError("cannot convert \(PredicatePrinter.expression(value.node)) to \(typeName)", at: value.offset)
        }
        return .constant(converted)
    }

    /// The value of `CAST(constant, "typeName")`, or nil if `constant` does not convert.
    private func cast(_ constant: PropertyValue, to typeName: String, typeToken: PredicateToken)
        throws(PredicateParseError) -> PropertyValue? {
        switch (typeName, constant) {
        case ("NSDate", .integer(let seconds)):
            return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case ("NSDate", .double(let seconds)):
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case ("NSDate", .string(let text)):
            return Self.floatingValue(text).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case ("NSDecimalNumber", .string(let text)):
            return Self.decimalValue(text).map { .decimal($0) }
        case ("NSDecimalNumber", .integer(let integer)):
            return .decimal(Decimal(integer))
        case ("NSDecimalNumber", .double(let double)) where double.isFinite:
            return Self.decimalValue(double.description).map { .decimal($0) }
        case ("NSNumber", .integer), ("NSNumber", .double):
            return constant
        case ("NSNumber", .string(let text)):
            if let integer = Int64(text) { return .integer(integer) }
            return Self.floatingValue(text).map { .double($0) }
        case ("NSUUID", .string(let text)):
            return UUID(uuidString: text).map { .uuid($0) }
        case ("NSURL", .string(let text)):
            return URL(string: text).map { .uri($0) }
        case ("NSData", .string(let text)):
            return Data(base64Encoded: text).map { .data($0) }
        case ("NSDate", _), ("NSDecimalNumber", _), ("NSNumber", _), ("NSUUID", _), ("NSURL", _), ("NSData", _):
            return nil
        default:
            throw unsupported("CAST to '\(typeName)' is not supported", at: typeToken.offset)
        }
    }

    /// A double written in decimal or as `inf`, `-inf` or `nan` (how the printer writes
    /// non-finite values); nil for anything else, including what `Double(_:)` would also accept
    /// such as hexadecimal floats.
    private static func floatingValue(_ text: String) -> Double? {
        switch text {
        case "inf", "+inf": return .infinity
        case "-inf": return -.infinity
        case "nan": return .nan
        default: return isDecimalNumeral(text) ? Double(text) : nil
        }
    }

    private static func decimalValue(_ text: String) -> Decimal? {
        if text == "NaN" { return .nan }
        // Decimal(string:) stops at the first bad character ("1.5abc" is 1.5), so check first.
        guard isDecimalNumeral(text) else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// `[+-]digits[.digits][(e|E)[+-]digits]`, with digits on at least one side of the point.
    private static func isDecimalNumeral(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        if let sign = scalars.first, sign == "+" || sign == "-" { scalars = scalars.dropFirst() }
        let isDigit: (Unicode.Scalar) -> Bool = { ("0"..."9").contains($0) }
        let integerDigits = scalars.prefix(while: isDigit).count
        scalars = scalars.dropFirst(integerDigits)
        var fractionDigits = 0
        if scalars.first == "." {
            scalars = scalars.dropFirst()
            fractionDigits = scalars.prefix(while: isDigit).count
            scalars = scalars.dropFirst(fractionDigits)
        }
        guard integerDigits + fractionDigits > 0 else { return false }
        if let e = scalars.first, e == "e" || e == "E" {
            scalars = scalars.dropFirst()
            if let sign = scalars.first, sign == "+" || sign == "-" { scalars = scalars.dropFirst() }
            let exponentDigits = scalars.prefix(while: isDigit).count
            guard exponentDigits > 0 else { return false }
            scalars = scalars.dropFirst(exponentDigits)
        }
        return scalars.isEmpty
    }
}

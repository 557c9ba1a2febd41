import Foundation

/// Turns an attribute's Minimum, Maximum and Regular Expression (`minValueString`,
/// `maxValueString`, `minDateTimeInterval`, `maxDateTimeInterval`, `regularExpressionString`)
/// into validation predicates, as Core Data's model compiler does: `SELF >= 1` for a number,
/// `length <= 64` for a string, `SELF MATCHES '…'`, each with Core Data's error code.
enum ModelFileValidation {
    private typealias Rule = PropertyDescription.ValidationRule

    static func apply(to attribute: AttributeDescription, _ fields: inout ModelFileAttributes) throws(ModelError) {
        var rules: [Rule] = []
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
             .doubleAttributeType, .floatAttributeType, .decimalAttributeType:
            for (key, comparison, code) in [("minValueString", ">=", ValidationError.numberTooSmall),
                                            ("maxValueString", "<=", ValidationError.numberTooLarge)] {
                guard let text = fields.string(key) else { continue }
                guard let bound = number(text, for: attribute.attributeType) else {
                    throw ModelError(ModelError.invalidModelFile, "\(fields.place): \(key)=\"\(text)\" is not a \(attribute.attributeType)")
                }
                rules.append(Rule(predicate: try predicate("SELF \(comparison) %@", bound, fields),
                                  warning: "\(comparison == ">=" ? "at least" : "at most") \(text)", code: code))
            }
        case .stringAttributeType:
            for (key, comparison, code) in [("minValueString", ">=", ValidationError.stringTooShort),
                                            ("maxValueString", "<=", ValidationError.stringTooLong)] {
                guard let text = fields.string(key) else { continue }
                guard let length = Int(text), length >= 0 else {
                    throw ModelError(ModelError.invalidModelFile, "\(fields.place): \(key)=\"\(text)\" is not a length")
                }
                rules.append(Rule(predicate: try predicate("length \(comparison) %@", length, fields),
                                  warning: "\(comparison == ">=" ? "at least" : "at most") \(length) characters", code: code))
            }
            if let pattern = fields.string("regularExpressionString") {
                rules.append(Rule(predicate: try predicate("SELF MATCHES %@", pattern, fields),
                                  warning: "must match \(pattern)", code: ValidationError.stringPatternMatching))
            }
        case .dateAttributeType:
            for (key, comparison, code) in [("minDateTimeInterval", ">=", ValidationError.dateTooSoon),
                                            ("maxDateTimeInterval", "<=", ValidationError.dateTooLate)] {
                guard let text = fields.string(key) else { continue }
                guard let seconds = Double(text) else {
                    throw ModelError(ModelError.invalidModelFile, "\(fields.place): \(key)=\"\(text)\" is not a time interval")
                }
                let bound = Date(timeIntervalSinceReferenceDate: seconds)
                rules.append(Rule(predicate: try predicate("SELF \(comparison) %@", bound, fields),
                                  warning: "\(comparison == ">=" ? "not before" : "not after") \(bound)", code: code))
            }
        default:
            // Other types have no ranges in Xcode's editor; any found are left unread, so the
            // attribute reader refuses them by name.
            break
        }
        guard !rules.isEmpty else { return }
        attribute.setValidation(rules)
    }

    private static func number(_ text: String, for type: AttributeType) -> Any? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: return Int64(trimmed)
        case .decimalAttributeType: return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
        default: return Double(trimmed)
        }
    }

    private static func predicate(_ format: String, _ argument: Any, _ fields: ModelFileAttributes) throws(ModelError) -> FetchPredicate {
        do {
            return try FetchPredicate(format: format, argumentArray: [argument])
        } catch {
            throw ModelError(ModelError.invalidModelFile, "\(fields.place): the rule \(format) with \(argument) is not valid: \(error)")
        }
    }
}

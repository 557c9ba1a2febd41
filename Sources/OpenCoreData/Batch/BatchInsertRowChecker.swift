/// Checks a batch insert's dictionaries against an entity and lays each out as a row of a
/// ``StoreRowBatch``: every value converted to the storage form of its attribute, attributes a
/// dictionary leaves out at their defaults.
///
/// A row is checked key by key in the dictionary's own order, with one lookup and one conversion
/// per key, and written in place. A row that fails any check is checked again the careful way
/// (``checkedValues(of:index:)``: keys in sorted order, messages built), which throws the error
/// naming its first bad key, so that which error a bad row gets does not depend on how a
/// dictionary happens to order its keys.
struct BatchInsertRowChecker {
    let entity: EntityDescription
    /// Whether ``append(_:index:to:)`` reports the slots each row gives values for (upserts on a
    /// constrained entity need them; other inserts do not pay for a set per row).
    let tracksGivenSlots: Bool
    /// The stored attributes.
    private let attributes: [AttributeDescription]
    /// A new row: each stored attribute's default value, `.null` elsewhere.
    private let template: [PropertyValue]
    /// The slots of required attributes.
    private let requiredSlots: [Int]

    init(entity: EntityDescription, tracksGivenSlots: Bool) {
        self.entity = entity
        self.tracksGivenSlots = tracksGivenSlots
        attributes = entity.slots.compactMap { $0 as? AttributeDescription }.filter { !$0.isTransient }
        var template = [PropertyValue](repeating: .null, count: entity.slots.count)
        for attribute in attributes {
            template[attribute.slot] = attribute.type == .transformableAttributeType
                ? attribute.defaultStorage
                : PropertyValue.coerce(attribute.defaultValue, to: attribute.attributeType) ?? .null
        }
        self.template = template
        requiredSlots = attributes.filter { !$0.isOptional }.map(\.slot)
    }

    /// Appends `dictionary`, row `index` of the request, to `rows`.
    ///
    /// - Returns: The slots the dictionary gives values for; empty unless ``tracksGivenSlots``.
    /// - Throws: ``BatchRequestError`` naming the row and the first key, in key order, whose value
    ///   the entity refuses, or the first required attribute left without a value; `rows` then
    ///   holds a partial row and must be dropped.
    func append(_ dictionary: [String: Any], index: Int, to rows: inout StoreRowBatch) throws -> Set<Int> {
        let start = rows.appendRow(template)
        var given = Set<Int>()
        for (key, value) in dictionary {
            guard let attribute = entity.property(named: key) as? AttributeDescription, !attribute.isTransient,
                  case .success(let stored) = attribute.storageConversion(of: value),
                  attribute.isOptional || !stored.isNull else {
                return try appendCarefully(dictionary, index: index, at: start, to: &rows)
            }
            rows.set(stored, at: start + attribute.slot)
            if tracksGivenSlots { given.insert(attribute.slot) }
        }
        if requiredSlots.contains(where: { rows.values[start + $0].isNull }) {
            return try appendCarefully(dictionary, index: index, at: start, to: &rows)
        }
        return given
    }

    /// The careful check of a row the quick one refused: it throws the row's first error.
    private func appendCarefully(_ dictionary: [String: Any], index: Int, at start: Int, to rows: inout StoreRowBatch) throws -> Set<Int> {
        let (values, given) = try checkedValues(of: dictionary, index: index)
        for (slot, value) in values.enumerated() { rows.set(value, at: start + slot) }
        return tracksGivenSlots ? given : []
    }

    /// The row's values by slot and the slots it gives, every key checked in sorted order.
    ///
    /// - Throws: ``BatchRequestError`` naming the row, and the first bad key or the first required
    ///   attribute without a value.
    func checkedValues(of dictionary: [String: Any], index: Int) throws -> (values: [PropertyValue], given: Set<Int>) {
        let place = "batch insert of \(entity.entityName), row \(index)"
        var values = template
        var given = Set<Int>()
        for key in dictionary.keys.sorted() {
            let value = try BatchValueCheck.storedValue(dictionary[key], forKey: key, of: entity, where: place, rowIndex: index)
            guard let slot = entity.property(named: key)?.slot else { continue }
            values[slot] = value
            given.insert(slot)
        }
        if let missing = attributes.first(where: { !$0.isOptional && values[$0.slot].isNull }) {
            throw BatchRequestError(BatchRequestError.missingMandatoryProperty,
                                    "\(place): '\(missing.name)' is required but the row gives no value and it has no default",
                                    key: missing.name, rowIndex: index)
        }
        return (values, given)
    }
}

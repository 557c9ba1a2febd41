/// A batch update a store may write with its own set-based statement instead of row by row: the
/// rows a fetch selects get new values, each a constant or integer arithmetic on an integer
/// attribute of the row (`wins + 1`). Only values whose every result a store can check without
/// reading the rows into memory come this way; the caller writes the others row by row.
package struct StoreBatchUpdate: Sendable {
    /// An arithmetic operator of an integer value.
    package enum Operator: Sendable {
        case add, subtract, multiply, divide
    }

    /// A new value.
    package enum Value: Sendable {
        /// The same value for every row, already checked against the attribute.
        case constant(PropertyValue)
        /// The row's value of the integer attribute `source`, with `operation` applied (none:
        /// the value itself), in 64-bit integer arithmetic (division rounds toward zero; the
        /// divisor is never 0). A result the target attribute cannot hold (beyond its range, an
        /// overflow, no value for a required attribute, a source that does not hold an integer)
        /// is the caller's to report: the store writes nothing and declines.
        case integer(source: AttributeDescription, operation: (operator: Operator, operand: Int64)?)
    }

    /// One attribute set, and its new value.
    package struct Assignment: Sendable {
        package var attribute: AttributeDescription
        package var value: Value

        package init(attribute: AttributeDescription, value: Value) {
            self.attribute = attribute
            self.value = value
        }
    }

    /// The rows to update: its entity, whether subentities' rows count, and its predicate.
    package var fetch: StoreFetch
    package var assignments: [Assignment]

    package init(fetch: StoreFetch, assignments: [Assignment]) {
        self.fetch = fetch
        self.assignments = assignments
    }

    /// The names of the properties set, in `entity`'s slot order, joined by commas, as the
    /// history records a save's update of a row of `entity`.
    package func updatedProperties(of entity: EntityDescription?) -> String {
        let names = assignments.map(\.attribute.name)
        guard let entity else { return names.joined(separator: ",") }
        return names.sorted { (entity.property(named: $0)?.slot ?? 0) < (entity.property(named: $1)?.slot ?? 0) }
            .joined(separator: ",")
    }
}

/// What a store reports after a ``StoreBatchUpdate``.
package enum StoreBatchUpdateOutcome: Sendable {
    /// Nothing was written: the store cannot apply the update with its own statements (its
    /// predicate is partly left to memory, a computed value does not fit a row, or the store has
    /// no such statements). The caller updates the rows one by one, which reports any bad value.
    case declined
    /// The rows `ids` (in primary key order) were written; `priorValues` holds, for each, the
    /// values the update overwrote, in the order of its assignments. `outcome` is nil when no row
    /// matched (nothing was committed).
    case committed(ids: [ManagedObjectID], priorValues: [[PropertyValue]], outcome: SaveOutcome?)
}

extension PersistentStoreBackend {
    /// Stores without set-based statements decline.
    package func update(_ update: StoreBatchUpdate, info: HistoryTransactionInfo) throws -> StoreBatchUpdateOutcome {
        .declined
    }
}

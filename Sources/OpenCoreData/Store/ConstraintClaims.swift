import Foundation

/// A row of a save whose constrained values another stored row already holds: what a store
/// reports instead of writing the save (``SaveOutcome/constraintConflicts(_:)``), for the saving
/// context's merge policy to resolve.
package struct StoreConstraintConflict: Sendable {
    /// The constraint the save would break.
    package var constraint: UniquenessConstraint
    /// The saving row, as the request names it (a temporary ID for a new row).
    package var objectID: ManagedObjectID
    /// The constrained values it claims, to-ones as permanent IDs.
    package var values: [PropertyValue]
    /// The stored row that holds them, read in the save's transaction.
    package var databaseRow: RowSnapshot

    package init(constraint: UniquenessConstraint, objectID: ManagedObjectID, values: [PropertyValue], databaseRow: RowSnapshot) {
        self.constraint = constraint
        self.objectID = objectID
        self.values = values
        self.databaseRow = databaseRow
    }
}

/// The constrained values a save's rows take: each new row's, and each changed row's whose
/// constrained values change. A store compares them with the rows it holds, inside the save's
/// write transaction, before writing anything.
package struct ConstraintClaim: Sendable {
    package var constraint: UniquenessConstraint
    /// The claiming row, as the request names it.
    package var objectID: ManagedObjectID
    /// The claimed values; never nil (a nil value claims nothing).
    package var values: [PropertyValue]
}

/// What a save claims, and which stored rows give up the values they hold.
package struct ConstraintClaims: Sendable {
    package var claims: [ConstraintClaim] = []
    /// Stored rows the save deletes: the values they hold are free for other rows of the save.
    package var deleted: Set<ManagedObjectID> = []
    /// Per constraint, stored rows whose values under it the save changes: the values they hold
    /// now are free too.
    package var changing: [UniquenessConstraint: Set<ManagedObjectID>] = [:]

    /// Whether a stored row holding a claim's values conflicts with it.
    package func conflicts(_ claim: ConstraintClaim, with stored: ManagedObjectID) -> Bool {
        stored != claim.objectID && !deleted.contains(stored) && changing[claim.constraint]?.contains(stored) != true
    }
}

extension SaveRequest {
    /// The save's claims under the model's uniqueness constraints that stored rows could hold,
    /// or nil when no row of the save belongs to a constrained entity (most saves: nothing to
    /// check).
    ///
    /// Values pointing to an object the save inserts are left out: no stored row can point to
    /// it yet. (Two rows of one save claiming the same values are the saving context's to find,
    /// in memory, before it asks a store to save.)
    package func constraintClaims() -> ConstraintClaims? {
        let constrained = inserted.contains { !$0.objectID.entity.constraints.isEmpty }
            || updated.contains { !$0.snapshot.objectID.entity.constraints.isEmpty }
        guard constrained else { return nil }
        var result = ConstraintClaims()
        for deletion in deleted where !deletion.objectID.entity.constraints.isEmpty {
            result.deleted.insert(deletion.objectID)
        }
        func claim(_ row: RowSnapshot, _ constraint: UniquenessConstraint) {
            guard let values = constraint.values(in: row),
                  !values.contains(where: { $0.objectID?.isTemporaryID == true }) else { return }
            result.claims.append(ConstraintClaim(constraint: constraint, objectID: row.objectID, values: values))
        }
        for row in inserted {
            for constraint in row.objectID.entity.constraints { claim(row, constraint) }
        }
        for update in updated {
            let changed = Set(update.changedSlots)
            for constraint in update.snapshot.objectID.entity.constraints where constraint.slots.contains(where: changed.contains) {
                result.changing[constraint, default: []].insert(update.snapshot.objectID)
                claim(update.snapshot, constraint)
            }
        }
        return result
    }
}

extension SaveRequest {
    /// Rows of the request whose stored version is not the one the change was based on, or that
    /// are no longer stored: what a store reports when the save also breaks a constraint.
    ///
    /// - Parameter preImages: The updated and deleted rows as stored now, read in the save's
    ///   transaction.
    package func versionConflicts(preImages: [ManagedObjectID: RowSnapshot]) -> [StoreConflict] {
        let expected = updated.map { ($0.snapshot.objectID, $0.expectedVersion) }
            + deleted.map { ($0.objectID, $0.expectedVersion) }
        return expected.compactMap { id, version in
            preImages[id]?.version == version ? nil : StoreConflict(objectID: id, current: preImages[id])
        }
    }
}

extension SaveRequest {
    /// The updated rows that change values of a constraint two or more rows of the save change,
    /// each with its changed constrained properties: a store clears their columns before the
    /// updates, so that rows may exchange values (or one take another's) without tripping the
    /// unique index between two updates.
    package func exchangedConstrainedProperties(_ claims: ConstraintClaims) -> [(ManagedObjectID, [PropertyDescription])] {
        let exchanging = claims.changing.filter { $0.value.count > 1 }
        guard !exchanging.isEmpty else { return [] }
        return updated.compactMap { update in
            let id = update.snapshot.objectID
            let changed = Set(update.changedSlots)
            let properties = exchanging.filter { $0.value.contains(id) }.keys
                .flatMap(\.properties).filter { changed.contains($0.slot) }
            return properties.isEmpty ? nil : (id, properties)
        }
    }
}

extension UniquenessConstraint {
    /// The constrained values of a stored row, or nil when one is nil (the row claims nothing).
    package func values(in row: RowSnapshot) -> [PropertyValue]? {
        let values = properties.map { row.value(at: $0.slot) }
        return values.contains(where: \.isNull) ? nil : values
    }
}

/// Constrained values in the form every store compares them in, so that memory agrees with
/// SQLite's unique indexes: text by its UTF-8 bytes (SQLite's `BINARY`; Swift's `==` would make
/// `"é"` and `"e\u{301}"` equal), decimals by value (the `ocd_decimal` collation: `1.0` is `1.00`),
/// dates by their stored seconds, booleans as integers.
package struct ConstraintKey: Hashable, Sendable {
    private enum Part: Hashable, Sendable {
        case integer(Int64)
        case double(Double)
        case text([UInt8])
        case decimal(String)
        case bytes(Data)
        case object(ManagedObjectID)
        case null
    }

    private let parts: [Part]

    package init(_ values: [PropertyValue]) {
        parts = values.map(Self.part)
    }

    private static func part(_ value: PropertyValue) -> Part {
        switch value {
        case .null: return .null
        case .integer(let integer): return .integer(integer)
        case .boolean(let bool): return .integer(bool ? 1 : 0)
        case .double(let double): return .double(double)
        case .date(let date): return .double(date.timeIntervalSinceReferenceDate)
        case .string(let text): return .text(Array(text.utf8))
        case .uri(let url): return .text(Array(url.absoluteString.utf8))
        case .decimal(let decimal):
            // Compacted, equal values have one representation: 1.0 and 1.00 print alike.
            var compact = decimal
            NSDecimalCompact(&compact)
            return .decimal(compact.description)
        case .data(let data): return .bytes(data)
        case .uuid(let uuid): return .bytes(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        case .object(let id): return .object(id)
        }
    }
}

/// The SQLite names a schema needs, checked before anything is created, so that a model whose
/// names clash is refused with a ``ModelError`` saying what to rename instead of failing in
/// SQLite (or, for indexes, losing one silently).
///
/// SQLite keeps tables, indexes and triggers in one namespace per database, compares names
/// without case, and reserves names starting with `sqlite_`. The store's own names start with
/// `_ocd_`; names made from the model (join tables are `_<Entity>_<relationship>`) may not.
extension SQLiteSchema {
    /// A name the schema needs, and who needs it.
    private struct NameUse {
        let name: String
        /// The object of the model that needs the name, in words; nil for the store's own names.
        let owner: String?
        /// Whether the name is made from names of the model, and so may not take the store's prefix.
        let isModelNamed: Bool
    }

    /// The prefix the store keeps for its own tables, indexes and triggers.
    static let storePrefix = "_ocd_"

    private var nameUses: [NameUse] {
        var uses = [Self.metadataTable, Self.primaryKeysTable, Self.savingTable].map { NameUse(name: $0, owner: nil, isModelNamed: false) }
        var ownerByTable: [String: String] = [:]
        for table in tables.values.sorted(by: { $0.name < $1.name }) {
            let owner = "entity '\(table.name)'"
            ownerByTable[table.name] = owner
            uses.append(NameUse(name: table.name, owner: owner, isModelNamed: true))
        }
        for joinTable in joinTables.values.sorted(by: { $0.name < $1.name }) {
            let owner = "relationship \(joinTable.owner.qualifiedName)"
            ownerByTable[joinTable.name] = owner
            uses.append(NameUse(name: joinTable.name, owner: owner, isModelNamed: true))
            uses.append(NameUse(name: "\(Self.indexPrefix)\(joinTable.name)_target", owner: owner, isModelNamed: false))
        }
        uses += indexes.map { NameUse(name: $0.name, owner: $0.owner, isModelNamed: false) }
        uses += generationTriggers.map { trigger in
            NameUse(name: trigger.name, owner: ownerByTable[trigger.table], isModelNamed: false)
        }
        return uses
    }

    /// Throws for the first name SQLite reserves, the first name of the model that takes the
    /// store's prefix, and the first two uses of one name (without case).
    func checkNames() throws(ModelError) {
        var seen: [String: NameUse] = [:]
        for use in nameUses {
            let folded = use.name.lowercased()
            let owner = use.owner ?? "the store"
            if folded.hasPrefix("sqlite_") {
                throw ModelError(ModelError.invalidName, "\(owner) needs the SQLite name '\(use.name)', and SQLite reserves names starting with 'sqlite_'; rename \(owner)")
            }
            if use.isModelNamed, folded.hasPrefix(Self.storePrefix) {
                throw ModelError(ModelError.invalidName, "\(owner) needs the SQLite table '\(use.name)', and names starting with '\(Self.storePrefix)' belong to the store; rename \(owner) or its entity")
            }
            if let other = seen[folded] {
                let first = other.owner ?? "the store"
                throw ModelError(ModelError.invalidName, "\(first) and \(owner) both need the SQLite name '\(use.name)'\(other.name == use.name ? "" : " ('\(other.name)' without case, as SQLite compares names)"); rename \(first) or \(owner)")
            }
            seen[folded] = use
        }
    }
}

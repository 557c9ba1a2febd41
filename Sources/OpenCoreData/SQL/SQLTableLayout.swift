/// The names under which a store keeps a model's rows, as the predicate compiler needs them: one
/// table per entity hierarchy, one column per stored property (two per to-one: the key, and its
/// entity code, which predicates do not read), and join tables of `source` and `target` keys for
/// to-many relationships without a to-one inverse. Names are unquoted; the dialect quotes them.
package protocol SQLTableLayout {
    /// The table of an entity's hierarchy.
    func tableName(of entity: EntityDescription) -> String
    /// The column of an attribute, or of a to-one relationship's destination key.
    func columnName(of property: PropertyDescription) -> String
    /// The join table of a relationship stored in one, named by its owning end; nil if none.
    func joinTableName(for owner: RelationshipDescription) -> String?
}

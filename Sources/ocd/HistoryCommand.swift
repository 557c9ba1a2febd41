import Foundation
import OpenCoreData

/// `ocd history STORE [--after TOKEN]`: the store's transactions, oldest first, each with its
/// token (which `--after` takes back) and its changes.
enum HistoryCommand {
    struct Transaction: Encodable {
        var token: String
        var number: Int64
        var timestamp: String
        var author: String?
        var contextName: String?
        var bundleID: String
        var processID: String
        var changes: [Change]
    }

    struct Change: Encodable {
        var type: String
        var object: String
        /// For an update, the properties it changed.
        var updatedProperties: [String]?
        /// For a deletion, the attributes the entity preserves in history.
        var tombstone: [String: JSONValue]?
    }

    static func run(_ arguments: Arguments) throws(ToolError) {
        let store = try OpenedStore(path: arguments.storePath)
        let after = try arguments.value("after").map { text throws(ToolError) in try token(text, of: store) }
        let context = store.container.newBackgroundContext()
        let transactions: [Transaction]
        do {
            transactions = try context.performAndWait {
                let request = PersistentHistoryChangeRequest.fetchHistory(after: after)
                let result = try context.execute(request) as? PersistentHistoryResult
                return (result?.result as? [PersistentHistoryTransaction] ?? []).map(transaction)
            }
        } catch let error as PersistentHistoryError where error.code == PersistentHistoryError.expiredToken {
            throw .failure("the store's history no longer holds every transaction after \(after?.description ?? "the start") (pruned, or deleted); its current token is \(error.currentToken?.description ?? "unknown")")
        } catch {
            throw ToolError(error)
        }
        if arguments.has("json") {
            Output.line(try Output.json(transactions))
        } else {
            transactions.forEach(print)
        }
    }

    /// A token as `history` prints it (`STORE-ID:NUMBER`), or a bare transaction number of this
    /// store.
    static func token(_ text: String, of store: OpenedStore) throws(ToolError) -> PersistentHistoryToken {
        let full = Int64(text) == nil ? text : "\(store.store.identifier):\(text)"
        guard let token = PersistentHistoryToken(full) else {
            throw .usage("--after '\(text)' is not a history token: give one that 'ocd history' printed (STORE-ID:NUMBER), or a transaction number")
        }
        let storeID = full[..<(full.lastIndex(of: ":") ?? full.endIndex)]
        guard storeID == store.store.identifier else {
            throw .usage("--after '\(text)' is a token of another store (\(storeID)); this store is \(store.store.identifier)")
        }
        return token
    }

    private static func transaction(_ transaction: PersistentHistoryTransaction) -> Transaction {
        Transaction(
            token: transaction.token.description, number: transaction.transactionNumber,
            timestamp: transaction.timestamp.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            author: transaction.author, contextName: transaction.contextName, bundleID: transaction.bundleID,
            processID: transaction.processID,
            changes: (transaction.changes ?? []).map { change in
                Change(type: "\(change.changeType)", object: ObjectValues.id(change.changedObjectID),
                       updatedProperties: change.updatedProperties.map { $0.map(\.name).sorted() },
                       tombstone: change.tombstone.map { tombstone(of: change.changedObjectID.entity, $0) })
            })
    }

    private static func tombstone(of entity: EntityDescription, _ values: [AnyHashable: Any]) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for (key, value) in values {
            let name = "\(key)"
            if let attribute = entity.attributesByName[name] { result[name] = ObjectValues.json(value, of: attribute) }
        }
        return result
    }

    private static func print(_ transaction: Transaction) {
        var header = "\(transaction.token)  \(transaction.timestamp)"
        if let author = transaction.author { header += "  author \(author)" }
        if let contextName = transaction.contextName { header += "  context \(contextName)" }
        header += "  process \(transaction.processID) (\(transaction.bundleID))"
        Output.line(header)
        let rows = transaction.changes.map { change in
            var details = change.updatedProperties?.joined(separator: ", ") ?? ""
            if let tombstone = change.tombstone {
                details = ObjectValues.text(tombstone, keys: [])
            }
            return [change.type, ObjectValues.shortID(change.object), details]
        }
        Output.table(rows, indent: "  ").forEach(Output.line)
    }
}

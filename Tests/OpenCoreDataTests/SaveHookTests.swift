import Foundation
import OpenCoreData
import Testing

/// What `willSave()`, `didSave()`, `prepareForDeletion()` and the did-save notification's
/// observers see of an object, against Core Data's documented semantics: in `didSave()` the flags
/// say what the save did (Apple: "You can find out if an object is marked for deletion with
/// isDeleted"), `hasChanges` is their OR, and `changedValuesForCurrentEvent()` describes the save.
@Suite struct SaveHookTests {
    /// What a hook saw.
    struct Seen: Equatable, CustomStringConvertible {
        var inserted = false, updated = false, deleted = false, hasChanges = false
        /// The keys of `changedValues()`.
        var changedKeys: [String] = []
        /// `changedValuesForCurrentEvent()`, values as text.
        var eventValues: [String: String] = [:]

        var description: String {
            "inserted \(inserted), updated \(updated), deleted \(deleted), hasChanges \(hasChanges), changedValues \(changedKeys), forCurrentEvent \(eventValues.sorted { $0.key < $1.key })"
        }
    }

    enum Change: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case insert, update, delete, deleteByCascade
        var testDescription: String { rawValue }
    }

    /// Every default of a new document, as `changedValuesForCurrentEvent()` gives it while the
    /// save that inserts it runs.
    static let documentDefaults = ["name": "nil", "size": "0", "folder": "nil"]

    /// What each hook must see, per change.
    static func expected(_ change: Change) -> [String: Seen] {
        switch change {
        case .insert:
            return [
                "willSave": Seen(inserted: true, hasChanges: true, changedKeys: ["name", "size"], eventValues: documentDefaults),
                "didSave": Seen(inserted: true, hasChanges: true, eventValues: documentDefaults),
                "notification": Seen(inserted: true, hasChanges: true, eventValues: documentDefaults),
            ]
        case .update:
            return [
                "willSave": Seen(updated: true, hasChanges: true, changedKeys: ["name"], eventValues: ["name": "Draft"]),
                "didSave": Seen(updated: true, hasChanges: true, eventValues: ["name": "Draft"]),
                "notification": Seen(updated: true, hasChanges: true, eventValues: ["name": "Draft"]),
            ]
        case .delete, .deleteByCascade:
            // The cascade takes the document out of its folder before deleting it: a change of the
            // current event when the document learns it is deleted, and of the save in willSave.
            let cascades = change == .deleteByCascade
            let after = Seen(deleted: true, hasChanges: true)
            return [
                "prepareForDeletion": Seen(deleted: true, hasChanges: true, changedKeys: cascades ? ["folder"] : [],
                                           eventValues: cascades ? ["folder": "Folder"] : [:]),
                "willSave": Seen(deleted: true, hasChanges: true, changedKeys: cascades ? ["folder"] : []),
                "didSave": after,
                "notification": after,
            ]
        }
    }

    @Test(arguments: StoreKind.withPostgres, Change.allCases)
    func hooksSeeWhatTheSaveDoes(kind: StoreKind, change: Change) throws {
        let stack = try TestStack(kind, model: HookModel.make())
        let context = stack.newContext()
        try context.performAndWait {
            let document = try HookModel.document("Draft", in: context)
            if change != .insert {
                document.folder = try HookModel.folder(in: context)
                try context.save()
                document.seen = [:]
            }
            let observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                                  object: context, queue: nil) { note in
                for key in ["inserted", "updated", "deleted"] {
                    for case let saved as HookedDocument in (note.userInfo?[key] as? Set<ManagedObject>) ?? [] {
                        saved.seen["notification"] = Seen(saved)
                    }
                }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            switch change {
            case .insert: document.size = 3
            case .update: document.name = "Final"
            case .delete: context.delete(document)
            case .deleteByCascade: context.delete(try #require(document.folder))
            }
            try context.save()
            for (hook, expected) in Self.expected(change) {
                #expect(document.seen[hook] == expected, "\(hook) after \(change)")
            }
            #expect(Set(document.seen.keys) == Set(Self.expected(change).keys), "hooks called after \(change)")
            // Once the save is over, the object has no changes.
            #expect(Seen(document) == Seen(eventValues: [:]))
            #expect(!context.hasChanges)
        }
    }

    /// A key set to nil is a change too: `changedValues()` names it, with `NSNull`, as Core Data's
    /// does, so that a `willSave()` looking for changed keys sees it.
    @Test(arguments: StoreKind.withPostgres)
    func changedValuesNamesKeysSetToNil(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: HookModel.make())
        let context = stack.newContext()
        try context.performAndWait {
            let document = try HookModel.document("Draft", in: context)
            document.folder = try HookModel.folder(in: context)
            try context.save()
            document.name = nil
            document.folder = nil
            #expect(document.changedValues().keys.sorted() == ["folder", "name"])
            #expect(document.changedValues().values.allSatisfy { $0 is NSNull })
            try context.save()
            #expect(document.seen["willSave"]?.changedKeys == ["folder", "name"])
        }
    }

    /// A child context's save runs the same hooks, in the child, with the same flags.
    @Test(arguments: StoreKind.withPostgres)
    func childContextHooksSeeWhatTheSaveDoes(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: HookModel.make())
        let chain = ContextChain(stack, depth: 1)
        try chain.leaf.performAndWait {
            let kept = try HookModel.document("Kept", in: chain.leaf)
            let gone = try HookModel.document("Gone", in: chain.leaf)
            try chain.leaf.save()
            kept.name = "Kept too"
            chain.leaf.delete(gone)
            try chain.leaf.save()
            #expect(kept.seen["didSave"] == Seen(updated: true, hasChanges: true, eventValues: ["name": "Kept"]))
            #expect(gone.seen["didSave"] == Seen(deleted: true, hasChanges: true))
        }
    }

    /// Apple: "any changes you make [in didSave] ... will dirty the managed object context and
    /// leave your context with unsaved changes". A deleted object cannot be brought back.
    @Test(arguments: StoreKind.withPostgres)
    func changesMadeInDidSaveAreTheNextSavesChanges(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: HookModel.make())
        let context = stack.newContext()
        try context.performAndWait {
            let document = try HookModel.document("Draft", in: context)
            document.onDidSave = { $0.size += 1 }
            let doomed = try HookModel.document("Doomed", in: context)
            try context.save()
            #expect(context.hasChanges && document.isUpdated && document.changedValues().keys.sorted() == ["size"])
            document.onDidSave = nil
            doomed.onDidSave = { $0.name = "Resurrected" }
            context.delete(doomed)
            try context.save()
            #expect(!context.hasChanges)
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let stored = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Document"))
            #expect(stored.map { "\($0.value(forKey: "name") ?? "") \($0.value(forKey: "size") ?? "")" } == ["Draft 1"])
        }
    }

    /// Apple: "If you change property values [in willSave], Core Data will ... invoke willSave
    /// again". Objects a willSave() changes, inserts or deletes get their own willSave() and are
    /// saved; one that changes its object every time makes the save throw, writing nothing.
    @Test(arguments: StoreKind.withPostgres)
    func willSaveRunsAgainForWhatItChanges(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: HookModel.make())
        let context = stack.newContext()
        try context.performAndWait {
            let document = try HookModel.document("Report", in: context)
            let folder = try HookModel.folder(in: context)
            var calls: [String] = []
            document.onWillSave = { object in
                calls.append("document")
                guard object.folder == nil else { return }
                object.folder = folder
                let summary = try? HookModel.document("Summary", in: context)
                summary?.onWillSave = { _ in calls.append("summary") }
            }
            folder.onWillSave = { _ in calls.append("folder") }
            try context.save()
            #expect(calls.sorted() == ["document", "document", "folder", "folder", "summary"])
            #expect(!context.hasChanges)

            document.onWillSave = { $0.size += 1 }
            document.name = "Runaway"
            #expect {
                try context.save()
            } throws: { error in
                (error as? ValidationError)?.failures.first?.message.contains("willSave()") == true
            }
            #expect(context.hasChanges && document.name == "Runaway")
            document.onWillSave = nil
            try context.save()
        }
        let reader = stack.newContext()
        try reader.performAndWait {
            let names = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Document")).compactMap { $0.value(forKey: "name") as? String }
            #expect(names.sorted() == ["Runaway", "Summary"])
        }
    }
}

/// A document that records what its hooks see, and runs extra code in them when a test asks.
final class HookedDocument: ManagedObject {
    var seen: [String: SaveHookTests.Seen] = [:]
    var onWillSave: ((HookedDocument) -> Void)?
    var onDidSave: ((HookedDocument) -> Void)?

    var name: String? {
        get { value(forKey: "name") as? String }
        set { setValue(newValue, forKey: "name") }
    }

    var size: Int32 {
        get { (value(forKey: "size") as? Int32) ?? 0 }
        set { setValue(newValue, forKey: "size") }
    }

    var folder: HookedDocument? {
        get { value(forKey: "folder") as? HookedDocument }
        set { setValue(newValue, forKey: "folder") }
    }

    override func willSave() {
        seen["willSave"] = SaveHookTests.Seen(self)
        onWillSave?(self)
    }

    override func didSave() {
        seen["didSave"] = SaveHookTests.Seen(self)
        onDidSave?(self)
    }

    override func prepareForDeletion() {
        seen["prepareForDeletion"] = SaveHookTests.Seen(self)
    }
}

/// Documents in folders (folders are documents too, of their own entity): deleting a folder
/// cascades to its documents.
enum HookModel {
    static func make() -> ManagedObjectModel {
        let document = EntityDescription(name: "Document")
        let folder = EntityDescription(name: "Folder")
        document.managedObjectClass = HookedDocument.self
        folder.managedObjectClass = HookedDocument.self
        let inFolder = RelationshipDescription(name: "folder", destination: folder)
        let documents = RelationshipDescription(name: "documents", destination: document, toMany: true, deleteRule: .cascadeDeleteRule)
        inFolder.inverseRelationship = documents
        documents.inverseRelationship = inFolder
        document.properties = [
            AttributeDescription(name: "name", type: .string),
            AttributeDescription(name: "size", type: .integer32, isOptional: false, defaultValue: 0),
            inFolder,
        ]
        folder.properties = [AttributeDescription(name: "name", type: .string), documents]
        return ManagedObjectModel(entities: [document, folder])
    }

    static func document(_ name: String, in context: ManagedObjectContext) throws -> HookedDocument {
        let document = try #require(try EntityDescription.insertNewObject(forEntityName: "Document", into: context) as? HookedDocument)
        document.name = name
        return document
    }

    static func folder(in context: ManagedObjectContext) throws -> HookedDocument {
        let folder = try #require(try EntityDescription.insertNewObject(forEntityName: "Folder", into: context) as? HookedDocument)
        folder.name = "Folder"
        return folder
    }
}

extension SaveHookTests.Seen {
    /// What the object's flags and change dictionaries say now.
    init(_ object: ManagedObject) {
        inserted = object.isInserted
        updated = object.isUpdated
        deleted = object.isDeleted
        hasChanges = object.hasChanges
        changedKeys = object.changedValues().keys.sorted()
        eventValues = object.changedValuesForCurrentEvent().mapValues { value in
            if value is NSNull { return "nil" }
            if let objects = value as? Set<ManagedObject> { return "\(objects.count) objects" }
            if let object = value as? ManagedObject { return object.value(forKey: "name") as? String ?? "?" }
            return "\(value)"
        }
    }
}

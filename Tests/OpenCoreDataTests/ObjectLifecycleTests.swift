import Foundation
import OpenCoreData
import Testing

/// Core Data's custom-accessor idiom (primitive values inside access and change notifications)
/// and the fault and snapshot lifecycle methods, with the object's state at each call. Serialized:
/// its tests share `Memo.events`.
@Suite(.serialized) struct ObjectLifecycleTests {
    /// An entity declared in code whose class writes its own accessors, as Core Data apps do.
    final class Memo: ManagedObject {
        nonisolated(unsafe) static var events: [String] = []

        var title: String? {
            get {
                willAccessValue(forKey: "title")
                defer { didAccessValue(forKey: "title") }
                return primitiveValue(forKey: "title") as? String
            }
            set {
                willChangeValue(forKey: "title")
                setPrimitiveValue(newValue?.trimmingCharacters(in: .whitespaces), forKey: "title")
                didChangeValue(forKey: "title")
            }
        }

        var words: Int {
            get { (primitiveValue(forKey: "words") as? Int) ?? 0 }
            set { setPrimitiveValue(newValue, forKey: "words") }
        }

        override func willTurnIntoFault() {
            Self.events.append("willTurnIntoFault fault=\(isFault) title=\(title ?? "nil")")
        }

        override func didTurnIntoFault() {
            Self.events.append("didTurnIntoFault fault=\(isFault)")
        }

        override func awake(fromSnapshotEvents flags: SnapshotEventType) {
            let names: [(SnapshotEventType, String)] = [(.refresh, "refresh"), (.rollback, "rollback"), (.undoInsertion, "undoInsertion"),
                                                        (.undoDeletion, "undoDeletion"), (.undoUpdate, "undoUpdate"),
                                                        (.mergePolicy, "mergePolicy")]
            let kind = names.filter { flags.contains($0.0) }.map(\.1).joined(separator: "+")
            Self.events.append("awake \(kind) title=\(title ?? "nil") words=\(words) deleted=\(isDeleted)")
        }
    }

    private static func model() -> ManagedObjectModel {
        let memo = EntityDescription(name: "Memo")
        memo.managedObjectClass = Memo.self
        memo.properties = [AttributeDescription(name: "title", type: .string),
                           AttributeDescription(name: "words", type: .integer64, defaultValue: Int64(0))]
        return ManagedObjectModel(entities: [memo])
    }

    @Test(arguments: StoreKind.withPostgres)
    func customAccessorsReadFaultsAndTrackChanges(kind: StoreKind) throws {
        let stack = try TestStack(kind, model: Self.model())
        let context = stack.newContext()
        try context.performAndWait {
            let memo = Memo(context: context)
            memo.title = "  groceries  "
            memo.words = 2
            try context.save()
        }
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let memo = try #require(try fresh.fetch(FetchRequest<Memo>(entityName: "Memo")).first)
            #expect(memo.isFault)
            memo.willAccessValue(forKey: nil)
            #expect(!memo.isFault)
            #expect(memo.title == "groceries" && memo.words == 2)
            // A primitive change outside the change notifications is tracked and saved all the same.
            memo.setPrimitiveValue(Int64(3), forKey: "words")
            #expect(memo.hasChanges && memo.changedValues().keys.sorted() == ["words"])
            try fresh.save()
        }
        let third = stack.newContext()
        let saved = try third.performAndWait { try third.fetch(FetchRequest<Memo>(entityName: "Memo")).first?.words }
        #expect(saved == 3)
    }

    /// A refresh that discards values turns the object into a fault between the two calls; one
    /// that keeps unsaved changes awakes it with the store's values under them; a rollback awakes
    /// changed and deleted objects with their saved values back.
    @Test func faultAndSnapshotEventsComeWithTheirState() throws {
        let stack = try TestStack(.sqlite, model: Self.model())
        let context = stack.newContext()
        let other = stack.newContext()
        try context.performAndWait {
            let memo = Memo(context: context)
            memo.title = "plan"
            let spare = Memo(context: context)
            spare.title = "spare"
            try context.save()

            Memo.events = []
            context.refresh(memo, mergeChanges: false)
            #expect(Memo.events == ["willTurnIntoFault fault=false title=plan", "didTurnIntoFault fault=true"])

            // An unsaved change here, then another context's save of another key.
            memo.title = "new plan"
            #expect(memo.words == 0)
            let id = memo.objectID
            try other.performAndWait {
                let copy = try #require(try other.existingObject(with: id) as? Memo)
                copy.words = 40
                try other.save()
            }
            Memo.events = []
            context.refresh(memo, mergeChanges: true)
            #expect(Memo.events == ["awake refresh title=new plan words=40 deleted=false"])

            Memo.events = []
            context.delete(spare)
            context.rollback()
            #expect(Set(Memo.events) == ["awake rollback title=plan words=40 deleted=false",
                                         "awake rollback title=spare words=0 deleted=false"])
        }
    }

    @Test func aMergePolicyTellsTheObjectsItResolved() throws {
        let stack = try TestStack(.sqlite, model: Self.model())
        let context = stack.newContext()
        let other = stack.newContext()
        try context.performAndWait {
            let memo = Memo(context: context)
            memo.title = "plan"
            try context.save()
            let id = memo.objectID
            try other.performAndWait {
                (try other.existingObject(with: id) as? Memo)?.words = 40
                try other.save()
            }
            context.mergePolicy = .mergeByPropertyObjectTrump
            memo.title = "new plan"
            Memo.events = []
            try context.save()
            #expect(Memo.events == ["awake mergePolicy title=new plan words=40 deleted=false"])
        }
    }

    @Test func undoTellsObjectsWhatItPutBack() throws {
        let stack = try TestStack(.sqlite, model: Self.model())
        let context = stack.newContext()
        try context.performAndWait {
            let memo = Memo(context: context)
            memo.title = "plan"
            try context.save()
            context.undoManager = UndoManager()

            memo.title = "new plan"
            context.processPendingChanges()
            Memo.events = []
            context.undo()
            #expect(Memo.events == ["awake undoUpdate title=plan words=0 deleted=false"])

            context.delete(memo)
            context.processPendingChanges()
            Memo.events = []
            context.undo()
            #expect(Memo.events == ["awake undoDeletion title=plan words=0 deleted=false"])

            let draft = Memo(context: context)
            draft.title = "draft"
            context.processPendingChanges()
            Memo.events = []
            context.undo()
            #expect(Memo.events == ["awake undoInsertion title=draft words=0 deleted=true"])
        }
    }
}

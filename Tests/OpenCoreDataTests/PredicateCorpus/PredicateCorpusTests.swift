import Foundation
import OpenCoreData
import Testing

// Runs the corpus: Apple-documented predicate behaviour, entry by entry, each failure naming its
// entry and the statement it comes from. Every predicate that parses must also print as a
// format that parses back to an equal predicate, and print the same again.

@Suite struct PredicateCorpusTests {
    @Test func printsAsCoreDataPrints() {
        for entry in PrintingCorpus.all {
            do {
                let predicate = try entry.format.parse()
                #expect(predicate.predicateFormat == entry.printed, "\(entry.format) [\(entry.source)]")
                try Self.expectRoundTrip(predicate, entry.format, entry.source)
            } catch {
                Issue.record("\(entry.format) does not parse: \(error) [\(entry.source)]")
            }
        }
    }

    @Test func evaluatesPlainValuesAsFoundationDoes() {
        for entry in ValueCorpus.all {
            do {
                let predicate = try entry.format.parse()
                let variables = entry.variables.mapValues { $0.make() }
                let answer = predicate.evaluate(with: entry.object.make(), substitutionVariables: variables)
                #expect(answer == entry.expected, "\(entry.format) on \(entry.object) [\(entry.source)]")
                try Self.expectRoundTrip(predicate, entry.format, entry.source)
            } catch {
                Issue.record("\(entry.format) does not parse: \(error) [\(entry.source)]")
            }
        }
    }

    @Test func fetchesAsDocumentedOnEveryPath() throws {
        let world = try CorpusWorld()
        for entry in StoreCorpus.all {
            do {
                let predicate = try entry.format.parse()
                try Self.expectRoundTrip(predicate, entry.format, entry.source)
                for (path, names) in try world.matches(predicate, entity: entry.entity) {
                    #expect(names == entry.expected, "\(entry.format) on \(path) [\(entry.source)]")
                }
            } catch {
                Issue.record("\(entry.format): \(error) [\(entry.source)]")
            }
        }
    }

    @Test func refusesWhatTheGrammarRejects() {
        for entry in RefusalCorpus.all {
            do {
                let predicate = try entry.format.parse()
                Issue.record("\(entry.format) parsed as \(predicate.predicateFormat) [\(entry.source)]")
            } catch let error as PredicateParseError {
                #expect(error.code == entry.code, "\(entry.format): \(error) [\(entry.source)]")
            } catch {
                Issue.record("\(entry.format) threw \(error) [\(entry.source)]")
            }
        }
    }

    /// The corpus is several hundred entries; a table that went missing would shrink it.
    @Test func corpusCoversTheLanguage() {
        let total = PrintingCorpus.all.count + ValueCorpus.all.count + StoreCorpus.all.count + RefusalCorpus.all.count
        #expect(total >= 700, "the corpus has \(total) entries")
        #expect(StoreCorpus.all.count >= 100)
    }

    static func expectRoundTrip(_ predicate: FetchPredicate, _ format: CorpusFormat, _ source: CorpusSource) throws {
        let printed = predicate.predicateFormat
        let reparsed = try FetchPredicate(format: printed)
        #expect(reparsed == predicate, "\(format) printed as \(printed), which parses as \(reparsed.predicateFormat) [\(source)]")
        #expect(reparsed.predicateFormat == printed, "\(format) printed as \(printed), then as \(reparsed.predicateFormat) [\(source)]")
    }
}

/// The corpus data in a saved SQLite store, a saved in-memory store, and unsaved in a context.
final class CorpusWorld {
    let sqlite: TestStack
    let memory: TestStack
    let unsavedStack: TestStack
    let sqliteContext: ManagedObjectContext
    let memoryContext: ManagedObjectContext
    /// Holds the corpus inserted but not saved: its fetches evaluate pending objects in memory.
    let unsavedContext: ManagedObjectContext

    init() throws {
        let model = try ManagedObjectModel(managedObjectClasses: [CorpusEmployee.self, CorpusDepartment.self])
        sqlite = try TestStack(.sqlite, model: model)
        memory = try TestStack(.inMemory, model: model)
        unsavedStack = try TestStack(.sqlite, model: model)
        for stack in [sqlite, memory] {
            let context = stack.newContext()
            try context.performAndWait {
                StoreCorpus.insert(into: context)
                try context.save()
            }
        }
        sqliteContext = sqlite.newContext()
        memoryContext = memory.newContext()
        unsavedContext = unsavedStack.newContext()
        unsavedContext.performAndWait { StoreCorpus.insert(into: unsavedContext) }
    }

    /// The names of the objects `predicate` selects, on each path: SQL, the SQLite store's
    /// count, the in-memory store, unsaved objects, and `evaluate(with:)`.
    func matches(_ predicate: FetchPredicate, entity: String) throws -> [(String, Set<String>)] {
        func fetch(_ context: ManagedObjectContext) throws -> Set<String> {
            try context.performAndWait {
                let request = FetchRequest<ManagedObject>(entityName: entity)
                request.predicate = predicate
                return Set(try context.fetch(request).map(Self.name))
            }
        }
        let sqliteNames = try fetch(sqliteContext)
        let count = try sqliteContext.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: entity)
            request.predicate = predicate
            return try sqliteContext.count(for: request)
        }
        let evaluated = try sqliteContext.performAndWait {
            Set(try sqliteContext.fetch(FetchRequest<ManagedObject>(entityName: entity)).filter { predicate.evaluate(with: $0) }.map(Self.name))
        }
        var results = [("SQLite", sqliteNames), ("in-memory store", try fetch(memoryContext)),
                       ("unsaved objects", try fetch(unsavedContext)), ("evaluate(with:)", evaluated)]
        if count != sqliteNames.count { results.append(("SQLite count \(count)", [])) }
        return results
    }

    private static func name(_ object: ManagedObject) -> String {
        (object.value(forKey: object is CorpusEmployee ? "firstName" : "name") as? String) ?? "?"
    }
}

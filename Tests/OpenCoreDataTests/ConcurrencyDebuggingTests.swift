import Foundation
@testable import OpenCoreData
import Testing

/// The concurrency check (Core Data's `-com.apple.CoreData.ConcurrencyDebug 1`): using an object
/// off its context's queue stops the program, naming the object, the queue and the fix. Each exit
/// test sets `OCD_CONCURRENCY_DEBUG` in its own child process before the first context exists.
@Suite struct ConcurrencyDebuggingTests {
    /// A saved team, and a fresh context in which it is a fault.
    static func savedTeamAsFault(in stack: TestStack) throws -> (ManagedObjectContext, Team) {
        let writer = stack.newContext()
        let id = try writer.performAndWait {
            let team = Team(context: writer)
            team.teamName = "Brazil"
            team.qualifyingZone = "CONMEBOL"
            try writer.save()
            return team.objectID
        }
        let reader = stack.newContext()
        reader.name = "reader"
        let team = reader.performAndWait { reader.object(with: id) as! Team }
        return (reader, team)
    }

    static func standardError(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func readingAPropertyOffTheQueueStopsNamingTheObjectAndTheFix() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv("OCD_CONCURRENCY_DEBUG", "1", 1)
            let stack = try TestStack(.inMemory)
            let context = stack.newContext()
            let team = context.performAndWait {
                let team = Team(context: context)
                team.teamName = "Brazil"
                return team
            }
            _ = team.teamName
        }
        let message = Self.standardError(result)
        #expect(message.contains("Concurrency violation: Team x-coredata:///Team/t"))
        #expect(message.contains("whose objects may be used only on its private queue ('OpenCoreData.context')"))
        #expect(message.contains("context.perform { } or context.performAndWait { }"))
        #expect(message.contains("pass its objectID"))
    }

    @Test func writingAPropertyOffTheQueueStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv("OCD_CONCURRENCY_DEBUG", "1", 1)
            let stack = try TestStack(.inMemory)
            let context = stack.newContext()
            let team = context.performAndWait { Team(context: context) }
            team.wins = 3
        }
        #expect(Self.standardError(result).contains("Concurrency violation: Team"))
    }

    @Test func firingAFaultOffTheQueueStopsBeforeReadingTheStore() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv("OCD_CONCURRENCY_DEBUG", "1", 1)
            let stack = try TestStack(.sqlite)
            let (reader, team) = try Self.savedTeamAsFault(in: stack)
            precondition(team.isFault, "the object must still be a fault")
            _ = team.teamName
            withExtendedLifetime(reader) {}
        }
        let message = Self.standardError(result)
        #expect(message.contains("Concurrency violation: Team x-coredata://"))
        #expect(message.contains("/Team/p1 was used on"))
        #expect(message.contains("<ManagedObjectContext reader private>"))
    }

    @Test func usingAnObjectOnAnotherContextsQueueNamesThatContext() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv("OCD_CONCURRENCY_DEBUG", "1", 1)
            let stack = try TestStack(.inMemory)
            let (reader, team) = try Self.savedTeamAsFault(in: stack)
            let other = stack.newContext()
            other.name = "importer"
            other.performAndWait { _ = team.teamName }
            withExtendedLifetime(reader) {}
        }
        #expect(Self.standardError(result).contains("was used on the private queue of <ManagedObjectContext importer private>"))
    }

    @Test func aMainQueueObjectUsedOnAnotherThreadStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv("OCD_CONCURRENCY_DEBUG", "1", 1)
            let stack = try TestStack(.inMemory)
            let context = stack.container.viewContext
            nonisolated(unsafe) let team = context.performAndWait { Team(context: context) }
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                team.teamName = "off the main thread"
                done.signal()
            }
            done.wait()
        }
        let message = Self.standardError(result)
        #expect(message.contains("whose objects may be used only on the main queue"))
        #expect(message.contains("inside the main queue or context.perform"))
    }

    @Test func turnedOffTheSameMisuseRunsOn() async {
        await #expect(processExitsWith: .success) {
            setenv("OCD_CONCURRENCY_DEBUG", "0", 1)
            let stack = try TestStack(.inMemory)
            let context = stack.newContext()
            let team = context.performAndWait { Team(context: context) }
            team.teamName = "unchecked"
            precondition(team.teamName == "unchecked")
        }
    }

    @Test func objectsReadInsideTheContextsOwnStoreReadsPassTheCheck() throws {
        // A controller compares rows by reading objects' values inside a store read, which runs
        // on the store's queue while the context's queue waits for it: that still counts as the
        // context's queue, for the check and for performAndWait's re-entrance.
        let stack = try TestStack(.sqlite)
        let context = stack.newContext()
        try context.performAndWait {
            let team = Team(context: context)
            team.teamName = "Brazil"
            team.qualifyingZone = "CONMEBOL"
            try context.save()
            let wins = try #require(team.entity.attributesByName["wins"])
            let names = try context.readingAttributesAsSeen(of: team.entity, [wins]) { read in
                _ = try read([team.objectID])
                return context.performAndWait { team.teamName }
            }
            #expect(names == "Brazil")
        }
    }

    @Test(arguments: [
        (environment: [:], arguments: [], expected: Self.debugBuildDefault),
        (environment: ["OCD_CONCURRENCY_DEBUG": "1"], arguments: [], expected: true),
        (environment: ["OCD_CONCURRENCY_DEBUG": "on"], arguments: [], expected: true),
        (environment: ["OCD_CONCURRENCY_DEBUG": "0"], arguments: [], expected: false),
        (environment: ["OCD_CONCURRENCY_DEBUG": "false"], arguments: [], expected: false),
        (environment: ["OCD_CONCURRENCY_DEBUG": "maybe"], arguments: [], expected: Self.debugBuildDefault),
        (environment: [:], arguments: ["app", "-com.apple.CoreData.ConcurrencyDebug", "1"], expected: true),
        (environment: [:], arguments: ["app", "-com.apple.CoreData.ConcurrencyDebug", "0"], expected: false),
        (environment: [:], arguments: ["app", "-com.apple.CoreData.ConcurrencyDebug"], expected: Self.debugBuildDefault),
        (environment: ["OCD_CONCURRENCY_DEBUG": "0"], arguments: ["app", "-com.apple.CoreData.ConcurrencyDebug", "1"], expected: false),
    ] as [(environment: [String: String], arguments: [String], expected: Bool)])
    func theSwitchReadsTheEnvironmentThenCoreDatasLaunchArgument(
        environment: [String: String], arguments: [String], expected: Bool
    ) {
        #expect(ConcurrencyDebugging.decide(environment: environment, arguments: arguments) == expected)
    }

    #if DEBUG
    static let debugBuildDefault = true
    #else
    static let debugBuildDefault = false
    #endif
}

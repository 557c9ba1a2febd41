import Foundation
import OpenCoreData

/// The random changes the fuzzer's batches are made of, from a seed, in whichever process makes
/// them. Inserts outnumber deletes until a context sees more than 120 cards, so the store levels
/// off there and a long run does not slow down.
struct CardChanges {
    var random: SplitMix64
    /// The changes made since the list was last emptied, for a mismatch report.
    var operations: [String] = []

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    private static let decks: [String?] = ["A", "B", "C", "D", nil]
    private static let titles = ["ace", "king", "queen", "jack", "ten"]

    private mutating func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }

    /// A new card with random values; now and then in a rare deck, so that sections come and go.
    @discardableResult
    mutating func insertCard(in context: ManagedObjectContext) -> Card {
        let card = Card(context: context)
        card.deck = random.next() % 30 == 0 ? "E\(random.next() % 3)" : pick(Self.decks)
        card.rank = Int32(random.next() % 50)
        card.title = pick(Self.titles)
        card.visible = random.next() % 5 != 0
        card.note = random.next() % 2 == 0 ? nil : "note"
        return card
    }

    /// One change in `context`: an insert, a delete, or a new value for one attribute of a card.
    /// Returns the card it inserted, if it inserted one.
    @discardableResult
    mutating func change(in context: ManagedObjectContext, cards: inout [Card]) -> Card? {
        let roll = random.next() % 100
        if cards.isEmpty || roll < 15 || (cards.count < 40 && roll < 30) {
            let card = insertCard(in: context)
            cards.append(card)
            operations.append("\(context.name ?? "") insert")
            return card
        }
        let picked = Int(random.next() % UInt64(cards.count))
        let card = cards[picked]
        let label = "\(context.name ?? "") \(card.objectID.uriRepresentation().lastPathComponent)"
        switch roll {
        case ..<30 where cards.count > 120, 30..<42:
            context.delete(card)
            cards.remove(at: picked)
            operations.append("\(label) delete")
        case 42..<60:
            card.rank = Int32(random.next() % 50)
            operations.append("\(label) rank \(card.rank)")
        case 60..<72:
            card.deck = random.next() % 20 == 0 ? "E\(random.next() % 3)" : pick(Self.decks)
            operations.append("\(label) deck \(card.deck ?? "nil")")
        case 72..<84:
            card.visible.toggle()
            operations.append("\(label) visible \(card.visible)")
        case 84..<92:
            card.title = pick(Self.titles)
            operations.append("\(label) title \(card.title)")
        default:
            card.note = card.note == nil ? "changed" : nil
            operations.append("\(label) note")
        }
        return nil
    }
}

import Foundation

/// Made-up failed banks, the same ones for the same seed: the seed app imports a list of real
/// closures shipped with it; this app invents its own so that it ships no data file.
///
/// Banks close on Fridays between 2008 and 2012, so several banks often share a close date, as
/// they do in the real list; the list's order then depends on the store's tie-break, which the
/// tests check against a fresh fetch.
public enum BankGenerator {
    /// How many banks the app imports on first launch.
    public static let defaultCount = 300

    /// `count` banks with distinct names.
    public static func banks(count: Int = defaultCount, seed: UInt64 = 2008) -> [BankRecord] {
        var random = ImportRandom(seed: seed)
        var names = Set<String>()
        var banks: [BankRecord] = []
        banks.reserveCapacity(count)
        while banks.count < count {
            let place = places[random.below(places.count)]
            let name = "\(firstWords[random.below(firstWords.count)]) \(secondWords[random.below(secondWords.count)]) \(kinds[random.below(kinds.count)])"
            guard names.insert(name).inserted else { continue }
            let closeDate = friday(week: random.below(weeks))
            banks.append(BankRecord(name: name, city: place.city, state: place.state,
                                    zip: Int32(place.zipBase + random.below(900)),
                                    closeDate: closeDate,
                                    updatedDate: closeDate.addingTimeInterval(Double(1 + random.below(900)) * day)))
        }
        return banks
    }

    private static let day: TimeInterval = 86_400
    /// Friday, 4 January 2008, 00:00 UTC.
    private static let firstFriday = Date(timeIntervalSince1970: 1_199_404_800)
    /// The Fridays up to the end of 2012.
    private static let weeks = 260

    private static func friday(week: Int) -> Date {
        firstFriday.addingTimeInterval(Double(week * 7) * day)
    }

    private static let firstWords = ["First", "Heritage", "Pioneer", "Citizens", "Peoples", "Security", "Frontier",
                                     "Horizon", "Liberty", "Summit", "Valley", "Prairie", "Coastal", "Keystone",
                                     "Cornerstone", "Lakeside", "Riverside", "Golden", "Union", "Evergreen"]
    private static let secondWords = ["Community", "National", "State", "Mutual", "Federal", "Home", "Farmers",
                                      "Merchants", "Capital", "County", "Guaranty", "Western"]
    private static let kinds = ["Bank", "Bank & Trust", "Savings Bank", "Thrift", "Bancorp"]
    private static let places: [(city: String, state: String, zipBase: Int)] = [
        ("Atlanta", "GA", 30_300), ("Alpharetta", "GA", 30_000), ("Chicago", "IL", 60_600), ("Naperville", "IL", 60_500),
        ("Orlando", "FL", 32_800), ("Naples", "FL", 34_100), ("Tampa", "FL", 33_600), ("Los Angeles", "CA", 90_000),
        ("San Diego", "CA", 92_100), ("Sacramento", "CA", 95_800), ("Phoenix", "AZ", 85_000), ("Las Vegas", "NV", 89_100),
        ("Seattle", "WA", 98_100), ("Portland", "OR", 97_200), ("Minneapolis", "MN", 55_400), ("Kansas City", "MO", 64_100),
        ("Detroit", "MI", 48_200), ("Milwaukee", "WI", 53_200), ("Denver", "CO", 80_200), ("Houston", "TX", 77_000),
        ("Dallas", "TX", 75_200), ("Charlotte", "NC", 28_200), ("Columbia", "SC", 29_200), ("Salt Lake City", "UT", 84_100),
    ]
}

/// A 64-bit linear congruential generator (Knuth's MMIX constants), returning the high bits:
/// plenty for made-up data, and the same numbers on every platform.
private struct ImportRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}

/// A set of public-holiday dates that is cheap to consult (a binary search over sorted integers).
public struct PublicHolidays: Sendable, Hashable {
    private let keys: [Int]

    public init(_ dates: some Sequence<CalendarDate>) {
        keys = Set(dates.map(PublicHolidays.key)).sorted()
    }

    private static func key(_ date: CalendarDate) -> Int { (date.year * 100 + date.month) * 100 + date.day }

    public var isEmpty: Bool { keys.isEmpty }

    /// Whether the set lists any holiday of `year`: a calendar file covers the years it lists, and
    /// for another year whether a day is a holiday is not known.
    public func covers(year: Int) -> Bool {
        let first = year * 10_000
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < first { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] < first + 10_000
    }

    public func contains(_ date: CalendarDate) -> Bool {
        let key = PublicHolidays.key(date)
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == key
    }
}

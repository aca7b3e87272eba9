extension Vocabulary {
    /// The moment of an open filter (`--open`, `OPEN`, `open=`): `now`, a date-time with its UTC
    /// offset, or a local date-time read in each place's zone (`OpeningMoment`).
    public static let openingMoment = ValueRule<OpeningMoment>(
        noun: "open time", expected: OpeningMoment.expected, read: { OpeningMoment(parsing: $0) })

    /// An attribute filter (`--where`, `where=`): `NAME=VALUE`, a valid attribute name and value.
    public static let attributeMatch = ValueRule<AttributeMatch>(
        noun: "attribute filter", expected: AttributeMatch.expected, read: { AttributeMatch(parsing: $0) },
        accepts: { attributeName.isValid($0.name) && attributeValue.isValid($0.value) },
        show: { "\($0.name)=\($0.value)" })

    /// A place's `tz` attribute (and `import --tz`): a zone of the system's time-zone database.
    public static let timeZone = ValueRule<String>(
        noun: "time zone", expected: TimeZones.expected, read: { $0 },
        accepts: { TimeZones.zone(named: $0) != nil })

    /// A place's `duty` attribute: duty spells (`DutyRota`), at most 8,192 characters (about 240
    /// spells; `vicinity import-rota` drops the spells that have ended).
    public static let dutyRota = ValueRule<DutyRota>(
        noun: "duty rota", expected: DutyRota.expected + ", at most 8192 characters",
        read: { $0.utf8.count <= 8_192 ? DutyRota(parsing: $0) : nil })

    /// The rule for the value of the attribute `name`: `timeZone` for `tz`, `dutyRota`'s length
    /// for `duty`, `attributeValue` for every other.
    public static func checkAttribute(name: String, value: String) throws(PlacesError) {
        switch name {
        case PlaceHours.zoneAttribute where !value.isEmpty: _ = try timeZone.parse(value)
        case PlaceHours.dutyAttribute: _ = try dutyRota.parse(value)
        default: _ = try attributeValue.parse(value)
        }
    }
}

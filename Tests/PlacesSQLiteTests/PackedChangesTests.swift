import Foundation
import Geo
import Places
import Testing

@testable import PlacesSQLite

/// The framing of a packed change-log row: `ChangeCoding` never writes a line feed or an empty
/// text, so texts joined by line feeds split back into exactly the texts packed, whatever their
/// fields hold.
@Suite struct PackedChangesTests {
    /// Fields a person could type: tabs, line feeds, carriage returns, backslashes (alone, before
    /// an escape letter, at the end), empty fields, non-ASCII letters and emoji.
    static let hostile = [
        "", "\t", "\n", "\r\n", "\\", "\\n", "a\\", "tab\there", "line\nfeed", "\n\n\t\\t", "İstanbul Üsküdar",
        "東京", "🚑 eczane", " ", "\u{2028}\u{2029}\u{85}",
    ]

    static func changes() throws -> [DirectoryChange] {
        let here = try Coordinate(latitude: -33.5, longitude: 151.25)
        let digest = TokenDigest(of: "secret")
        var changes: [DirectoryChange] = []
        for (index, text) in hostile.enumerated() {
            let id = "id\(index)" + text
            changes.append(
                .putPlace(
                    Place(
                        id: id, kind: "kind" + text, name: text, coordinate: here, attributeNames: [text, "b" + text],
                        attributeValues: [text, ""])))
            changes.append(.removePlace(kind: "k" + text, id: id))
            changes.append(.addUser(User(id: id, name: text, location: here, precision: .exact), tokenDigest: digest))
            changes.append(
                .putUser(User(id: id, name: text, visibility: .private, precision: .city), tokenDigest: digest))
            changes.append(.moveUser(id, to: nil, expiresAt: nil))
            changes.append(.setVisibility(id, .public, privateUntil: Date(timeIntervalSince1970: 1_800_000_000)))
            changes.append(.setPrecision(id, .district))
            changes.append(.forgetLocation(id, expiresAt: Date(timeIntervalSince1970: 1_700_000_000)))
            changes.append(.endPrivacy(id, privateUntil: Date(timeIntervalSince1970: 1_700_000_001)))
            changes.append(.removeUser(id))
        }
        changes.append(.setAdminToken(digest))
        return changes
    }

    @Test func noChangeIsWrittenWithALineFeedOrAsNothing() throws {
        for change in try Self.changes() {
            let text = ChangeCoding.encode(change)
            #expect(!text.utf8.isEmpty)
            #expect(!text.utf8.contains(PackedChanges.separator), "\(change)")
        }
    }

    @Test func hostileTextsRoundTripThroughOneRow() throws {
        let changes = try Self.changes()
        var pack = PackedChanges()
        for change in changes { try pack.append { $0 += ChangeCoding.encode(change).utf8 } }
        #expect(pack.count == changes.count)
        var read: [DirectoryChange] = []
        try pack.bytes.withUnsafeBufferPointer { bytes in
            try PackedChanges.forEachText(in: bytes, expected: changes.count) { offset, text in
                #expect(offset == read.count)
                read.append(try ChangeCoding.decode(String(decoding: text, as: UTF8.self)))
            }
        }
        #expect(read == changes)
    }

    @Test func aRowOfOneChangeIsItsTextAlone() throws {
        let text = ChangeCoding.encode(.removePlace(kind: "pharmacy", id: "a\tb"))
        var pack = PackedChanges()
        try pack.append { $0 += text.utf8 }
        #expect(pack.bytes == Array(text.utf8))
    }

    @Test(arguments: ["R\tk\ti\nR\tk\tj", ""])
    func aTextWithALineFeedOrNoneIsRefusedAndLeavesThePackAsItWas(text: String) throws {
        var pack = PackedChanges()
        try pack.append { $0 += "R\tk\ta".utf8 }
        #expect(throws: SQLiteStoreError.self) { try pack.append { $0 += text.utf8 } }
        #expect(pack.count == 1)
        #expect(pack.bytes == Array("R\tk\ta".utf8))
        try pack.append { $0 += "R\tk\tb".utf8 }
        #expect(pack.bytes == Array("R\tk\ta\nR\tk\tb".utf8))
    }

    @Test func aFailureWhileWritingATextLeavesThePackAsItWas() throws {
        struct Stop: Error {}
        var pack = PackedChanges()
        try pack.append { $0 += "R\tk\ta".utf8 }
        #expect(throws: Stop.self) {
            try pack.append { bytes in
                bytes += "R\tk".utf8
                throw Stop()
            }
        }
        #expect(pack.count == 1)
        #expect(pack.bytes == Array("R\tk\ta".utf8))
    }

    /// A row whose texts do not match its positions is corrupt: fewer, more, or a trailing line feed.
    @Test(arguments: [("a\nb", 3), ("a\nb\nc", 2), ("a\n", 1), ("a", 2)])
    func aRowHoldingAnotherNumberOfTextsIsCorrupt(row: String, expected: Int) throws {
        let bytes = Array(row.utf8)
        #expect(throws: SQLiteStoreError.self) {
            try bytes.withUnsafeBufferPointer { bytes in
                try PackedChanges.forEachText(in: bytes, expected: expected) { _, _ in }
            }
        }
    }
}

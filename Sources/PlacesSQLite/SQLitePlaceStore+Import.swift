import Foundation
import GRDB
import Geo
import Places

extension SQLitePlaceStore {
    /// Stores many places in one transaction, all or none: the bulk path for imports.
    ///
    /// A place whose kind and id are already stored is updated (upsert). With `replacingKinds`,
    /// every stored place of those kinds is deleted first, in the same transaction, so that the
    /// kind ends up holding exactly `places`' places of it.
    ///
    /// - Parameters:
    ///   - progress: called now and then with the number of places stored so far.
    /// - Throws: `SQLiteStoreError.writeFailed`; nothing of the import is then stored.
    public func importPlaces(
        _ places: [Place], replacingKinds: Set<String> = [], progress: ((Int) -> Void)? = nil
    ) throws(SQLiteStoreError) {
        try write { db in
            for kind in replacingKinds.sorted() {
                try db.execute(sql: "DELETE FROM place WHERE kind = ?", arguments: [kind])
            }
            let statement = try db.makeStatement(sql: SQLitePlaceStore.upsertPlaceSQL)
            for (offset, place) in places.enumerated() {
                try statement.execute(arguments: [
                    place.kind, place.id, place.name, place.coordinate.latitude, place.coordinate.longitude,
                    AttributeCoding.encode(place.orderedAttributes),
                ])
                if offset % 8_192 == 8_191 { progress?(offset + 1) }
            }
            progress?(places.count)
        }
    }

    /// The stored places of `kind`, by id.
    public func places(kind: String) throws(SQLiteStoreError) -> [Place] {
        try fetchPlaces(where: "WHERE kind = ?", arguments: [kind])
    }
}

import Foundation
import Places
import PlacesSQLite
import TestSupport
import Testing

@testable import VicinityCLI

/// Opening hours through the command line: import with --tz and --strict-hours, duty rotas,
/// --open and --where on near, nearest and map.
@Suite struct CLIHoursTests {
    static let places = """
        id,name,lat,lon,opening_hours,dispensing
        day,Day,45.0700,7.6800,Mo-Fr 08:30-19:30,yes
        night,Night,45.0710,7.6810,Mo-Su 19:00-09:00,no
        broken,Broken,45.0705,7.6805,8.45-19.30 (continuato),yes
        none,None,45.0702,7.6802,,yes
        far,Far,45.5000,7.9000,24/7,yes

        """

    static func database() throws -> String {
        let db = TestEnvironment.freshDatabase()
        let file = try TemporaryDirectory(prefix: "vicinity-hours").write("places.csv", places)
        let imported = CLI.test(["import", file, "--kind", "pharmacy", "--tz", "Europe/Rome", "--db", db])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardError.contains("1 place has opening_hours that do not parse"))
        #expect(
            imported.standardError.contains(
                "places.csv:4: opening_hours \"8.45-19.30 (continuato)\" does not parse at column"))
        return db
    }

    @Test func strictHoursRefusesWithFileLineAndColumn() throws {
        let db = TestEnvironment.freshDatabase()
        let file = try TemporaryDirectory(prefix: "vicinity-hours").write("places.csv", Self.places)
        let refused = CLI.test(["import", file, "--kind", "pharmacy", "--strict-hours", "--db", db])
        #expect(refused.status == 65)
        #expect(
            refused.standardError.hasPrefix(
                "vicinity: \(file):4: opening_hours \"8.45-19.30 (continuato)\" does not parse at column 1: "))
        let skipped = CLI.test([
            "import", file, "--kind", "pharmacy", "--strict-hours", "--skip-invalid", "--tz", "UTC", "--db", db,
        ])
        #expect(skipped.status == 0)
        #expect(skipped.standardOutput.contains("Imported 4 places"))
        let badZone = CLI.test(["import", file, "--kind", "pharmacy", "--tz", "Europe/Rom", "--db", db])
        #expect(badZone.status == 64)
        #expect(badZone.standardError.contains("invalid time zone \"Europe/Rom\": expected an IANA time-zone name"))
        let noZone = CLI.test(["import", file, "--kind", "pharmacy", "--db", TestEnvironment.freshDatabase()])
        #expect(noZone.standardError.contains("places have hours but no tz attribute"))
    }

    @Test func openNowAndAtAnInstantFilterAndSayUntilWhen() throws {
        let db = try Self.database()
        // Thursday 26 November 2026, 10:00 in Rome.
        let morning = CLI.test(["near", "45.07", "7.68", "--radius", "1000", "--open", "2026-11-26T10:00", "--db", db])
        #expect(morning.status == 0, "\(morning.standardError)")
        #expect(morning.standardOutput.hasPrefix("1 pharmacy open at 2026-11-26T10:00 local time within 1000 m"))
        #expect(morning.standardOutput.contains("Day") && morning.standardOutput.contains("open until Thu 19:30"))
        #expect(!morning.standardOutput.contains("Broken") && !morning.standardOutput.contains("None"))
        // 22:00 Rome = 21:00Z: the night one, and the far 24/7 one for nearest.
        let nearest = CLI.test([
            "nearest", "45.07", "7.68", "--count", "3", "--open", "2026-11-26T21:00Z", "--json", "--db", db,
        ])
        let document = try JSONSerialization.jsonObject(with: Data(nearest.standardOutput.utf8)) as? [String: Any]
        let results = document?["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["id"] as? String } == ["night", "far"])
        #expect(results.first?["open"] as? String == "open")
        #expect(results.first?["open_until"] as? String == "2026-11-27T09:00+01:00")
        #expect(results.first?["on_duty"] == nil, "only when true, as on the line protocol and HTTP")
        let dispensing = CLI.test([
            "nearest", "45.07", "7.68", "--count", "3", "--open", "2026-11-26T21:00Z", "--where", "dispensing=yes",
            "--db", db,
        ])
        #expect(dispensing.standardOutput.contains("Far") && !dispensing.standardOutput.contains("Night"))
        #expect(
            CLI.test(["near", "45.07", "7.68", "--open", "later", "--db", db]).standardError.contains(
                "invalid open time \"later\""))
        #expect(
            CLI.test(["near", "45.07", "7.68", "--where", "x", "--db", db]).standardError.contains(
                "invalid attribute filter \"x\""))
    }

    @Test func dutyRotaOverridesTheHours() throws {
        let db = try Self.database()
        let rota = try TemporaryDirectory(prefix: "vicinity-rota").write(
            "rota.csv",
            "place_id,start,end\nday,2099-11-28T19:30,2099-11-29T08:30\nday,2026-01-01T19:30,2026-01-02T08:30\n")
        let imported = CLI.test(["import-rota", rota, "--db", db])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(
            imported.standardOutput
                == "Imported 1 duty spell for 1 pharmacy into \(db); 1 spell had already ended and was left out "
                + "(--keep-ended keeps them).\n")
        let store = try SQLitePlaceStore(path: db)
        let day = try store.places().first { $0.id == "day" }
        // The spell that ended is dropped; the coming one is kept.
        #expect(day?.attribute("duty") == "2099-11-28T19:30/2099-11-29T08:30")
        let saturdayNight = CLI.test([
            "near", "45.07", "7.68", "--radius", "200", "--open", "2099-11-28T22:00", "--db", db,
        ])
        #expect(saturdayNight.standardOutput.contains("Day"))
        #expect(saturdayNight.standardOutput.contains("on duty until Sun 08:30"))
        // Importing the place file again keeps the rota (the file has no duty column).
        let file = try TemporaryDirectory(prefix: "vicinity-hours").write("places.csv", Self.places)
        #expect(CLI.test(["import", file, "--kind", "pharmacy", "--tz", "Europe/Rome", "--db", db]).status == 0)
        let again = try SQLitePlaceStore(path: db).places().first { $0.id == "day" }
        #expect(again?.attribute("duty") == "2099-11-28T19:30/2099-11-29T08:30")
        let missing = try TemporaryDirectory(prefix: "vicinity-rota").write(
            "rota.csv", "place_id,start,end\nnobody,2099-11-28T19:30,2099-11-29T08:30\n")
        let refused = CLI.test(["import-rota", missing, "--db", db])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("rota.csv:2: no pharmacy \"nobody\" is stored"))
        let backwards = try TemporaryDirectory(prefix: "vicinity-rota").write(
            "rota.csv", "place_id,start,end\nday,2099-11-29T08:30,2099-11-28T19:30\n")
        #expect(
            CLI.test(["import-rota", backwards, "--db", db]).standardError.contains("expected a start before its end"))
    }

    @Test func theMapMarksOpenAndClosedPlaces() throws {
        let db = try Self.database()
        let map = CLI.test([
            "map", "45.07", "7.68", "--radius", "300", "--open", "2026-11-26T10:00", "--width", "80", "--height", "30",
            "--color", "never", "--ascii", "--db", db,
        ])
        #expect(map.status == 0, "\(map.standardError)")
        #expect(map.standardOutput.contains("closed pharmacy"))
        #expect(map.standardOutput.contains("hours unknown"))
        #expect(map.standardOutput.contains("open until Thu 19:30"))
        #expect(map.standardOutput.contains("closed, opens Thu 19:00"))
    }
}

import Foundation
import PlacesPostgres
import Testing

/// Reading the connection URL: the accepted forms, where the password may come from, and the
/// messages for the rest. Needs no server.
@Suite struct PostgresSettingsTests {
    @Test(arguments: [
        ("postgres://ana@db.internal:6543/places", "db.internal", 6543, "ana", "places"),
        ("postgresql://ana@127.0.0.1/places", "127.0.0.1", 5432, "ana", "places"),
        ("postgres://ana@[::1]:5433/places", "::1", 5433, "ana", "places"),
        ("postgres://ana%40corp@host:5432", "host", 5432, "ana@corp", "ana@corp"),
    ])
    func acceptedForms(url: String, host: String, port: Int, user: String, database: String) throws {
        let settings = try PostgresSettings.parse(url, passwordFile: nil, environment: [:], urlFromCommandLine: true)
        #expect(settings.host == host)
        #expect(settings.port == port)
        #expect(settings.user == user)
        #expect(settings.database == database)
        #expect(settings.password == nil)
    }

    @Test func aPasswordOnTheCommandLineIsRefusedAndNeverShown() {
        #expect {
            try PostgresSettings.parse(
                "postgres://ana:s3cret@host/db", passwordFile: nil, environment: [:], urlFromCommandLine: true)
        } throws: { error in
            let text = "\(error)"
            return text.contains("holds a password") && text.contains("$VICINITY_POSTGRES") && !text.contains("s3cret")
        }
    }

    /// Review finding: a password holding `/` (base64) ended the user part early and was printed
    /// in the "not a PostgreSQL URL" message.
    @Test(arguments: ["postgres://vic:ab/cd+ef@db.internal:5432/vicinity", "postgres://vic:a?b#c@h/db", "vic:pw@h"])
    func aPasswordWithSlashesIsNeverShown(url: String) {
        for fromCommandLine in [true, false] {
            do {
                let settings = try PostgresSettings.parse(
                    url, passwordFile: nil, environment: [:], urlFromCommandLine: fromCommandLine)
                #expect(!settings.description.contains("cd+ef") && !settings.description.contains("pw"))
            } catch {
                let text = "\(error)"
                #expect(!text.contains("cd+ef") && !text.contains("a?b") && !text.contains(":pw@"), "\(text)")
            }
        }
    }

    @Test func thePasswordComesFromTheEnvironmentsURLThenTheFileThenPGPASSWORD() throws {
        let fromURL = try PostgresSettings.parse(
            "postgres://ana:s3cret@host/db", passwordFile: nil, environment: ["PGPASSWORD": "other"],
            urlFromCommandLine: false)
        #expect(fromURL.password == "s3cret")
        #expect(!fromURL.description.contains("s3cret"))
        #expect(fromURL.description == "postgres://ana@host:5432/db")
        var dumped = ""
        dump(fromURL, to: &dumped)
        #expect(!dumped.contains("s3cret") && !String(reflecting: fromURL).contains("s3cret"))

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)").path
        try "from-file\nsecond line\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let fromFile = try PostgresSettings.parse(
            "postgres://ana@host/db", passwordFile: file, environment: ["PGPASSWORD": "other"], urlFromCommandLine: true
        )
        #expect(fromFile.password == "from-file")

        let fromEnvironment = try PostgresSettings.parse(
            "postgres://ana@host/db", passwordFile: nil, environment: ["PGPASSWORD": "other"], urlFromCommandLine: true)
        #expect(fromEnvironment.password == "other")
    }

    @Test(arguments: [
        ("mysql://ana@host/db", "the scheme is not postgres"),
        ("postgres://host/db", "no USER@"),
        ("postgres://ana@host:99999/db", "the port is not a number"),
        ("postgres://ana@/db", "no host"),
        ("db.internal:5432", "no postgres://"),
        ("postgres://ana@host/db?sslmode=require", "options after ?"),
    ])
    func badURLsNameTheValueAndTheExpectedForm(url: String, reason: String) {
        #expect {
            try PostgresSettings.parse(url, passwordFile: nil, environment: [:], urlFromCommandLine: true)
        } throws: { error in
            let text = "\(error)"
            return text.contains(url) && text.contains(reason) && text.contains("postgres://USER@HOST:PORT/DATABASE")
        }
    }

    @Test func aMissingPasswordFileIsNamed() {
        #expect {
            try PostgresSettings.parse(
                "postgres://ana@host/db", passwordFile: "/nonexistent/pgpass", environment: [:],
                urlFromCommandLine: true)
        } throws: { error in "\(error)".contains("/nonexistent/pgpass") }
    }
}

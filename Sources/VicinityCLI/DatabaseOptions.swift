import ArgumentParser

/// `--db`, shared by every command that uses the database.
struct DatabaseOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            Database file (default: $VICINITY_DB, else $XDG_DATA_HOME/vicinity/vicinity.sqlite, which \
            the first use creates with the shipped pharmacies).
            """,
            valueName: "path"))
    var db: String?

    /// The database these options name.
    func locate() throws(CLIError) -> Database { try Database.locate(option: db, environment: CLIEnvironment.current) }
}

/// `--token`, else `$VICINITY_TOKEN`, else none.
enum TokenOption {
    static func resolve(_ option: String?) -> String? {
        if let option { return option.trimmingCharacters(in: .whitespaces) }
        let variable = CLIEnvironment.current["VICINITY_TOKEN"]
        return variable?.isEmpty == false ? variable : nil
    }
}

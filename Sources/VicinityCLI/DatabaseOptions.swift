import ArgumentParser

/// `--db`, or `--postgres`, shared by every command that uses the database.
struct DatabaseOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            Database file (default: $VICINITY_DB, else $XDG_DATA_HOME/vicinity/vicinity.sqlite, which \
            the first use creates with the shipped pharmacies).
            """,
            valueName: "path"))
    var db: String?
    @Option(
        help: ArgumentHelp(
            """
            A PostgreSQL database instead of a file, for several servers over one database \
            (default: $VICINITY_POSTGRES). No password here: the command line shows in ps. Put the \
            whole URL with its password in $VICINITY_POSTGRES, or use --postgres-password-file or \
            $PGPASSWORD.
            """,
            valueName: "postgres://user@host:port/database"))
    var postgres: String?
    @Option(help: ArgumentHelp("File whose first line is the PostgreSQL password.", valueName: "path"))
    var postgresPasswordFile: String?

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

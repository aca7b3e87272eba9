import Places
import PlacesSQLite

/// One command's use of the database: load it, say who is asking, make a write through the
/// façade's group commit and wait for it to be stored.
struct DirectorySession {
    let store: any CommandStore
    let durable: DurableDirectory
    /// Who asks, as the token says when the database is loaded (for reads).
    let principal: Principal
    /// The token presented, resolved again when a write is checked; nil for the operator.
    private let token: String?
    private let isOperator: Bool

    /// Opens the database and resolves the token (`--token`, else `$VICINITY_TOKEN`).
    ///
    /// - Parameter operator: act as the admin without a token: only for the local operator's own
    ///   commands (`admin-token`), who can write the database file anyway.
    /// - Parameter privacy: the rules for the writes it plans (a new user's precision, how long
    ///   a location lasts); timers due by its clock are read as run.
    init(
        database: DatabaseOptions, token: String?, operator: Bool = false,
        privacy: PrivacySettings = .recommended, output: inout CommandOutput
    ) throws(CLIError) {
        let (store, snapshot) = try database.loadSnapshot(output: &output)
        var directory = snapshot.directory
        directory.privacy = privacy
        // No server may be running to forget expired locations: read them as forgotten.
        directory.applyDueTimers()
        let presented = TokenOption.resolve(token)
        if `operator` {
            principal = .admin
        } else {
            do { principal = try directory.principal(presenting: presented) } catch { throw CLIError(error) }
        }
        self.token = presented
        isOperator = `operator`
        self.store = store
        durable = DurableDirectory(directory, store: store, position: snapshot.position, maximumBatch: 1)
    }

    /// Makes the write and returns once it is stored; the token it created, if any.
    @discardableResult
    func perform(_ request: DirectoryRequest) throws(CLIError) -> String? {
        defer { durable.close() }
        do {
            if isOperator { return try durable.performAndWait(request, by: .admin) }
            return try durable.performAndWait(request, presenting: token)
        } catch {
            throw refusal(error)
        }
    }

    /// Reads the directory.
    func read<T>(_ body: (PlaceDirectory) throws(PlacesError) -> T) throws(CLIError) -> T {
        do { return try durable.read(body) } catch { throw refusal(error) }
    }

    /// The error for a refused request; one refused for want of a token says how to give one.
    private func refusal(_ error: PlacesError) -> CLIError {
        if token == nil, !isOperator, case .forbidden(let action) = error {
            return .noPermission("not allowed: \(action); pass it with --token TOKEN or in $VICINITY_TOKEN")
        }
        return CLIError(error)
    }

    func close() { durable.close() }
}

import PostgresNIO

/// Reading what postgres-nio throws: whether the connection is gone, and the cause in one line.
enum PostgresFailure {
    /// SQLSTATE of a violated constraint: class 23 (integrity constraint violation).
    static let constraintClass = "23"

    /// Whether `error` means the connection is lost (the session, and any open transaction, is
    /// gone) rather than a statement refused by a live server.
    static func isConnectionLoss(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown,
            .messageDecodingFailure, .unexpectedBackendMessage:
            return true
        case .server:
            // 57P01 admin_shutdown (pg_terminate_backend, a fast stop), 57P02 crash_shutdown,
            // 57P03 cannot_connect_now, class 08 connection exceptions.
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        default:
            return false
        }
    }

    /// The server's SQLSTATE, if the server refused a statement.
    static func sqlState(of error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// The cause in one line: the server's message and SQLSTATE (and its detail, which names the
    /// offending row for a constraint, except a user's or a setting's), or the client's reason.
    static func reason(of error: any Error) -> String {
        var text: String
        if let error = error as? PSQLError {
            if let info = error.serverInfo, let message = info[.message] {
                text = message + " (SQLSTATE \(info[.sqlState] ?? "?"))"
                // A refused user or setting row's detail would show its token digest.
                if let detail = info[.detail], !["vicinity_user", "vicinity_setting"].contains(info[.tableName] ?? "") {
                    text += ": " + detail
                }
            } else if let underlying = error.underlying {
                text = "\(error.code): \(underlying)"
            } else {
                text = "\(error.code)"
            }
        } else if let error = error as? PostgresStoreError {
            text = error.cause
        } else {
            text = "\(error)"
        }
        return String(text.map { $0.isNewline ? " " : $0 })
    }
}

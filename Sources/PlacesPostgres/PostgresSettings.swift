import Foundation

/// Where a `PostgresPlaceStore` connects: read from a URL of the form
/// `postgres://USER@HOST:PORT/DATABASE` (or `postgresql://`).
///
/// A password never comes from the command line: `parse` refuses a URL given there that holds
/// one. It comes from the URL only when the URL itself came from the environment
/// (`$VICINITY_POSTGRES`), else from a password file's first line, else from `$PGPASSWORD`.
///
/// ```swift
/// let settings = try PostgresSettings.parse(
///     "postgres://vicinity@db.internal:5432/vicinity", passwordFile: nil,
///     environment: ProcessInfo.processInfo.environment, urlFromCommandLine: true)
/// ```
public struct PostgresSettings: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The server's host name or address.
    public var host: String
    /// The server's TCP port, 1 to 65535 (PostgreSQL's default 5432).
    public var port: Int
    /// The role to log in as.
    public var user: String
    /// The password, or nil for none (trust or peer authentication).
    public var password: String?
    /// The database to open.
    public var database: String

    public init(host: String, port: Int = 5432, user: String, password: String? = nil, database: String) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
    }

    /// The URL without its password: what messages and logs name.
    public var description: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(Self.escaped(user))@\(hostPart):\(port)/\(Self.escaped(database))"
    }

    /// The description: `debugPrint` shows no password either.
    public var debugDescription: String { description }

    /// The parts without the password: `dump` shows no password either.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["host": host, "port": port, "user": user, "hasPassword": password != nil, "database": database])
    }

    /// The settings `url` names, with the password found as the type's summary says.
    ///
    /// - Parameters:
    ///   - url: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`; user and database may be
    ///     percent-encoded, an IPv6 host is written in brackets; the port defaults to 5432 and the
    ///     database to the user's name.
    ///   - passwordFile: a file whose first line is the password, or nil.
    ///   - environment: the process environment (`PGPASSWORD`).
    ///   - urlFromCommandLine: true when `url` was an argument, where a password is refused.
    /// - Throws: `PostgresStoreError.invalidURL` naming the value, `.passwordOnCommandLine`,
    ///   `.unreadablePasswordFile`.
    public static func parse(
        _ url: String, passwordFile: String?, environment: [String: String], urlFromCommandLine: Bool
    ) throws(PostgresStoreError) -> PostgresSettings {
        var parsed = try parseURL(url)
        if parsed.password != nil {
            if urlFromCommandLine { throw .passwordOnCommandLine(value: redacted(url)) }
        } else if let passwordFile {
            parsed.password = try readPasswordFile(passwordFile)
        } else if let password = environment["PGPASSWORD"], !password.isEmpty {
            parsed.password = password
        }
        return parsed
    }

    /// The URL's parts, its password included.
    static func parseURL(_ url: String) throws(PostgresStoreError) -> PostgresSettings {
        func invalid(_ reason: String) -> PostgresStoreError { .invalidURL(value: redacted(url), reason: reason) }
        guard let schemeEnd = url.range(of: "://") else { throw invalid("no postgres:// at the start") }
        guard ["postgres", "postgresql"].contains(url[..<schemeEnd.lowerBound].lowercased()) else {
            throw invalid("the scheme is not postgres or postgresql")
        }
        var rest = Substring(url[schemeEnd.upperBound...])
        if rest.contains("?") || rest.contains("#") { throw invalid("options after ? or # are not supported") }
        var databasePart: Substring?
        if let slash = rest.firstIndex(of: "/") {
            databasePart = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        guard let at = rest.lastIndex(of: "@") else { throw invalid("no USER@ before the host") }
        let userInfo = rest[..<at]
        let hostPort = rest[rest.index(after: at)...]
        var userPart = userInfo
        var password: String?
        if let colon = userInfo.firstIndex(of: ":") {
            userPart = userInfo[..<colon]
            guard let decoded = String(userInfo[userInfo.index(after: colon)...]).removingPercentEncoding else {
                throw invalid("the password is not valid percent-encoding")
            }
            password = decoded
        }
        guard let user = String(userPart).removingPercentEncoding, !user.isEmpty else {
            throw invalid("no user name")
        }
        var host: Substring
        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw invalid("an IPv6 host without its ]") }
            host = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("text after the IPv6 host") }
                portText = after.dropFirst()
            }
        } else if let colon = hostPort.firstIndex(of: ":") {
            host = hostPort[..<colon]
            portText = hostPort[hostPort.index(after: colon)...]
        } else {
            host = hostPort
        }
        guard !host.isEmpty else { throw invalid("no host") }
        var port = 5432
        if let portText {
            guard let number = Int(portText), (1...65_535).contains(number) else {
                throw invalid("the port is not a number from 1 to 65535")
            }
            port = number
        }
        var database = user
        if let databasePart, !databasePart.isEmpty {
            guard let decoded = String(databasePart).removingPercentEncoding, !decoded.contains("/") else {
                throw invalid("the database name is not one path segment")
            }
            database = decoded
        }
        return PostgresSettings(host: String(host), port: port, user: user, password: password, database: database)
    }

    /// `url` with the password between `:` and `@` replaced by `***`, for messages. The user
    /// part ends at the last `@` of the whole URL, so a password holding `/`, `?` or `#` (which a
    /// URL should have percent-encoded, but people paste) is hidden too; a URL with no scheme is
    /// hidden whole when it holds an `@`.
    static func redacted(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url.contains("@") ? "***" : url }
        let afterScheme = url[schemeEnd.upperBound...]
        guard let at = afterScheme.lastIndex(of: "@"), let colon = afterScheme[..<at].firstIndex(of: ":") else {
            return url
        }
        return String(url[..<afterScheme.index(after: colon)]) + "***" + String(url[at...])
    }

    private static func readPasswordFile(_ path: String) throws(PostgresStoreError) -> String {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadablePasswordFile(path: path, reason: (error as NSError).localizedDescription)
        }
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let password = line.hasSuffix("\r") ? line.dropLast() : line
        guard !password.isEmpty else { throw .unreadablePasswordFile(path: path, reason: "its first line is empty") }
        return String(password)
    }

    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(
            withAllowedCharacters: .urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@/")))
            ?? text
    }
}

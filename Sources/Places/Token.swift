import Crypto
import Foundation

/// A secret that proves who is asking: 256 random bits, shown once as base64url (43 characters)
/// and kept only as its SHA-256 digest.
///
/// A token never begins with `-`, so a command line cannot mistake it for an option (`--token
/// -x…`): draws that would are redrawn, which keeps every other token equally likely and leaves
/// 255.98 bits of entropy.
///
/// The clear text exists only in the value `issue()` returns; a `TokenDigest` never prints it, and
/// comparisons run in constant time, so neither logs nor timing reveal a token.
public enum Token {
    /// A new token: its clear text, to show once, and the digest to store.
    public static func issue() -> (clearText: String, digest: TokenDigest) {
        var generator = SystemRandomNumberGenerator()  // getrandom(2) on Linux: cryptographically secure
        var clearText: String
        repeat {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            clearText = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        } while clearText.hasPrefix("-")
        return (clearText, TokenDigest(of: clearText))
    }
}

/// The SHA-256 digest of a token: what is stored, compared and never printed.
public struct TokenDigest: Sendable, Hashable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    /// The digest of a token's clear text.
    public init(of clearText: String) {
        bytes = Array(SHA256.hash(data: Data(clearText.utf8)))
    }

    /// A digest read back from storage; nil unless it is 32 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// Whether `clearText` is the token behind this digest, in time that does not depend on where
    /// the digests differ.
    public func matches(_ clearText: String) -> Bool {
        let presented = TokenDigest(of: clearText).bytes
        var difference: UInt8 = 0
        for index in 0..<32 { difference |= bytes[index] ^ presented[index] }
        return difference == 0
    }

    /// Never the digest itself: logs show that a token is there, nothing more.
    public var description: String { "TokenDigest(redacted)" }
}

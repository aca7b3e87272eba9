import Dispatch
import NIOCore
import NIOEmbedded
import Places
import TestSupport
import Testing

@testable import LineProtocol

/// The connection handler on a thread-safe testing channel, with replies that come from the
/// writer thread: order behind a waiting write, the graceful drain, and the output stall.
@Suite(.timeLimit(.minutes(10))) struct CommandHandlerAsyncTests {
    struct Connection {
        let channel: NIOAsyncTestingChannel
        let admin: String
        let store: MemoryStore
        let directory: DurableDirectory
    }

    static func connect(stallSeconds: Int = 30) async throws -> Connection {
        var places = PlaceDirectory(places: try PlaceCatalog())
        let admin = places.rotateAdminToken()
        let store = MemoryStore(gated: true)
        let directory = DurableDirectory(places, store: store)
        var configuration = ServerConfiguration()
        configuration.outputStallSeconds = stallSeconds
        let service = LineService(directory: directory)
        let channel = NIOAsyncTestingChannel()
        try await channel.testingEventLoop.executeInContext { [configuration] in
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(RESPRequestDecoder()))
            try channel.pipeline.syncOperations.addHandler(
                CommandHandler(service: service, configuration: configuration))
        }
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 7878))
        return Connection(channel: channel, admin: admin, store: store, directory: directory)
    }

    /// What has been flushed so far, as one string.
    static func flushed(_ channel: NIOAsyncTestingChannel) async throws -> String {
        var text = ""
        while let buffer = try await channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        return text
    }

    /// Runs the loop's work (replies handed over by the writer thread) until `done` holds of what
    /// was flushed, for at most five seconds; returns everything flushed.
    static func flushed(_ channel: NIOAsyncTestingChannel, until done: (String) -> Bool) async throws -> String {
        var text = ""
        for _ in 0..<500 {
            await channel.testingEventLoop.run()
            text += try await flushed(channel)
            if done(text) { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        return text
    }

    @Test func repliesAfterAWriteWaitForItsCommitAndKeepTheirOrder() async throws {
        let connection = try await Self.connect()
        defer { connection.directory.close() }
        let channel = connection.channel
        try await channel.writeInbound(
            ByteBuffer(string: "AUTH \(connection.admin)\r\nPLACE.SET pharmacy p1 41 29\r\nPING\r\nECHO after\r\n"))
        #expect(try await Self.flushed(channel) == "+OK\r\n", "only AUTH's reply before the commit")
        connection.store.gate?.release.signal()
        let all = try await Self.flushed(channel) { $0.hasSuffix("$5\r\nafter\r\n") }
        #expect(all == "+OK\r\n+PONG\r\n$5\r\nafter\r\n")
        #expect(connection.directory.read { $0.places.place(kind: "pharmacy", id: "p1") != nil })
        _ = try await channel.finish(acceptAlreadyClosed: true)
    }

    @Test func aDrainClosesOnlyOnceTheQueuedRequestsAreAnswered() async throws {
        let connection = try await Self.connect()
        defer { connection.directory.close() }
        let channel = connection.channel
        try await channel.writeInbound(
            ByteBuffer(string: "AUTH \(connection.admin)\r\nPLACE.SET pharmacy p1 41 29\r\nPING\r\n"))
        #expect(try await Self.flushed(channel) == "+OK\r\n")
        try await channel.testingEventLoop.executeInContext {
            let context = try channel.pipeline.syncOperations.context(handlerType: CommandHandler.self)
            try channel.pipeline.syncOperations.handler(type: CommandHandler.self).drain(context: context)
        }
        await channel.testingEventLoop.run()
        #expect(channel.isActive, "a write and a PING still to answer")
        connection.store.gate?.release.signal()
        let rest = try await Self.flushed(channel) { $0.hasSuffix("+PONG\r\n") }
        #expect(rest == "+OK\r\n+PONG\r\n")
        await channel.testingEventLoop.run()
        #expect(!channel.isActive)
        _ = try await channel.finish(acceptAlreadyClosed: true)
    }

    @Test func aClientThatStopsReadingIsClosedWhenTheStallLasts() async throws {
        let connection = try await Self.connect(stallSeconds: 5)
        defer { connection.directory.close() }
        let channel = connection.channel
        func writable(_ on: Bool) async throws {
            channel.isWritable = on
            try await channel.testingEventLoop.executeInContext { channel.pipeline.fireChannelWritabilityChanged() }
        }
        // A stall that ends in time: the connection stays.
        try await writable(false)
        await channel.testingEventLoop.advanceTime(by: .seconds(4))
        try await writable(true)
        await channel.testingEventLoop.advanceTime(by: .seconds(10))
        #expect(channel.isActive)
        try await channel.writeInbound(ByteBuffer(string: "PING\r\n"))
        #expect(try await Self.flushed(channel) == "+PONG\r\n")
        // One that lasts: closed after five seconds, not before; requests wait meanwhile.
        try await writable(false)
        try await channel.writeInbound(ByteBuffer(string: "PING\r\n"))
        #expect(try await Self.flushed(channel) == "", "no reply while the client does not read")
        await channel.testingEventLoop.advanceTime(by: .seconds(4))
        #expect(channel.isActive)
        await channel.testingEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)
        _ = try await channel.finish(acceptAlreadyClosed: true)
    }
}

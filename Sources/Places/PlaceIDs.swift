/// The ids of one kind's places by handle, read in place from the catalog's text chunks: for
/// front ends that write ids into replies without making a `String` of each
/// (`PlaceCatalog.ids(kind:)`).
///
/// A value: it keeps the chunks it was taken from alive and unchanged, whatever the catalog does
/// afterwards.
public struct PlaceIDs: Sendable {
    let texts: PlaceTexts

    /// The number of handles (0 ..< count).
    public var count: Int { texts.count }

    /// Calls `body` with the UTF-8 bytes of a handle's id (valid only inside `body`).
    ///
    /// - Parameter handle: below `count`, as `PlaceCatalog.withPlaces(kind:inCapAround:…)`
    ///   reports it.
    @inline(__always)
    public func withID<R>(_ handle: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        texts.withID(Int(handle), body)
    }

    /// Calls `body` with each handle's index in `handles` and the UTF-8 bytes of its id (valid
    /// only inside `body`), in order: `withID` for many handles at a lower cost per id.
    public func forEachID(_ handles: UnsafeBufferPointer<UInt32>, _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        texts.forEachID(handles, body)
    }

    /// Asks the processor to bring these handles' ids into its caches without waiting for them:
    /// call it before other work that precedes reading the ids (a search before its reply), so
    /// that their cache misses overlap that work. Handles in grid order (as
    /// `PlaceCatalog.withPlaces(kind:inCapAround:…)` reports them) cost the least. Every handle
    /// must be below the number of places (it traps otherwise).
    public func prefetch(_ handles: UnsafeBufferPointer<UInt32>) { texts.prefetch(handles) }

    /// Reads the start of these handles' ids from memory, all at once: call it before reading
    /// many ids one by one, whose cache misses would otherwise come one after another. Returns a
    /// value of no meaning (use it, or the reads may be optimised away).
    public func touch(_ handles: UnsafeBufferPointer<UInt32>) -> UInt32 { texts.touch(handles) }

    /// A handle's id.
    public func id(_ handle: UInt32) -> String { texts.id(Int(handle)) }
}

import Foundation
import Geo

/// Users and the index of the ones on maps.
///
/// The index holds public users with a location and nobody else: a private user, or one whose
/// location is unknown, is not in it at all, so no query can return them by mistake. It holds each
/// at their **published** location (`User.publishedLocation`), so what a query finds of others
/// depends on their cell alone. Handles are dense and reused, so the index's handle table stays as
/// small as the number of users.
///
/// It also keeps every user's earliest timer (a location's expiry, the end of a private spell) in
/// a heap, stale entries dropped as they surface.
struct UserRegistry: Sendable {
    private(set) var users: [String: User] = [:]
    private var handleOfUser: [String: UInt32] = [:]
    private var userOfHandle: [String?] = []
    private var freeHandles: [UInt32] = []
    private(set) var index: GridIndex
    /// The earliest timer of each user who has one.
    private var timerOfUser: [String: Date] = [:]
    /// A min-heap of (timer, user); an entry whose timer is no longer the user's is stale.
    private var timers: [(at: Date, id: String)] = []

    init(index: GridIndex) { self.index = index }

    /// The id behind an index handle.
    func id(of handle: UInt32) -> String? { Int(handle) < userOfHandle.count ? userOfHandle[Int(handle)] : nil }

    /// Stores a user (new or changed) and brings the index in line with it.
    mutating func put(_ user: User) throws(PlacesError) {
        users[user.id] = user
        try reindex(user.id)
    }

    /// Forgets a user.
    mutating func remove(_ id: String) throws(PlacesError) {
        users[id] = nil
        try reindex(id)
    }

    /// The earliest timer of any user, or nil.
    var nextTimer: Date? { timers.first?.at }

    /// The users with a timer at or before `now`, in id order.
    ///
    /// Walks the heap from its top and stops at every entry later than `now` (its subtree is
    /// later still), so a timer runner polling every second costs the timers due, not a pass over
    /// every user with a timer.
    func timersDue(at now: Date) -> [String] {
        var due = Set<String>()
        var pending = timers.isEmpty ? [] : [0]
        while let slot = pending.popLast() {
            let entry = timers[slot]
            guard entry.at <= now else { continue }
            // A stale entry (the user's timer changed since) is skipped; its subtree may still hold
            // live ones.
            if timerOfUser[entry.id] == entry.at { due.insert(entry.id) }
            for child in [2 * slot + 1, 2 * slot + 2] where child < timers.count { pending.append(child) }
        }
        return due.sorted()
    }

    private mutating func reindex(_ id: String) throws(PlacesError) {
        let user = users[id]
        retime(id, user)
        if let user, user.isOnMaps, let location = user.publishedLocation {
            let handle: UInt32
            if let existing = handleOfUser[id] {
                handle = existing
            } else if let reused = freeHandles.popLast() {
                handle = reused
            } else {
                handle = UInt32(userOfHandle.count)
                userOfHandle.append(nil)
            }
            do { try index.insert(handle: handle, at: location) } catch { throw .geo(error) }
            handleOfUser[id] = handle
            userOfHandle[Int(handle)] = id
        } else if let handle = handleOfUser.removeValue(forKey: id) {
            index.remove(handle: handle)
            userOfHandle[Int(handle)] = nil
            freeHandles.append(handle)
        }
    }

    // MARK: - Timers

    private mutating func retime(_ id: String, _ user: User?) {
        var next: Date?
        if let user {
            if user.location != nil { next = user.locationExpiresAt }
            if user.visibility == .private, let until = user.privateUntil { next = min(next ?? until, until) }
        }
        guard timerOfUser[id] != next else { return }
        timerOfUser[id] = next
        if let next { push((next, id)) }
        while let top = timers.first, timerOfUser[top.id] != top.at { pop() }
        if timers.count > 2 * timerOfUser.count + 1024 {
            timers = timerOfUser.map { ($0.value, $0.key) }
            for index in stride(from: timers.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        }
    }

    private static func precedes(_ a: (at: Date, id: String), _ b: (at: Date, id: String)) -> Bool {
        a.at < b.at || (a.at == b.at && a.id < b.id)
    }

    private mutating func push(_ entry: (at: Date, id: String)) {
        timers.append(entry)
        var child = timers.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(timers[child], timers[parent]) else { break }
            timers.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func pop() {
        timers.swapAt(0, timers.count - 1)
        timers.removeLast()
        if !timers.isEmpty { siftDown(0) }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var smallest = parent
            for child in [2 * parent + 1, 2 * parent + 2]
            where child < timers.count && Self.precedes(timers[child], timers[smallest]) {
                smallest = child
            }
            guard smallest != parent else { return }
            timers.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

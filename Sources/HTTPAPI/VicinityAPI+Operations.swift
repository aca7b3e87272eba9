import Foundation
import OpenAPIRuntime
import Places

/// `/healthz` and `/metrics`.
extension VicinityAPI {
    /// 200 while serving, with the number of places in memory (all kinds; users not counted) and
    /// how far memory follows the database's change log. A server that cannot reach its database
    /// still answers reads from memory: `degraded`, still 200, with since when it is stale.
    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        let places = directory.read { $0.places.count }
        let status = directory.replication
        let replication = Components.Schemas.Replication(
            applied: Int64(clamping: status.applied), latest: Int64(clamping: max(status.latest, status.applied)),
            lagSeconds: status.lagSeconds(), following: status.following,
            storeReachable: status.unreachableSince == nil,
            staleSince: status.unreachableSince.map { Date(timeIntervalSince1970: $0) })
        let health: Components.Schemas.Health.StatusPayload = status.unreachableSince == nil ? .ok : .degraded
        return .ok(.init(body: .json(.init(status: health, places: places, replication: replication))))
    }

    /// The Prometheus text exposition format: requests by operation and status, latencies, index
    /// sizes per kind (public users only for `user`) and the store's commits.
    func getMetrics(_ input: Operations.GetMetrics.Input) async throws -> Operations.GetMetrics.Output {
        .ok(.init(body: .plainText(HTTPBody(metrics.exposition(of: directory)))))
    }
}

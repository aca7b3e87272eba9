import OpenAPIRuntime
import Places

/// `/healthz` and `/metrics`.
extension VicinityAPI {
    /// 200 while serving, with the number of places in memory (all kinds; users not counted).
    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        let places = directory.read { $0.places.count }
        return .ok(.init(body: .json(.init(status: .ok, places: places))))
    }

    /// The Prometheus text exposition format: requests by operation and status, latencies, index
    /// sizes per kind (public users only for `user`) and the store's commits.
    func getMetrics(_ input: Operations.GetMetrics.Input) async throws -> Operations.GetMetrics.Output {
        .ok(.init(body: .plainText(HTTPBody(metrics.exposition(of: directory)))))
    }
}

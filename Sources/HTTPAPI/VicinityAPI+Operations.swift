import Places

/// `/healthz` and `/metrics`.
extension VicinityAPI {
    /// 200 while serving, with the number of places in memory (all kinds; users not counted).
    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        let places = directory.read { $0.places.count }
        return .ok(.init(body: .json(.init(status: .ok, places: places))))
    }

    /// Not served yet (swift-prometheus is not wired in): 501.
    func getMetrics(_ input: Operations.GetMetrics.Input) async throws -> Operations.GetMetrics.Output {
        throw HTTPAPIError.notImplemented(operation: "GET /metrics")
    }
}

import Places

extension LineService {
    /// Submits several writes at once and calls `completion` once, when the last one is answered,
    /// with every result in request order. The writes are independent: one refused does not stop
    /// the others (Redis's multi-member commands are not transactions across Vicinity's store
    /// either). Requests with the same subject are planned one after the other by the directory,
    /// so they take effect in the order given.
    ///
    /// - Parameters:
    ///   - requests: the writes; none answers `completion([])` at once.
    ///   - token: the token presented (nil for none), resolved by the directory for each write.
    ///   - lastWrite: the connection's last write position, moved to each write stored.
    ///   - completion: runs exactly once, on the writer thread (or at once for no requests).
    func submitAll(
        _ requests: [DirectoryRequest], presenting token: String?, noting lastWrite: LastWritePosition,
        completion: @escaping @Sendable ([Result<String?, PlacesError>]) -> Void
    ) {
        guard !requests.isEmpty else {
            completion([])
            return
        }
        let batch = WriteBatch(count: requests.count)
        for (index, request) in requests.enumerated() {
            directory.submitWithReceipt(request, presenting: token) { result in
                if case .success(let receipt) = result { lastWrite.note(receipt.position) }
                if let results = batch.record(result.map(\.token), at: index) { completion(results) }
            }
        }
    }
}

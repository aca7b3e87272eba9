import GRDBSQLite
import Places

extension AttributeCoding.Encoded {
    /// Binds place `offset`'s text to a statement parameter (1-based); SQLite copies it.
    func bind(_ offset: Int, to statement: OpaquePointer?, at index: Int32) -> Int32 {
        let range = range(of: offset)
        return bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).advanced(by: range.lowerBound)
                .assumingMemoryBound(to: CChar.self)
            return sqlite3_bind_text(statement, index, base, Int32(range.count), transient)
        }
    }
}

import CKiraFormats

/// Calls a C function of CKiraFormats that returns 1, or 0 with its message buffer filled; the
/// message (or nil on success).
func failureMessage(_ body: (UnsafeMutablePointer<CChar>) -> Int32) -> String? {
    var storage = [CChar](repeating: 0, count: Int(KIRA_FORMATS_MESSAGE_SIZE))
    let ok = storage.withUnsafeMutableBufferPointer { body($0.baseAddress!) } == 1
    return ok ? nil : storage.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

extension kira_bytes {
    /// The bytes as an array; frees them.
    mutating func take() -> [UInt8] {
        defer { kira_bytes_free(&self) }
        guard let bytes, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: count))
    }
}

#if Server
/// Finds the empty line (CR LF CR LF) that ends a request head, however the reads split it.
struct EmptyLineScanner {
    /// Bytes of the empty line matched so far, at the end of what was read.
    private var matched = 0

    /// The index just past the empty line in `bytes`, read from `start` on; nil when it has not
    /// come yet (what matched so far is kept for the next read).
    mutating func end(in bytes: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            // The line alternates CR and LF; after a mismatch only a CR starts it again.
            matched = byte == (matched % 2 == 0 ? 13 : 10) ? matched + 1 : (byte == 13 ? 1 : 0)
            if matched == 4 {
                matched = 0
                return index
            }
        }
        return nil
    }
}
#endif

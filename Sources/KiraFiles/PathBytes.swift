/// File names are bytes; Swift strings are Unicode. These carry any byte string through a
/// `String` and back unchanged.
///
/// Valid UTF-8 stays as it is. A byte that is not part of valid UTF-8 becomes the private-use
/// scalar U+F700 + byte (U+F780…U+F7FF), as does each byte of a valid encoding of one of those
/// scalars themselves, so the mapping is one-to-one: `bytes(string(bytes: b)) == b` for every
/// `b`. A name like `bad-\xff.png` therefore reaches the file system as the byte 0xFF, not as
/// U+FFFD's three bytes.
public enum PathBytes {
    private static let escapes: ClosedRange<UInt32> = 0xF780...0xF7FF

    /// The string that stands for `bytes` (a path or a command-line argument, without a NUL).
    public static func string<Bytes: Collection<UInt8>>(bytes: Bytes) -> String {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            let length = validSequenceLength(bytes, at: i)
            if length == 0 {
                scalars.append(Unicode.Scalar(0xF700 + UInt32(bytes[i]))!)
                i += 1
                continue
            }
            let scalar = String(decoding: bytes[i..<(i + length)], as: UTF8.self).unicodeScalars.first!
            if escapes.contains(scalar.value) {
                for byte in bytes[i..<(i + length)] { scalars.append(Unicode.Scalar(0xF700 + UInt32(byte))!) }
            } else {
                scalars.append(scalar)
            }
            i += length
        }
        return String(scalars)
    }

    /// The bytes `string` stands for (see ``string(bytes:)``), without a terminating NUL.
    public static func bytes(_ string: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(string.utf8.count)
        for scalar in string.unicodeScalars {
            if escapes.contains(scalar.value) {
                out.append(UInt8(scalar.value - 0xF700))
            } else {
                out.append(contentsOf: Unicode.UTF8.encode(scalar)!)
            }
        }
        return out
    }

    /// Calls `body` with `string`'s bytes as a NUL-terminated C string, for system calls.
    public static func withCString<R, E: Error>(_ string: String, _ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        let terminated = bytes(string) + [0]
        return try terminated.withUnsafeBufferPointer { (buffer) throws(E) -> R in
            try buffer.withMemoryRebound(to: CChar.self) { (chars) throws(E) -> R in try body(chars.baseAddress!) }
        }
    }

    /// The string for a C string (an `argv` entry or a name the system returned).
    public static func string(cString: UnsafePointer<CChar>) -> String {
        var length = 0
        while cString[length] != 0 { length += 1 }
        return cString.withMemoryRebound(to: UInt8.self, capacity: length) { string(bytes: UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// The length of the well-formed UTF-8 sequence at `i` (Unicode table 3-7), or 0.
    private static func validSequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
        let lead = bytes[i]
        if lead < 0x80 { return 1 }
        let length: Int, second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return 0
        }
        guard i + length <= bytes.count, second.contains(bytes[i + 1]) else { return 0 }
        for k in 2..<length where !(0x80...0xBF).contains(bytes[i + k]) { return 0 }
        return length
    }
}

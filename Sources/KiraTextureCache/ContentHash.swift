import CLibCrypto

/// SHA-256 of bytes, as 64 lowercase hex digits (what `sha256sum` prints).
///
/// From the system's libcrypto (OpenSSL): a one-shot call that uses the CPU's SHA instructions,
/// and a C library every Linux distribution ships, instead of a Swift package that would take
/// longer to build than the rest of Kira.
public enum ContentHash {
    public static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public static func sha256(_ text: String) -> String { sha256(Array(text.utf8)) }
}

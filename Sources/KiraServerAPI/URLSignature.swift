import CLibCrypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KiraFiles
import KiraFormats
import KiraRequest

/// Signed render URLs: with a key, the server renders only URLs that carry a signature made with
/// that key, so that nobody else can make it do work.
///
/// The signature is HMAC-SHA256, keyed with the server's key, of the URL's path and canonical
/// query: `/v1/cards/ID/render.png` (or `.webp`, `.jpg`), then `?` and the request's non-default values in the order
/// of ``RenderRequest/parameters``, each `name=value` with the value canonically spelled and
/// percent-encoded (only `A-Z a-z 0-9 - . _ ~` as they are), joined by `&` (no `?` when every
/// value is a default). It is appended as the last query parameter, `sig`, in base64url without
/// padding. Since it covers the meaning of the query, not its spelling, `tilt_x=8.0` and
/// `tilt_x=8` carry the same signature, and `kira sign` prints the one canonical URL for a frame,
/// which is also the one that caches best.
public struct URLSignature: Sendable {
    /// The query parameter that carries the signature.
    public static let parameterName = "sig"
    /// Shorter keys are refused: 16 random bytes already make guessing hopeless.
    public static let minimumKeyBytes = 16

    public let key: [UInt8]

    public init(key: [UInt8]) { self.key = key }

    /// The key in the file at `path`: its bytes, without trailing white space (a key file made
    /// with `openssl rand -hex 32 > key` ends in a newline).
    public static func readKey(path: String) throws(ServerSetupError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ServerSetupError("\(QuotedValue.shown(path)): cannot read the key file") }
        var bytes = [UInt8](data)
        while let last = bytes.last, last == 0x0A || last == 0x0D || last == 0x20 || last == 0x09 { bytes.removeLast() }
        guard bytes.count >= minimumKeyBytes else {
            throw ServerSetupError("\(QuotedValue.shown(path)): the key must be at least \(minimumKeyBytes) bytes, not \(bytes.count) (e.g. openssl rand -hex 32 > \(path))")
        }
        return bytes
    }

    /// The path and canonical query the signature covers (also the canonical URL's).
    public static func canonical(path: String, request: RenderRequest) -> String {
        let query = request.values.map { "\($0.name)=\(percentEncoded($0.value))" }.joined(separator: "&")
        return query.isEmpty ? path : path + "?" + query
    }

    /// The signature of `canonical`.
    public func signature(of canonical: String) -> String {
        base64URL(hmac(Array(canonical.utf8)))
    }

    /// Whether `signature` is that of `canonical`, compared in constant time.
    public func isValid(_ signature: String, for canonical: String) -> Bool {
        guard let given = Self.decodeBase64URL(signature), given.count == Int(SHA256_DIGEST_LENGTH) else { return false }
        let expected = hmac(Array(canonical.utf8))
        return given.withUnsafeBytes { a in expected.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }

    /// The signed canonical URL of `path` with `request`'s values.
    public func signedURL(path: String, request: RenderRequest) -> String {
        let canonical = Self.canonical(path: path, request: request)
        return canonical + (canonical.contains("?") ? "&" : "?") + Self.parameterName + "=" + signature(of: canonical)
    }

    /// `url` (a whole URL or its path and query) made canonical and signed: what `kira sign`
    /// prints. Its query is checked as the server checks it.
    public func sign(url: String) throws(RequestError) -> String {
        let (base, rest) = url.firstIndex(of: "?").map { (String(url[..<$0]), String(url[url.index(after: $0)...])) } ?? (url, "")
        // The path starts at the first '/' after the scheme's "//", if there is one.
        let afterScheme = base.firstRange(of: "://").map { base[$0.upperBound...] } ?? base[...]
        let path = afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? ""
        let origin = String(base.dropLast(path.count))
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "v1", parts[2] == "cards", !parts[3].isEmpty,
              let format = RenderRoute.format(ofFileName: String(parts[4])) else {
            throw RequestError(parameter: nil, reason: "\(url): not a render URL; those are [http://HOST:PORT]/v1/cards/ID/render.png?QUERY "
                               + "(or render.webp, render.jpg)")
        }
        let query = try RenderQuery(rawQuery: rest)
        try query.request.output.check(for: format)
        return origin + signedURL(path: path, request: query.request)
    }

    private func hmac(_ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = key.withUnsafeBytes { keyBytes in
            HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), message, message.count, &digest, &length)
        }
        return Array(digest.prefix(Int(length)))
    }

    private func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }

    private static func decodeBase64URL(_ text: String) -> [UInt8]? {
        guard text.utf8.count <= 64, text.utf8.allSatisfy({ isBase64URL($0) }) else { return nil }
        var standard = text.replacing("-", with: "+").replacing("_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// `text` with every byte but `A-Z a-z 0-9 - . _ ~` percent-encoded (upper-case hex).
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if isBase64URL(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~") {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

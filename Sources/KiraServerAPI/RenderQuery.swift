import Foundation
import KiraFiles
import KiraRequest

/// A render URL's query as a render request: the names are ``RenderRequest/parameters``' own
/// (`tilt_x=8&size=800x1000`), parsed and checked by the request itself, so a URL means what the
/// same `kira render` options mean.
///
/// Stricter than a command line, because a URL is typed by programs and cached forever: a name
/// given twice, an unknown name (a typo must not quietly render the default) and a parameter that
/// names a file (a server's cards come from its cards folder, by id) are refused.
public struct RenderQuery: Sendable {
    public var request: RenderRequest
    /// The `sig` parameter, if given.
    public var signature: String?

    /// The longest query accepted, in bytes; every parameter at its longest fits in a tenth of it.
    public static let maxLength = 4096

    /// The parameters a URL takes: every request parameter but those that name files.
    public static var parameterNames: [String] {
        RenderRequest.parameters.filter { $0.kind != .path }.map(\.name)
    }

    /// Parses a raw (still percent-encoded) query string.
    public init(rawQuery: String) throws(RequestError) {
        guard rawQuery.utf8.count <= Self.maxLength else {
            throw RequestError(parameter: nil, reason: "the query is \(rawQuery.utf8.count) bytes long, over the \(Self.maxLength) a render URL may have")
        }
        try self.init(pairs: try Self.pairs(rawQuery))
    }

    /// Parses decoded (name, value) pairs.
    public init(pairs: [(String, String)]) throws(RequestError) {
        var seen = Set<String>(), values: [(String, String)] = [], signature: String?
        for (name, value) in pairs {
            guard seen.insert(name).inserted else {
                throw RequestError(parameter: name, reason: "is given more than once; give each parameter once")
            }
            if name == URLSignature.parameterName {
                signature = value
                continue
            }
            guard let parameter = RenderRequest.parameter(named: name) else {
                throw RequestError(parameter: nil, reason: "unknown parameter \(QuotedValue.quoted(name)); the parameters are "
                                   + Self.parameterNames.joined(separator: ", ") + " (and \(URLSignature.parameterName), a signature)")
            }
            guard parameter.kind != .path else {
                throw RequestError(parameter: name, reason: "names a file, which a URL cannot: the server's cards come from its cards folder, "
                                   + "by id (/v1/cards/ID/render.png, .webp or .jpg)")
            }
            values.append((name, value))
        }
        self.request = try RenderRequest(values: values)
        self.signature = signature
    }

    /// Whether the raw query has a `sig` item, looked for without decoding anything else: a
    /// server that renders signed URLs only refuses one without it before the query is parsed.
    public static func hasSignature(rawQuery: String) -> Bool {
        rawQuery.split(separator: "&", omittingEmptySubsequences: true).contains { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            // A `sig` whose value is not percent-encoded correctly is no signature: 403, as a missing one.
            return String(parts[0]).removingPercentEncoding == URLSignature.parameterName
                && (parts.count == 1 || String(parts[1]).removingPercentEncoding != nil)
        }
    }

    /// The query's `name=value` pairs, percent-decoded; `+` is a plus sign, not a space.
    package static func pairs(_ rawQuery: String) throws(RequestError) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for item in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = String(parts[0]).removingPercentEncoding,
                  let value = parts.count > 1 ? String(parts[1]).removingPercentEncoding : "" else {
                throw RequestError(parameter: nil, reason: "\"\(item.prefix(64))\" is not percent-encoded correctly (%XX with two hex digits)")
            }
            guard !name.isEmpty else { throw RequestError(parameter: nil, reason: "a query item has a value but no name") }
            pairs.append((name, value))
        }
        return pairs
    }
}

#if Server
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Hummingbird
import KiraFiles
import KiraRequest
import KiraServerAPI

/// An answer that is not a frame: an RFC 9457 problem (`application/problem+json`) that says what
/// went wrong and what would be right, so that a client can act on it without reading logs.
///
/// `type` is a relative URI, `/problems/NAME`, one per kind of problem (docs/serve.md lists
/// them); `parameter` and `allowed` name the query parameter at fault and what it takes.
public struct Problem: Error, Sendable, Equatable {
    public var status: HTTPResponse.Status
    /// The kind, as the last part of `type`: `bad-parameter`.
    public var kind: String
    public var title: String
    public var detail: String
    public var parameter: String?
    public var allowed: String?
    /// Seconds after which a retry may succeed (503).
    public var retryAfter: Int?
    /// The methods the resource takes (405).
    public var allow: String?

    public init(status: HTTPResponse.Status, kind: String, title: String, detail: String,
                parameter: String? = nil, allowed: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.kind = kind
        self.title = title
        self.detail = detail
        self.parameter = parameter
        self.allowed = allowed
        self.retryAfter = retryAfter
    }

    public static let mediaType = "application/problem+json"

    /// The JSON body's members, RFC 9457's and ours.
    struct Body: Codable, Equatable {
        var type: String
        var title: String
        var status: Int
        var detail: String
        var parameter: String?
        var allowed: String?
    }

    var body: Body {
        Body(type: "/problems/" + kind, title: title, status: status.code, detail: detail, parameter: parameter, allowed: allowed)
    }

    /// The body: the JSON members, one line.
    var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = (try? encoder.encode(body)).map { [UInt8]($0) } ?? Array("{}".utf8)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// The header fields beside the body.
    var headers: HTTPFields {
        var headers: HTTPFields = [.contentType: Self.mediaType, .cacheControl: "no-store"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if let allow { headers[.allow] = allow }
        return headers
    }

    /// The whole HTTP/1.1 response as bytes (status line, header fields with Content-Length, the
    /// body), for the one answer written past SwiftNIO's encoder (``MalformedRequest``'s CONNECT).
    func http1Bytes(closing: Bool) -> [UInt8] {
        let body = json
        var head = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        head += "Content-Length: \(body.count)\r\n" + (closing ? "Connection: close\r\n" : "") + "\r\n"
        return Array(head.utf8) + body
    }

    /// The HTTP response.
    public var response: Response {
        Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
    }
}

extension Problem {
    /// A query value that cannot be used (400), naming the parameter and what it takes, and the
    /// routes that would honour it (`render.webp` for a quality refused on `render.png`).
    static func badParameter(_ error: RequestError, honouredBy routes: [String] = []) -> Problem {
        let entry = error.parameter.flatMap(RenderRequest.parameter(named:))
        let elsewhere = routes.isEmpty ? "" : "; " + routes.joined(separator: " or ") + " honours it"
        return Problem(status: .badRequest, kind: "bad-parameter", title: "A query parameter cannot be used",
                       detail: error.description + elsewhere, parameter: error.parameter, allowed: entry?.help(naming: { $0 }))
    }

    /// A card id the server does not have (404).
    static func unknownCard(_ id: String, known: [String]) -> Problem {
        let listed = known.sorted().prefix(20).joined(separator: ", ") + (known.count > 20 ? ", …" : "")
        return Problem(status: .notFound, kind: "unknown-card", title: "No such card",
                       detail: "no card \(QuotedValue.quoted(id)); the cards are \(listed)")
    }

    static func noRoute(_ path: String) -> Problem {
        Problem(status: .notFound, kind: "not-found", title: "No such resource",
                detail: "nothing at \(QuotedValue.shown(path)); frames are at /v1/cards/ID/render.png (or .webp, .jpg), and there are /healthz, /readyz and /metrics")
    }

    static func methodNotAllowed(_ method: HTTPRequest.Method) -> Problem {
        var problem = Problem(status: .methodNotAllowed, kind: "method-not-allowed", title: "Method not allowed",
                              detail: "\(method.rawValue.prefix(32)) is not served here; use \(MethodCheck.allowHeader)")
        problem.allow = MethodCheck.allowHeader
        return problem
    }

    static func badSignature(_ detail: String) -> Problem {
        Problem(status: .forbidden, kind: "bad-signature", title: "The URL is not signed with this server's key", detail: detail,
                parameter: URLSignature.parameterName)
    }

    static func overloaded(waited: Duration) -> Problem {
        Problem(status: .serviceUnavailable, kind: "overloaded", title: "Too many renders at once",
                detail: "every render slot stayed busy for \(waited.milliseconds) ms; retry after a second", retryAfter: 1)
    }

    static func deadline(_ deadline: Duration) -> Problem {
        Problem(status: .serviceUnavailable, kind: "deadline", title: "The frame took too long",
                detail: "no frame within the server's deadline of \(deadline.milliseconds) ms; the render goes on and a retry may find it cached",
                retryAfter: 1)
    }

    static func queryTooLong(_ error: RequestError) -> Problem {
        Problem(status: .uriTooLong, kind: "query-too-long", title: "The query is too long", detail: error.description)
    }

    static func tooLarge(_ detail: String, parameter: String) -> Problem {
        Problem(status: .badRequest, kind: "too-large", title: "The frame is larger than this server renders", detail: detail,
                parameter: parameter, allowed: RenderRequest.parameter(named: parameter)?.help(naming: { $0 }))
    }

    /// The client left, or the grace period ended, before the answer was ready: nginx's 499,
    /// "client closed request", logged and counted, and sent to no one.
    static let clientClosed = Problem(status: .init(code: 499, reasonPhrase: "Client Closed Request"), kind: "client-closed",
                                      title: "The client closed the connection", detail: "the connection closed before the frame was ready")

    /// A WebSocket upgrade asked of a path that has none.
    static let noWebSocket = Problem(status: .badRequest, kind: "no-websocket", title: "No WebSocket here",
                                     detail: "only /live, the live preview's, is a WebSocket (when the server serves the preview); this path is plain HTTP")

    static let notReady = Problem(status: .serviceUnavailable, kind: "not-ready", title: "Not ready",
                                  detail: "the server is shutting down and takes no new work", retryAfter: 1)

    static func `internal`(_ description: String) -> Problem {
        Problem(status: .internalServerError, kind: "internal", title: "Internal error", detail: description)
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}

extension Problem: HTTPResponseError {
    public func response(from request: Request, context: some RequestContext) throws -> Response { response }
}
#endif

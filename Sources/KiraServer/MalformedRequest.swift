#if Server
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// The answer to a request the HTTP/1 decoder could not parse, which ``MalformedRequestHandler``
/// passes on as a marked request: its status and problem, answered by the responder before the
/// router, logged and counted, then the connection closed.
enum MalformedRequest {
    static let headerName = "Kira-Malformed-Request"
    /// Per process and secret, so that no client can send a request that looks malformed.
    private static let token = (0..<4).map { _ in String(UInt64.random(in: .min ... .max), radix: 36) }.joined()

    /// What is wrong with a request, as far as the decoder says.
    enum Fault: String {
        case headTooLarge, version, method, length, other

        init(_ error: HTTPParserError) {
            switch error {
            case .headerOverflow: self = .headTooLarge
            case .invalidVersion: self = .version
            case .invalidMethod: self = .method
            case .invalidContentLength, .unexpectedContentLength: self = .length
            default: self = .other
            }
        }

        /// The status RFC 9112 and RFC 9110 give it, and what would be right.
        var problem: Problem {
            switch self {
            case .headTooLarge:
                Problem(status: .requestHeaderFieldsTooLarge, kind: "malformed-request", title: "The request head is too large",
                        detail: "the request line and headers exceed 80 KiB, or 1,000 fields; send a shorter URL and fewer headers")
            case .version:
                Problem(status: .httpVersionNotSupported, kind: "malformed-request", title: "HTTP version not supported",
                        detail: "this server speaks HTTP/1.1 (and 1.0) in plain text: not HTTP/2, nor TLS on this port")
            case .method:
                Problem(status: .badRequest, kind: "malformed-request", title: "The request line cannot be read",
                        detail: "the request does not start with an HTTP method in capitals: frames are GET (or HEAD) requests")
            case .length:
                Problem(status: .badRequest, kind: "malformed-request", title: "The request's length is ambiguous",
                        detail: "a request has at most one Content-Length, a decimal number, and none beside Transfer-Encoding")
            case .other:
                Problem(status: .badRequest, kind: "malformed-request", title: "The request cannot be read",
                        detail: "the request is not HTTP/1.1 (RFC 9112): a request line, header fields with a colon each, an empty line")
            }
        }
    }

    /// The marker of a parse error: the token and the fault.
    static func marker(for error: HTTPParserError) -> String { "\(token) \(Fault(error).rawValue)" }

    /// `responder`, answering the requests ``MalformedRequestHandler`` marks itself.
    static func responder(wrapping responder: @escaping HTTPChannelHandler.Responder,
                          logger: Logger, metrics: ServerMetrics) -> HTTPChannelHandler.Responder {
        { request, writer, channel in
            guard let marker = request.headers[HTTPField.Name(headerName)!] else {
                return try await responder(request, writer, channel)
            }
            let parts = marker.split(separator: " ")
            guard parts.count == 2, parts[0] == token, let fault = Fault(rawValue: String(parts[1])) else {
                return try await responder(request, writer, channel)
            }
            let problem = fault.problem
            var response = problem.response
            response.headers[.connection] = "close"
            metrics.recordRequest(route: "malformed", status: problem.status.code, duration: .zero)
            logger.info("malformed request: \(problem.status.code) \(problem.title)")
            try await writer.write(response: response.head, body: response.body)
            channel.close(promise: nil)
        }
    }
}
#endif

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
        case headTooLarge, requestLineTooLong, version, unknownMethod, method, length, incomplete, other
        /// A CONNECT request: the decoder takes what follows it for a tunnel's bytes.
        case connect

        /// The decoder's limit of a head, request line included (llhttp's).
        static let headLimit = 80 << 10

        /// The fault of `error`, told apart by the request's first bytes (`start`) and the length
        /// of its request line so far (`lineLength`, whole when `lineEnded`), where the decoder's
        /// error alone does not say.
        init(_ error: HTTPParserError, start: [UInt8] = [], lineLength: Int = 0, lineEnded: Bool = true) {
            if let version = Self.version(in: start), !version.hasPrefix("HTTP/1.") {
                // HTTP/2's preface (`PRI * HTTP/2.0`) pauses the decoder rather than failing it.
                self = .version
                return
            }
            switch error {
            // However the bytes came in reads: a line over the limit alone is the line's fault.
            case .headerOverflow: self = lineEnded && lineLength < Self.headLimit ? .headTooLarge : .requestLineTooLong
            case .invalidVersion: self = .version
            case .invalidMethod, .paused: self = Self.startsWithMethodToken(start) ? .unknownMethod : .method
            case .invalidContentLength, .unexpectedContentLength: self = .length
            case .invalidEOFState: self = .incomplete
            default: self = .other
            }
        }

        /// The version of a whole request line within `start`: its third word.
        private static func version(in start: [UInt8]) -> String? {
            guard let end = start.firstIndex(of: 10) else { return nil }
            let words = start[..<end].split(separator: 32, omittingEmptySubsequences: false)
            guard words.count == 3 else { return nil }
            let version = String(decoding: words[2].filter { $0 != 13 }, as: UTF8.self)
            return version.hasPrefix("HTTP/") ? version : nil
        }

        /// Whether `start` is a method as RFC 9110 spells one (a token) and a space: a method
        /// this server does not know (methods are case-sensitive: `get` is not GET).
        private static func startsWithMethodToken(_ start: [UInt8]) -> Bool {
            guard let space = start.firstIndex(of: 32), space > 0 else { return false }
            let symbols = Set("!#$%&'*+-.^_`|~".utf8)
            return start[..<space].allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || symbols.contains(byte)
            }
        }

        /// The status RFC 9112 and RFC 9110 give it, and what would be right.
        var problem: Problem {
            switch self {
            case .headTooLarge:
                Problem(status: .requestHeaderFieldsTooLarge, kind: "malformed-request", title: "The request head is too large",
                        detail: "the request line and headers exceed 80 KiB, or 1,000 fields; send a shorter URL and fewer headers")
            case .requestLineTooLong:
                Problem(status: .uriTooLong, kind: "malformed-request", title: "The request line is too long",
                        detail: "the request line exceeds 80 KiB: send a shorter URL (a render query is at most 4096 bytes)")
            case .version:
                Problem(status: .httpVersionNotSupported, kind: "malformed-request", title: "HTTP version not supported",
                        detail: "this server speaks HTTP/1.1 (and 1.0) in plain text: not HTTP/2, nor TLS on this port")
            case .unknownMethod:
                Problem(status: .notImplemented, kind: "malformed-request", title: "Method not implemented",
                        detail: "this server implements GET and HEAD, spelled in capitals (methods are case-sensitive)")
            case .method:
                Problem(status: .badRequest, kind: "malformed-request", title: "The request line cannot be read",
                        detail: "the request does not start with an HTTP method in capitals: frames are GET (or HEAD) requests")
            case .length:
                Problem(status: .badRequest, kind: "malformed-request", title: "The request's length is ambiguous",
                        detail: "a request has at most one Content-Length, a decimal number, and none beside Transfer-Encoding")
            case .incomplete:
                Problem(status: .badRequest, kind: "malformed-request", title: "The request ended early",
                        detail: "the connection's input closed before the request's head ended with an empty line")
            case .other:
                Problem(status: .badRequest, kind: "malformed-request", title: "The request cannot be read",
                        detail: "the request is not HTTP/1.1 (RFC 9112): a request line, header fields with a colon each, an empty line")
            case .connect:
                Problem.methodNotAllowed(.connect)
            }
        }
    }

    /// How loud its log line is: a client that leaves halfway through a head is no error, as one
    /// that leaves before its first head is not (``ConnectionLogHandler``).
    static func logLevel(of fault: Fault) -> Logger.Level { fault == .incomplete || fault == .connect ? .debug : .info }

    /// The marker of a fault: the token and the fault.
    static func marker(for fault: Fault) -> String { "\(token) \(fault.rawValue)" }

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
            logger.log(level: logLevel(of: fault), "malformed request: \(problem.status.code) \(problem.title)")
            if fault == .connect {
                // SwiftNIO's encoder frames every answer to a CONNECT as a tunnel's (no body, no
                // Content-Length, RFC 9110 §9.3.6 asks that of a 2xx only): this one is written
                // below the encoder, whole, and the connection closed.
                try await writeBelowEncoder(problem.http1Bytes(closing: true), channel: channel)
                channel.close(promise: nil)
                return
            }
            try await writer.write(response: response.head, body: response.body)
            channel.close(promise: nil)
        }
    }

    /// Writes `bytes` as they are to the connection, past the HTTP encoder (from the handler
    /// that sits before the decoder, ``RequestStartRecorder``), after what is already queued.
    static func writeBelowEncoder(_ bytes: [UInt8], channel: any Channel) async throws {
        try await channel.eventLoop.flatSubmit {
            do {
                let context = try channel.pipeline.syncOperations.context(handlerType: RequestStartRecorder.self)
                return context.writeAndFlush(NIOAny(IOData.byteBuffer(ByteBuffer(bytes: bytes))))
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }.get()
    }
}
#endif

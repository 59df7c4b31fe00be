#if Server
import HTTPTypes
import NIOCore

/// A response as a test sees it: status, headers and the whole body.
struct TestResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: ByteBuffer

    var bytes: [UInt8] { Array(buffer: body) }
    var cacheSource: String? { headers[HTTPField.Name("X-Kira-Cache")!] }
}
#endif

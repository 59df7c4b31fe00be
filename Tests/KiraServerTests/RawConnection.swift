#if Server
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation

/// A plain TCP connection to a port on 127.0.0.1, for what an HTTP client does not do: send half
/// a request, hold a connection idle, leave in the middle.
final class RawConnection: @unchecked Sendable {  // one owner at a time: made on one thread, then handed over
    let descriptor: Int32

    /// Connects; with `receiveBuffer`, the kernel keeps at most about so many bytes unread for it.
    init(port: Int, receiveBuffer: Int? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(what: "socket", code: errno) }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            close(descriptor)
            throw Failure(what: "connect", code: errno)
        }
    }

    deinit { close(descriptor) }

    /// Runs blocking socket work on a thread made for it: Dispatch's global queue has about one
    /// thread per processor, and in the whole suite other tests' renders hold them, so a reader
    /// queued there started minutes late and the server rightly closed the idle connection.
    static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// `count` connections, made on a thread of their own: a blocking `connect` on one of the few
    /// threads Swift's tasks run on would hold back the server accepting them (under a loaded
    /// machine, 2 000 connects then timed out after two minutes).
    static func open(_ count: Int, port: Int, receiveBuffer: Int? = nil) async throws -> [RawConnection] {
        try await onOwnThread {
            Result { try (0..<count).map { _ in try RawConnection(port: port, receiveBuffer: receiveBuffer) } }
        }.get()
    }

    func send(_ text: String) { send(bytes: Array(text.utf8)) }

    /// Sends `bytes` from a thread of its own: a large send blocks until the server reads.
    func sendOnDispatch(_ bytes: [UInt8]) async {
        await Self.onOwnThread { self.send(bytes: bytes) }
    }

    func send(bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything the server sends until it closes the connection or `seconds` pass; nil when
    /// the time ran out with the connection still open. It waits on a thread of its own, leaving
    /// the threads Swift's tasks run on to the server.
    func readUntilClosed(seconds: Double) async -> [UInt8]? {
        let (received, closed) = await receive(seconds: seconds) { _ in false }
        return closed ? received : nil
    }

    /// What the server sends until `done` holds for all of it, the connection closes or
    /// `seconds` pass (on a thread of its own, as ``readUntilClosed(seconds:)``).
    func read(seconds: Double, until done: @escaping @Sendable ([UInt8]) -> Bool) async -> [UInt8] {
        await receive(seconds: seconds, until: done).bytes
    }

    /// Reads everything until the server closes, `chunk` bytes at a time with a pause of `pause`
    /// after each (a slow reader), at most `seconds` in all; nil if the time ran out.
    func readSlowly(chunk: Int, pause: Double, seconds: Double) -> [UInt8]? {
        var received: [UInt8] = [], buffer = [UInt8](repeating: 0, count: chunk)
        let end = clock_gettime_seconds() + seconds
        while clock_gettime_seconds() < end {
            let n = recv(descriptor, &buffer, chunk, 0)
            if n <= 0 { return received }
            received += buffer[0..<n]
            usleep(UInt32(pause * 1e6))
        }
        return nil
    }

    /// The request that opens a WebSocket at `path` (RFC 6455's example key).
    static func webSocketUpgrade(path: String) -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    }

    /// The complete WebSocket frames a server sent after its upgrade response in `bytes`: each
    /// frame's first byte (FIN and opcode) and its payload (a server's frames are not masked).
    static func webSocketFrames(in bytes: [UInt8]) -> [(first: UInt8, payload: ArraySlice<UInt8>)] {
        guard let end = bytes.indices.dropLast(3).first(where: { bytes[$0..<($0 + 4)].elementsEqual("\r\n\r\n".utf8) }) else { return [] }
        var at = end + 4, frames: [(first: UInt8, payload: ArraySlice<UInt8>)] = []
        while at + 2 <= bytes.count {
            var length = Int(bytes[at + 1] & 0x7F), header = 2
            if length >= 126 {
                header += length == 126 ? 2 : 8
                guard at + header <= bytes.count else { break }
                length = bytes[(at + 2)..<(at + header)].reduce(0) { $0 << 8 | Int($1) }
            }
            guard at + header + length <= bytes.count else { break }
            frames.append((bytes[at], bytes[(at + header)..<(at + header + length)]))
            at += header + length
        }
        return frames
    }

    /// A client's WebSocket frame of `payload` (a text frame by default): masked as a client must,
    /// with a zero key so the payload goes as it is, unless `masked` is false.
    static func webSocketFrame(_ payload: [UInt8], opcode: UInt8 = 0x1, masked: Bool = true) -> [UInt8] {
        let mask: UInt8 = masked ? 0x80 : 0
        var frame: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: frame.append(mask | UInt8(payload.count))
        case ..<65536: frame += [mask | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame += [mask | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        return frame + (masked ? [0, 0, 0, 0] : []) + payload
    }

    /// Sends `text` as one WebSocket text frame, masked as a client must.
    func sendWebSocketText(_ text: String) {
        send(bytes: Self.webSocketFrame(Array(text.utf8)))
    }

    /// Reads on a thread of its own until `done` holds for what came, the connection closes
    /// (`closed`) or `seconds` pass.
    private func receive(seconds: Double, until done: @escaping @Sendable ([UInt8]) -> Bool) async -> (bytes: [UInt8], closed: Bool) {
        await Self.onOwnThread {
            var received: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536), closed = false
            let end = clock_gettime_seconds() + seconds
            while !done(received) {
                let left = end - clock_gettime_seconds()
                var poller = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
                guard left > 0, poll(&poller, 1, Int32(left * 1000)) > 0 else { break }
                let n = recv(self.descriptor, &buffer, buffer.count, 0)
                if n <= 0 {
                    closed = true
                    break
                }
                received += buffer[0..<n]
            }
            return (received, closed)
        }
    }

    struct Failure: Error { var what: String; var code: Int32 }
}

private func clock_gettime_seconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Raises this process's limit on open files to its hard limit (for tests that hold thousands).
func raiseOpenFileLimit() -> Int {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    return Int(limit.rlim_cur)
}
#endif

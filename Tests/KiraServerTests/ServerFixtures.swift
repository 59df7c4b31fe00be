import KiraPNG
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import KiraImage
import KiraRender
import KiraRequest
@testable import KiraServer
import Logging
import ServiceLifecycle

/// Servers and cards for the tests.
enum ServerFixtures {
    /// Runs a server of `configuration` on a free port of 127.0.0.1 while `body` runs with the
    /// port, then shuts it down. It opens no client of its own: a test of the idle timeout would
    /// see a client made in advance closed for idling.
    static func running<Value: Sendable>(_ configuration: ServerConfiguration, clock: any ServerClock = SystemClock(),
                                         render: @escaping FrameService.Render = FrameService.renderOnRenderThread,
                                         _ body: @escaping @Sendable (_ port: Int) async throws -> Value) async throws -> Value {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = try buildApplication(configuration, clock: clock, render: render) { _, port in listening.yield(port) }
        let group = ServiceGroup(configuration: .init(services: [app], logger: quietLogger))
        return try await withThrowingTaskGroup(of: Value?.self) { tasks in
            tasks.addTask {
                try await group.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            do {
                let value = try await body(port)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return value
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
        }
    }

    static let quietLogger = Logger(label: "kira.serve.test") { _ in SwiftLogNoOpLogHandler() }

    /// The server of `configuration` with a render function that answers at once with the same
    /// few bytes: for tests of what happens around a frame (routes, problems, ETags, caching,
    /// methods), whose pixels the render route's own tests check.
    static func stubbedApplication(_ configuration: ServerConfiguration = configuration()) throws -> some ApplicationProtocol {
        try buildApplication(configuration, clock: SystemClock(), render: immediateRender(Array("stub frame".utf8)))
    }

    /// `GET uri` from the server at `port` on 127.0.0.1, on a connection made just for it, waiting
    /// up to `timeout` for the response.
    static func get(_ uri: String, port: Int, timeout: Duration = .seconds(60)) async throws -> TestResponse {
        try await SocketClient(port: port, timeout: timeout).execute(uri: uri, method: .get)
    }

    /// A configuration for tests: loopback, any port, no log.
    static func configuration(_ change: (inout ServerConfiguration) -> Void = { _ in }) -> ServerConfiguration {
        var configuration = ServerConfiguration(kiraVersion: "test", logger: quietLogger)
        configuration.port = 0
        // The tests run side by side on a shared machine, in debug builds: waits and deadlines
        // are long unless a test is about them.
        configuration.maxWait = .seconds(60)
        configuration.deadline = .seconds(300)
        // Connections are not closed for idling unless a test is about it: one opened early must
        // still be there after a test's thousand others.
        configuration.idleTimeout = .seconds(900)
        change(&configuration)
        return configuration
    }

    static let key = Array("0123456789abcdef0123456789abcdef".utf8)

    /// A folder of card folders; removed with `remove()`.
    final class CardFolder: Sendable {
        let path: String

        init() throws {
            path = NSTemporaryDirectory() + "kira-serve-cards-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        /// A card `id` whose art is a `width`×`height` gradient, with the files named in `files`
        /// (`art.png` always) written as PNGs, and any raw files in `raw`.
        func addCard(_ id: String, width: Int = 60, height: Int = 84, files: [String] = ["art.png"], raw: [String: [UInt8]] = [:]) throws {
            let folder = path + "/" + id
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var image = try RGBAImage<UInt8>(width: width, height: height)
            for i in image.channels.indices { image.channels[i] = UInt8((i * 7 + i / 13) % 256) }
            for name in files { try PNGCodec.write(.rgba8(image), to: folder + "/" + name) }
            for (name, bytes) in raw { _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes)) }
        }

        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The problem body of a response.
    static func problem(_ response: TestResponse) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any] ?? [:]
    }

    /// The frame the library renders for `values` of `card`: what the server must send.
    static func expectedFrame(_ values: [(String, String)], card: LoadedCard? = nil) throws -> [UInt8] {
        let request = try RenderRequest(values: values)
        let faces = try card ?? CardTextures().load { _, _ in fatalError() }
        return try request.encode(try request.render(try request.scene(for: faces), with: FrameRenderer()))
    }
}
#endif

#if Server
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KiraImage

/// What a live preview's page sends, one JSON text message each:
/// `{"type":"drag","id":7,"dx":12,"dy":-3}` (pointer offset in points from where it was pressed),
/// `release`, `flip`, `orient` (`beta`, `gamma` in degrees), `set` (`name`, `value`: a control),
/// and `ack` (the last frame was painted: the next may come). `id` numbers the inputs, so that a
/// frame can say which input it shows.
struct LiveInput: Decodable, Sendable {
    enum Kind: String, Decodable, Sendable { case drag, release, flip, orient, set, ack }
    var type: Kind
    var id: Int?
    var dx: Double?
    var dy: Double?
    var beta: Double?
    var gamma: Double?
    var name: String?
    var value: String?

    /// The longest message read: every control at its longest fits many times over.
    static let maxBytes = 4096

    static func decode(_ text: String) throws(LiveInputError) -> LiveInput {
        do {
            return try JSONDecoder().decode(LiveInput.self, from: Data(text.utf8))
        } catch {
            throw LiveInputError("not a live preview message: expected JSON {\"type\": drag|release|flip|orient|set|ack, ...}")
        }
    }
}

/// An input the server cannot use; the page is told, the connection stays open.
struct LiveInputError: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}

/// What the server sends with each frame, as JSON before the frame's bytes in one binary
/// message: 4 bytes (the JSON's length, big-endian), the JSON, then the image of the part of the
/// canvas the card covers (`region`), encoded as `mediaType` says.
struct LiveFrameHeader: Encodable, Sendable {
    /// Frames of this connection, from 1.
    var seq: Int
    /// The newest input the frame shows.
    var input: Int
    var mediaType: String
    var tiltX: Double
    var tiltY: Double
    var flip: Double
    /// Whether the card is turning to (or showing) its back.
    var back: Bool
    /// Whether the card is still moving (more frames follow without input).
    var moving: Bool
    var renderMilliseconds: Double
    /// The API's URL of the same frame as a PNG (signed when the server signs).
    var url: String
    /// The `kira render` command that writes the same PNG.
    var command: String
    var card: String
    var width: Int
    /// The page's canvas: the same for every pose at one width and tilt limit.
    var canvasWidth: Int
    var canvasHeight: Int
    /// Where the page's canvas lies in the frame `url` names (whose canvas has room for a ±45°
    /// tilt): the same size, at its place, as `{"x", "y", "width", "height"}` in pixels.
    var window: ImageRegion
    /// Where the image goes on the page's canvas.
    var region: ImageRegion
    /// The colour (red, green, blue, alpha; 0...255) of the page's canvas outside `region`;
    /// absent when the image covers all of it.
    var fill: [UInt8]?
}

/// A message the server sends as text: `{"type":"error","message":"…"}`.
struct LiveNotice: Encodable, Sendable {
    var type = "error"
    var message: String

    var json: String { String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self) }
}
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a batch run did, for the report at its end (`kira batch --json` prints it as JSON).
public struct BatchSummary: Codable, Sendable, Equatable {
    /// A row that failed, and why.
    public struct Failure: Codable, Sendable, Equatable {
        public var row: Int
        public var output: String?
        public var reason: String

        public init(row: Int, output: String?, reason: String) {
            self.row = row
            self.output = output
            self.reason = reason
        }
    }

    public var manifest: String
    public var shard: String
    /// The rows of this shard.
    public var rows: Int
    /// Rows whose output was written.
    public var rendered = 0
    /// Rows whose output was already up to date.
    public var skipped = 0
    public var failed: Int { failures.count }
    public var failures: [Failure] = []
    /// Cards (rows sharing their four textures) of which a frame was written.
    public var cards = 0
    /// Wall-clock seconds, from reading the manifest to the last file written.
    public var seconds = 0.0

    public init(manifest: String, shard: String, rows: Int) {
        self.manifest = manifest
        self.shard = shard
        self.rows = rows
    }

    public var framesPerSecond: Double { seconds > 0 ? Double(rendered) / seconds : 0 }
    public var cardsPerSecond: Double { seconds > 0 ? Double(cards) / seconds : 0 }

    private enum CodingKeys: String, CodingKey {
        case manifest, shard, rows, rendered, skipped, failed, failures, cards, seconds
        case framesPerSecond = "frames_per_second", cardsPerSecond = "cards_per_second"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(manifest, forKey: .manifest)
        try container.encode(shard, forKey: .shard)
        try container.encode(rows, forKey: .rows)
        try container.encode(rendered, forKey: .rendered)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(failed, forKey: .failed)
        try container.encode(failures, forKey: .failures)
        try container.encode(cards, forKey: .cards)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(framesPerSecond, forKey: .framesPerSecond)
        try container.encode(cardsPerSecond, forKey: .cardsPerSecond)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        manifest = try container.decode(String.self, forKey: .manifest)
        shard = try container.decode(String.self, forKey: .shard)
        rows = try container.decode(Int.self, forKey: .rows)
        rendered = try container.decode(Int.self, forKey: .rendered)
        skipped = try container.decode(Int.self, forKey: .skipped)
        failures = try container.decode([Failure].self, forKey: .failures)
        cards = try container.decode(Int.self, forKey: .cards)
        seconds = try container.decode(Double.self, forKey: .seconds)
    }

    /// One line of JSON.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

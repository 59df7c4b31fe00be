import KiraRequest
import Testing

/// A user's value in a message is quoted up to a few hundred bytes, then elided with its length.
@Suite struct LongValueTests {
    /// A user's value of 1 MiB in a message is elided with its length: a line stays a line.
    @Test(arguments: ["background", "size", "tilt_x", "foil", "depth"])
    func aHugeValueGivesAShortLine(name: String) throws {
        let huge = String(repeating: "a", count: 1 << 20)
        do {
            _ = try RenderRequest(values: [(name, huge)])
            Issue.record("\(name) took a 1 MiB value")
        } catch {
            #expect(error.description.utf8.count < 600, "\(name): \(error.description.utf8.count) bytes")
            #expect(error.description.contains("(1048576 bytes)"), "\(name): \(error.description.prefix(300))")
        }
        do {
            _ = try RenderRequest(values: [(huge, "1")])
            Issue.record("a 1 MiB name was a parameter")
        } catch {
            #expect(error.description.utf8.count < 1000, "\(error.description.utf8.count) bytes")
        }
    }
}

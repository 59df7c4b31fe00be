import KiraFormats
import KiraRequest
import Testing

/// Settings a still's format cannot store or does not use are refused, naming what is valid:
/// the rules `kira render`, manifests and the server share (KiraCLITests checks how the command
/// line spells one of them).
@Suite struct OutputRuleTests {
    /// The sample card, drawn once for these tests.
    static let card = try! CardTextures().load { _, _ in fatalError("the sample card reads no file") }

    @Test(arguments: [
        ([("depth", "16")], StillFormat.webp, "depth 16 needs a .png output"),
        ([("quality", "80")], .png, "quality applies to .webp and .jpg"),
        ([("lossless", "true")], .jpeg, "lossless applies to .webp"),
        ([("quality", "0")], .jpeg, "quality must be between 1 and 100 for a JPEG"),
        ([("compression", "fast")], .webp, "compression applies to .png"),
        ([("width", "200")], .png, "width 200 is wider than the 80×100 image"),
    ])
    func settingsAFormatCannotUseAreRefused(values: [(String, String)], format: StillFormat, message: String) throws {
        let request = try RenderRequest(values: [("size", "80x100")] + values)
        do {
            _ = try request.prepare(Self.card, format: format, budget: nil)
            Issue.record("\(values) was taken for \(format)")
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func qualityAndLosslessTogetherAreRefused() {
        #expect(throws: RequestError(parameter: nil, reason: "give {quality} or {lossless}, not both")) {
            try RenderRequest(values: [("quality", "80"), ("lossless", "true")])
        }
    }
}

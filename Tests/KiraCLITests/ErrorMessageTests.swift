import Foundation
import Kira
import Testing

/// Errors say what to do, in one line.
@Suite struct ErrorMessageTests {
    static func expectOneLine(_ result: CLIRunner.Result, containing parts: [String]) {
        #expect(result.status == 2, "exit \(result.status): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        for part in parts { #expect(result.stderr.contains(part), "\(part) missing in \(result.stderr)") }
    }

    @Test func anUnknownPresetListsThePresets() throws {
        let result = try Workspace(empty: ()).run("animate", "--preset", "nope")
        Self.expectOneLine(result, containing: AnimationPreset.allCases.map(\.rawValue))
    }

    @Test(arguments: [
        ("photo.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8), "a JPEG file", "ffmpeg -i photo.jpg photo.png"),
        ("anim.gif", Array("GIF89a".utf8) + [1, 0, 1, 0], "a GIF file", "anim.png"),
        ("fake.png", Array("GIF89a".utf8) + [1, 0, 1, 0], "a GIF file", "fake-converted.png"),
        ("pic.webp", Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), "a WebP file", "pic.png"),
    ] as [(String, [UInt8], String, String)])
    func anotherImageFormatIsNamedWithAConversion(name: String, bytes: [UInt8], what: String, conversion: String) throws {
        let workspace = try Workspace(empty: ())
        try Data(bytes).write(to: URL(fileURLWithPath: workspace.file(name)))
        let result = try workspace.run("shade", "--art", name, "-o", "out.png")
        Self.expectOneLine(result, containing: [name, what, "PNG only", conversion])
        #expect(!workspace.exists("out.png"))
    }
}

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
        Self.expectOneLine(result, containing: AnimationPreset.allCases.map(\.name))
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

    /// A mistyped command, or `help` of one, names the command meant when it is close, and the
    /// commands otherwise; exit 2, one line.
    @Test(arguments: [
        (["rendr"], ["unknown command 'rendr'", "did you mean 'render'"]),
        (["rendr", "--art", "x.png"], ["did you mean 'render'"]),
        (["compar", "a.png", "b.png"], ["did you mean 'compare'"]),
        (["help", "animat"], ["unknown command 'animat'", "did you mean 'animate'"]),
        (["help", "zebra"], ["unknown command 'zebra'", "the commands are shade, render, animate"]),
        (["frobnicate"], ["unknown command 'frobnicate'", "the commands are"]),
    ])
    func unknownCommands(arguments: [String], parts: [String]) throws {
        let workspace = try Workspace(empty: ())
        let result = try CLIRunner.run(arguments, in: workspace.path)
        Self.expectOneLine(result, containing: parts)
        #expect(result.stdout.isEmpty)
    }

    /// An unknown option gets a suggestion only when one is close: `--crf` is two letters from
    /// `--art` and means nothing like it.
    @Test(arguments: [
        (["render", "--crf", "20"], nil),
        (["render", "--shard", "1/2"], nil),
        (["render", "--tiltx", "3"], "--tilt-x"),
        (["render", "--tilt", "3"], "--tilt-x"),
        (["render", "--backgroud", "#000000"], "--background"),
        (["render", "-O", "x.png"], "-o"),
        (["render", "-X", "x.png"], nil),
    ] as [([String], String?)])
    func unknownOptionsSuggestOnlyWhenClose(arguments: [String], suggestion: String?) throws {
        let workspace = try Workspace(empty: ())
        let result = try CLIRunner.run(arguments, in: workspace.path)
        Self.expectOneLine(result, containing: ["unknown option '\(arguments[1])'"])
        if let suggestion {
            #expect(result.stderr.contains("Did you mean '\(suggestion)'?"), "\(result.stderr)")
        } else {
            #expect(!result.stderr.contains("Did you mean"), "\(result.stderr)")
        }
    }

    /// Every value error says what is valid and gives an example.
    @Test(arguments: [
        (["render", "--background", "#fff"], ["#RRGGBB", "e.g. #1b1f2a", "\"#fff\""]),
        (["render", "--background", "white"], ["#RRGGBB", "e.g. #1b1f2a", "transparent"]),
        (["render", "--background", "#1b1f2a80"], ["#RRGGBB", "e.g. #1b1f2a"]),
        (["render", "--size", "16385x100"], ["each side 1...16384", "e.g. 800x1000"]),
        (["animate", "--preset", "showcase", "--fps", "12.5"], ["whole number between 1 and 240", "e.g. 30", "\"12.5\""]),
        (["render", "--tilt-x", "abc"], ["between -90 and 90", "e.g. 8"]),
        (["render", "--threads", "0"], ["between 1 and 1024", "e.g. 4"]),
        (["render", "--quality", "101", "-o", "a.webp"], ["between 0 and 100", "e.g. 85"]),
        (["batch", "cards.csv", "--shard", "5/2"], ["K must be 0…1", "e.g. 0/2"]),
    ])
    func valueErrorsGiveAnExample(arguments: [String], parts: [String]) throws {
        let workspace = try Workspace(empty: ())
        let result = try CLIRunner.run(arguments, in: workspace.path)
        Self.expectOneLine(result, containing: parts)
    }
}

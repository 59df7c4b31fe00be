import Foundation
import Kira
import KiraTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every kind of output `kira` writes, against the same hostile targets: each kind opens its file
/// through one door, so each must do the same thing with a link, a dangling link, a link to an
/// input, a FIFO, a full device, a directory and a folder that cannot take a file.
@Suite struct OutputTargetTests {
    /// An output kind: the arguments that write `target`, and what the file starts with.
    struct Kind: CustomTestStringConvertible, Sendable {
        var name: String
        /// The target's name in the workspace (numbered frames: the first frame of a folder).
        var target: String
        var magic: [UInt8]
        /// `kira batch`: a failed row is exit 1, and a FIFO or device fails it (no reader waits).
        var isCatalogue = false
        var needsFFmpeg = false
        var arguments: @Sendable (_ target: String) -> [String]

        var testDescription: String { name }
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
    static let animation = Workspace.card + ["--preset", "seed003-tilt", "--duration", "0.2", "--fps", "10", "--quiet"]

    static let kinds: [Kind] = [
        Kind(name: "render -o", target: "t.png", magic: png) { ["render"] + Workspace.card + ["-o", $0] },
        Kind(name: "shade -o", target: "t.png", magic: png) { ["shade"] + Workspace.front + ["-o", $0] },
        Kind(name: "compare --diff", target: "t.png", magic: png) {
            ["compare", "textures/front.png", "textures/back.png", "--diff", $0]
        },
        Kind(name: "animate --apng", target: "t.png", magic: png) { ["animate"] + animation + ["--apng", $0] },
        Kind(name: "animate --sheet", target: "t.png", magic: png) { ["animate"] + animation + ["--sheet", $0] },
        Kind(name: "animate --output-dir", target: "frames/frame-0000.png", magic: png) { _ in
            ["animate"] + animation + ["--output-dir", "frames"]
        },
        Kind(name: "animate --video", target: "t.gif", magic: Array("GIF8".utf8), needsFFmpeg: true) {
            ["animate"] + animation + ["--video", $0]
        },
        Kind(name: "batch output", target: "t.png", magic: png, isCatalogue: true) { _ in ["batch", "cards.csv", "--quiet"] },
    ]

    enum Target: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case linkToFile, danglingLink, linkToInput, fifo, fullDeviceThroughLink, directory, folderThatCannotTakeFiles

        var testDescription: String { rawValue }
    }

    @Test(arguments: kinds, Target.allCases)
    func hostileTarget(kind: Kind, target: Target) throws {
        if kind.needsFFmpeg { _ = try Prerequisite.ffmpeg.path() }
        let workspace = try Workspace()
        var path = kind.target
        if path.hasPrefix("frames/") { try FileManager.default.createDirectory(atPath: workspace.file("frames"), withIntermediateDirectories: true) }
        // The input a link points to: the batch's own manifest (it once overwrote it), else the art.
        let input = kind.isCatalogue ? "cards.csv" : "textures/front.png"
        switch target {
        case .linkToFile:
            try Data("old".utf8).write(to: URL(fileURLWithPath: workspace.file("real")))
            #expect(symlink(workspace.file("real"), workspace.file(path)) == 0)
        case .danglingLink:
            #expect(symlink(workspace.file("missing"), workspace.file(path)) == 0)
        case .linkToInput:
            #expect(symlink(workspace.file(input), workspace.file(path)) == 0)
        case .fifo:
            #expect(mkfifo(workspace.file(path), 0o644) == 0)
        case .fullDeviceThroughLink:
            #expect(symlink("/dev/full", workspace.file(path)) == 0)
        case .directory:
            try FileManager.default.createDirectory(atPath: workspace.file(path), withIntermediateDirectories: false)
        case .folderThatCannotTakeFiles:
            // /proc/self takes no new file, for root too (a chmod 555 folder does not stop root).
            path = path.hasPrefix("frames/") ? "/proc/self/frame-0000.png" : "/proc/self/" + path
        }
        let arguments = kind.arguments(path).map { $0 == "frames" && target == .folderThatCannotTakeFiles ? "/proc/self" : $0 }
        try Self.writeManifest(in: workspace, output: path)
        let inputBefore = try Data(contentsOf: URL(fileURLWithPath: workspace.file(input)))
        let reader = target == .fifo ? Thread.detachNewThreadReadingAll(workspace.file(path)) : nil
        let result = try CLIRunner.run(arguments, in: workspace.path)
        if target == .fifo { Self.releaseReader(of: workspace.file(path)) }
        let fifoBytes = reader?.wait(seconds: 10)

        let failure: Int32 = kind.isCatalogue ? 1 : 2
        let lines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("    ") }
        switch target {
        case .linkToFile:
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Self.isLink(workspace.file(path)), "the link was replaced")
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: workspace.file("real"))).prefix(kind.magic.count)) == kind.magic,
                    "not written through the link")
        case .danglingLink:
            #expect(result.status == failure && lines.count == 1, "\(result.status): \(result.stderr)")
            #expect(Self.isLink(workspace.file(path)) && !FileManager.default.fileExists(atPath: workspace.file("missing")))
        case .linkToInput:
            #expect(result.status == failure && lines.count == 1 && result.stderr.contains("overwrite"), "\(result.status): \(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.file(input))) == inputBefore, "the input was overwritten")
        case .fifo:
            #expect(Self.type(workspace.file(path)) == S_IFIFO, "the FIFO was replaced")
            if kind.isCatalogue {
                #expect(result.status == 1 && result.stderr.contains("FIFO"), "\(result.stderr)")
            } else {
                #expect(result.status == 0, "\(result.stderr)")
                #expect(Array((fifoBytes ?? []).prefix(kind.magic.count)) == kind.magic, "nothing written into the FIFO")
            }
            if fifoBytes == nil {
                Self.releaseReader(of: workspace.file(path))  // a reader left blocked: release it
                Issue.record("the FIFO's reader was left waiting")
            }
        case .fullDeviceThroughLink:
            #expect(result.status == failure, "\(result.stderr)")
            #expect(result.stderr.contains(kind.isCatalogue ? "is a device" : "No space left on device"), "\(result.stderr)")
            #expect(Self.isLink(workspace.file(path)), "the link was replaced")
        case .directory:
            #expect(result.status == failure && lines.count == 1, "\(result.status): \(result.stderr)")
            #expect(Self.type(workspace.file(path)) == S_IFDIR)
        case .folderThatCannotTakeFiles:
            #expect(result.status == failure && lines.count == 1, "\(result.status): \(result.stderr)")
        }
        // Temporary files are `.NAME.kira-PID-…`; a batch's records and its state folder are not.
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: workspace.path).filter {
            let name = $0.split(separator: "/").last.map(String.init) ?? $0
            return name.contains(".kira-") && !name.hasSuffix(".kira-batch") && !name.hasSuffix(".kira-state")
        }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    /// The manifest of the batch kind: one row writing `output` from the workspace's card.
    static func writeManifest(in workspace: Workspace, output: String) throws {
        let row = "\(output),textures/front.png,textures/mask.png,textures/back.png,textures/back-mask.png\n"
        try Data(("output,art,mask,back,back_mask\n" + row).utf8).write(to: URL(fileURLWithPath: workspace.file("cards.csv")))
    }

    /// A reader still waiting on a FIFO nobody opened gets its end of file.
    static func releaseReader(of fifo: String) {
        let fd = open(fifo, O_WRONLY | O_NONBLOCK)
        if fd >= 0 { close(fd) }
    }

    static func isLink(_ path: String) -> Bool { type(path, follow: false) == S_IFLNK }

    static func type(_ path: String, follow: Bool = false) -> mode_t? {
        var status = stat()
        return (follow ? stat(path, &status) : lstat(path, &status)) == 0 ? status.st_mode & S_IFMT : nil
    }
}

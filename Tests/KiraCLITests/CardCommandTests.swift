import Foundation
import KiraImage
import KiraWeb
import Testing

/// `kira card` writes the faces `kira render` would draw as a gzip-compressed card file, from any
/// folder, and refuses what it cannot read in one line.
@Suite struct CardCommandTests {
    /// The file's bytes, decompressed by gzip(1), as a browser's DecompressionStream reads them.
    static func decompressed(_ path: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "gzip -dc \(path)")
        return [UInt8](data)
    }

    @Test func writesTheFacesOfAUsersCard() throws {
        let workspace = try Workspace()
        let result = try workspace.run("card", "--art", "textures/front.png", "--mask", "textures/mask.png", "-o", "output/my.kira")
        #expect(result.status == 0, "\(result.stderr)")
        // No back given: kira render's plain back, and it says so.
        #expect(result.stderr.contains("plain back"), "\(result.stderr)")
        let bytes = try Self.decompressed(workspace.file("output/my.kira"))
        let faces = try bytes.withUnsafeBytes { try CardFile.decode($0) }
        #expect(faces.front.art.width == Workspace.artSize.width && faces.front.art.height == Workspace.artSize.height)
        // The mask, a third of the art's size, is fitted to the art as kira render fits it.
        #expect(faces.front.mask.width == Workspace.artSize.width && faces.front.mask.height == Workspace.artSize.height)
        #expect(workspace.outputs() == ["my.kira"])
    }

    @Test func refusesWhatItCannotRead() throws {
        let workspace = try Workspace()
        let result = try workspace.run("card", "--art", "missing.png", "-o", "output/my.kira")
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("missing.png"), "\(result.stderr)")
        #expect(workspace.outputs().isEmpty)
    }
}

import Foundation
import KiraTestSupport
import Testing

/// A test that needs a program or file from outside Swift fails, where it is missing, with one
/// line naming the Debian package that brings it.
@Suite struct PrerequisiteTests {
    @Test func aHiddenProgramFailsWithItsPackage() throws {
        let empty = try TemporaryDirectory()
        #expect(throws: Prerequisite.Missing.self) { try Prerequisite.ffprobe.path(searchPath: empty.path) }
        do {
            _ = try Prerequisite.ffprobe.path(searchPath: empty.path)
        } catch {
            #expect(error.description == "this test needs the program ffprobe, from Debian's ffmpeg: apt-get install ffmpeg")
        }
    }

    @Test func aProgramOnTheSearchPathIsFound() throws {
        let folder = try TemporaryDirectory()
        let program = folder.path + "/webpmux"
        try "#!/bin/sh\n".write(toFile: program, atomically: false, encoding: .utf8)
        #expect(chmod(program, 0o755) == 0)
        #expect(try Prerequisite.webpmux.path(searchPath: "/nonexistent:" + folder.path) == program)
    }

    @Test func aMissingFileFailsWithItsPackage() throws {
        let missing = Prerequisite.file(try TemporaryDirectory().path + "/sRGB.icc", package: "icc-profiles-free")
        do {
            _ = try missing.path()
            Issue.record("a missing file was found")
        } catch {
            #expect(error.description == "this test needs \(missing.name), from Debian's icc-profiles-free: apt-get install icc-profiles-free")
        }
    }
}

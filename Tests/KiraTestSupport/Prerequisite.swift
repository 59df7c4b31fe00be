import Foundation

/// A program or file from outside Swift that a test needs, with the Debian package that brings
/// it. A test asks for it before using it: where it is missing, the test fails with one line that
/// names the package (the README's set-up line installs them all), rather than crashing the test
/// process or skipping.
public struct Prerequisite: Sendable {
    /// A program's name, looked up on PATH, or a file's absolute path.
    public let name: String
    /// The Debian package that installs it.
    public let package: String
    private let isProgram: Bool

    public static func program(_ name: String, package: String) -> Prerequisite { Prerequisite(name: name, package: package, isProgram: true) }
    public static func file(_ path: String, package: String) -> Prerequisite { Prerequisite(name: path, package: package, isProgram: false) }

    public static let ffmpeg = program("ffmpeg", package: "ffmpeg")
    public static let ffprobe = program("ffprobe", package: "ffmpeg")
    public static let webpmux = program("webpmux", package: "webp")
    public static let apngdis = program("apngdis", package: "apngdis")
    public static let transicc = program("transicc", package: "liblcms2-utils")
    public static let curl = program("curl", package: "curl")
    public static let adobeRGBProfile = file("/usr/share/color/icc/compatibleWithAdobeRGB1998.icc", package: "icc-profiles-free")
    public static let sRGBProfile = file("/usr/share/color/icc/sRGB.icc", package: "icc-profiles-free")

    /// The prerequisites `MediaTools.run` knows by program name.
    static let programs = [ffmpeg, ffprobe, webpmux, apngdis, transicc, curl]

    /// Why a test cannot run here, in one line.
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// The program's path on `searchPath` (PATH by default), or the file's path, when it is there.
    public func path(searchPath: String? = ProcessInfo.processInfo.environment["PATH"]) throws(Missing) -> String {
        if !isProgram {
            guard FileManager.default.isReadableFile(atPath: name) else {
                throw Missing(description: "this test needs \(name), from Debian's \(package): apt-get install \(package)")
            }
            return name
        }
        for folder in (searchPath ?? "").split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Missing(description: "this test needs the program \(name), from Debian's \(package): apt-get install \(package)")
    }

    /// The file's bytes (for a file prerequisite).
    public func contents() throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: try path())))
    }
}

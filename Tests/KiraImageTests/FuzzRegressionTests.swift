import Foundation
import KiraArguments
@testable import KiraPNG
import Testing
import KiraFiles
import KiraImage

/// Replays what the fuzzer kept (Tests/Fuzz/Regressions) through the fuzz target's checks
/// (Tests/Fuzz/FuzzTargets.swift): a PNG input must decode or fail with an error, never crash; a
/// command-line value must parse to a value in range or to nothing.
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions")

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0 != "README.md" }.sorted()
    }

    @Test func regressionInputsExist() {
        #expect(!Self.inputs.isEmpty, "no inputs found in \(Self.directory.path)")
    }

    @Test(arguments: inputs)
    func replay(name: String) throws {
        let data = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(name)))
        guard let selector = data.first else {
            Issue.record("\(name) is empty: its first byte chooses the fuzz target")
            return
        }
        let input = Array(data.dropFirst())
        switch selector % 3 {
        case 0, 1:
            let limits = selector % 3 == 0 ? PNGCodec.Limits.standard : PNGCodec.Limits(maxSide: 64, maxPixels: 1024)
            do {
                let image = try PNGCodec.decode(input, name: name, limits: limits)
                #expect(image.width * image.height <= limits.maxPixels)
            } catch {
                #expect(!error.reason.isEmpty)
            }
        default:
            let text = String(decoding: input, as: UTF8.self)
            if let v = ArgumentValues.vector3(text) { #expect(v.x.isNaN || v.x == v.x) }
            if let size = ArgumentValues.size(text) { #expect(size.width >= 1 && size.height >= 1) }
            if let color = ArgumentValues.hexColor(text) { #expect(color.max() <= 1 && color.min() >= 0) }
            if let bytes = ArgumentValues.byteCount(text) { #expect(bytes >= 0) }
            #expect(PathBytes.bytes(PathBytes.string(bytes: input)) == input)
        }
    }
}

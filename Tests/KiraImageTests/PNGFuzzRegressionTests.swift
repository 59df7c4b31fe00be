import Foundation
import Testing
@testable import KiraImage

/// Replays what the fuzzer kept (Tests/Fuzz/Regressions): each input must decode or fail with an
/// error, never crash.
@Suite struct PNGFuzzRegressionTests {
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
        guard let selector = data.first, selector % 3 < 2 else { return }  // argument inputs: the fuzz target only
        let limits = selector % 3 == 0 ? PNGCodec.Limits.standard : PNGCodec.Limits(maxSide: 64, maxPixels: 1024)
        do {
            let image = try PNGCodec.decode(Array(data.dropFirst()), name: name, limits: limits)
            #expect(image.width * image.height <= limits.maxPixels)
        } catch {
            #expect(!error.reason.isEmpty)
        }
    }
}

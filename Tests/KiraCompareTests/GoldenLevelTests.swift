import Testing
@testable import KiraRender

/// The golden images again at every x86-64 level: each level's kernels must write the committed
/// bytes. A level this CPU does not run shows as skipped, with the reason.
@Suite struct GoldenLevelTests {
    static func goldens(at level: KernelLevel) throws {
        try KernelLevel.$scoped.withValue(level) {
            #expect(FrameRenderer().shader.kernelLevel == level)
            let goldens = GoldenImageTests()
            for scene in GoldenImageTests.shadeScenes { try goldens.shade(scene: scene) }
            for scene in GoldenImageTests.frameScenes { try goldens.frame(scene: scene) }
        }
    }

    @Test(.enabled(if: KernelLevel.v2.isSupported, "this CPU does not run x86-64-v2 code"))
    func v2() throws { try Self.goldens(at: .v2) }

    @Test(.enabled(if: KernelLevel.v3.isSupported, "this CPU has no AVX2 (x86-64-v3)"))
    func v3() throws { try Self.goldens(at: .v3) }

    @Test(.enabled(if: KernelLevel.v4.isSupported, "this CPU has no AVX-512 (x86-64-v4)"))
    func v4() throws { try Self.goldens(at: .v4) }
}

import KiraShader
import Testing
@testable import KiraRender

/// The fast paths' byte-for-byte checks against the scalar references, run again at every x86-64
/// level: each level's kernels must write the same bytes. A level this CPU does not run shows as
/// skipped, with the reason.
@Suite struct KernelLevelTests {
    /// Every foil (8 and 16 bits, straight and premultiplied, glare, foil maps, masks of other
    /// sizes, tiny faces), the plain shade at every size, and the lane projection against the
    /// scalar one, with renderers of `level`.
    static func fastPathsAreTheReferences(at level: KernelLevel) throws {
        try KernelLevel.$scoped.withValue(level) {
            #expect(ShadeRenderer().kernelLevel == level)
            #expect(FrameRenderer().shader.kernelLevel == level)
            let foils = FoilFidelityTests()
            for foil in FoilFidelityTests.foils {
                try foils.fastPathIsTheReference(foil: foil)
                try foils.tinyFaces(foil: foil)
                try foils.sixteenBitsAndPremultipliedSweeps(foil: foil)
            }
            let plain = FastPathFidelityTests()
            for size in FastPathFidelityTests.sizes {
                for normal in FastPathFidelityTests.normals.indices { try plain.matchesReference(size: size, normalIndex: normal) }
            }
            try plain.oddSizeAndMaskOfAnotherSize()
            try plain.sixteenBitPathsMatchReference()
            try plain.premultipliedSweepMatchesReference()
            let projection = ProjectionLanesTests()
            for c in ProjectionLanesTests.cases { try projection.lanesMatchTheScalarProjection(c) }
            try projection.lanesMatchOnAWideCanvasAtAnyThreadCount()
            try projection.minifiedFacesMatchAtAnyThreadCountAndDepth()
        }
    }

    @Test(.enabled(if: KernelLevel.v2.isSupported, "this CPU does not run x86-64-v2 code"))
    func v2() throws { try Self.fastPathsAreTheReferences(at: .v2) }

    @Test(.enabled(if: KernelLevel.v3.isSupported, "this CPU has no AVX2 (x86-64-v3)"))
    func v3() throws { try Self.fastPathsAreTheReferences(at: .v3) }

    @Test(.enabled(if: KernelLevel.v4.isSupported, "this CPU has no AVX-512 (x86-64-v4)"))
    func v4() throws { try Self.fastPathsAreTheReferences(at: .v4) }

    /// The level renderers start with is the best this CPU runs unless KIRA_CPU names another.
    @Test func currentIsTheBestLevelThisCPURuns() {
        if KernelLevel.forced == nil {
            #expect(KernelLevel.current == KernelLevel.detected)
        }
        #expect(KernelLevel.current.isSupported)
        #expect(KernelLevel.v2.isSupported, "every x86-64 CPU that runs Kira's tests runs x86-64-v2")
    }
}

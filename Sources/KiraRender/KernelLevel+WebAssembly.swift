#if arch(wasm32)
import KiraKernels

/// The one level of WebAssembly: SIMD128, which every current browser runs. The kernels' source
/// is the same as the x86-64 levels', compiled once for it (scripts/build-web), and writes the
/// same bytes.
package enum KernelLevel: Sendable, CustomStringConvertible {
    case simd128

    package var description: String { "WebAssembly SIMD128" }

    /// The level renderers start with.
    package static let current = KernelLevel.simd128

    /// No other level to choose in a test.
    package static var scoped: KernelLevel? { nil }

    /// The shade kernel, for ``TileScheduler/run(tiles:context:_:)`` with a `ShadeTask`.
    var shadeTile: TileScheduler.TileFunction { { Kernels.shadeTile($0, $1, $2) } }

    /// The projection kernel, for ``TileScheduler/run(tiles:context:_:)`` with a `ProjectionFrame`.
    var projectTile: TileScheduler.TileFunction { { frame, tile, _ in Kernels.projectTile(frame, tile) } }
}
#endif

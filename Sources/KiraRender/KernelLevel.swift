// The levels of x86-64 (and the one baseline of other hosts); WebAssembly has its own file.
#if !arch(wasm32)
import CKiraCPU
import KiraKernelsV2
import KiraKernelsV3
import KiraKernelsV4

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The x86-64 level the pixel loops run at: the same source compiled for each (KiraKernelsV2,
/// V3, V4), one chosen once at start by what the CPU runs, or forced with `KIRA_CPU=v2|v3|v4`.
/// Every level writes the same bytes. On other architectures the three modules are the same
/// baseline code (arm64's NEON) and `v2` stands for it.
package enum KernelLevel: String, CaseIterable, Sendable, CustomStringConvertible {
    /// x86-64-v2: SSE4.2 and POPCNT (Nehalem, 2008, and later).
    case v2
    /// x86-64-v3: AVX2, FMA and BMI2 (Haswell, 2013; Zen).
    case v3
    /// x86-64-v4: AVX-512 F, BW, CD, DQ and VL (Skylake-SP, 2017; Zen 4).
    case v4

    /// Whether this CPU (with this operating system) runs this level's code.
    package var isSupported: Bool { kira_cpu_runs_level(Int32(number)) != 0 }

    /// The level as `kira --version` and `kira bench` name it.
    package var description: String {
        #if arch(x86_64)
        switch self {
        case .v2: "x86-64-v2 (SSE4.2)"
        case .v3: "x86-64-v3 (AVX2)"
        case .v4: "x86-64-v4 (AVX-512)"
        }
        #else
        "baseline SIMD of this architecture"
        #endif
    }

    private var number: Int {
        switch self {
        case .v2: 2
        case .v3: 3
        case .v4: 4
        }
    }

    /// The best level this CPU runs; nil on an x86-64 CPU older than x86-64-v2.
    package static let detected: KernelLevel? = allCases.last { $0.isSupported }

    /// `KIRA_CPU`, when set and not empty.
    package static let forced: String? = getenv("KIRA_CPU").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }

    /// The level `KIRA_CPU` asks for (else the best this CPU runs), or why there is none.
    package static let requested: Result<KernelLevel, KernelLevelProblem> = {
        guard let value = forced else {
            guard let detected else {
                return .failure(KernelLevelProblem(description: "this CPU lacks x86-64-v2 (SSE4.2, POPCNT), the least Kira's pixel code runs on"))
            }
            return .success(detected)
        }
        guard let level = KernelLevel(rawValue: value) else {
            return .failure(KernelLevelProblem(description: "KIRA_CPU must be v2, v3 or v4, not '\(value)'"))
        }
        guard level.isSupported else {
            let best = detected.map { "it runs up to \($0.rawValue)" } ?? "it runs none of them"
            return .failure(KernelLevelProblem(description: "KIRA_CPU=\(value): this CPU does not run \(level) code; \(best)"))
        }
        return .success(level)
    }()

    /// The level renderers start with: `KIRA_CPU`'s when this CPU runs it, else the best it runs.
    /// (The command line refuses a `KIRA_CPU` it cannot honour before any rendering.)
    package static let current: KernelLevel = (try? requested.get()) ?? detected ?? .v2

    /// The level that renderers made in this task start with instead of ``current``: how the
    /// tests run the same checks at every level this CPU runs.
    @TaskLocal package static var scoped: KernelLevel?

    /// The shade kernel of this level, for ``TileScheduler/run(tiles:context:_:)`` with a
    /// `ShadeTask`.
    var shadeTile: TileScheduler.TileFunction {
        switch self {
        case .v2: { KiraKernelsV2.Kernels.shadeTile($0, $1, $2) }
        case .v3: { KiraKernelsV3.Kernels.shadeTile($0, $1, $2) }
        case .v4: { KiraKernelsV4.Kernels.shadeTile($0, $1, $2) }
        }
    }

    /// The projection kernel of this level, for ``TileScheduler/run(tiles:context:_:)`` with a
    /// `ProjectionFrame`.
    var projectTile: TileScheduler.TileFunction {
        switch self {
        case .v2: { frame, tile, _ in KiraKernelsV2.Kernels.projectTile(frame, tile) }
        case .v3: { frame, tile, _ in KiraKernelsV3.Kernels.projectTile(frame, tile) }
        case .v4: { frame, tile, _ in KiraKernelsV4.Kernels.projectTile(frame, tile) }
        }
    }
}

/// Why the level `KIRA_CPU` asks for cannot be used: one line.
package struct KernelLevelProblem: Error, CustomStringConvertible {
    package let description: String
}
#endif

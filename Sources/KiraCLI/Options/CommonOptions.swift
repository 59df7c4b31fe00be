import ArgumentParser
import Kira
import KiraArguments

/// How many threads render.
struct ThreadOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Worker threads (default: one per processor).", valueName: "n"))
    var threads: Int?

    func validate() throws {
        if let threads { try Check.integer(threads, "--threads", in: 1...1024) }
    }

    var count: Int { threads ?? TileScheduler.processorCount }
}

/// The shader's variant, and the rotation convention that turns a tilt into its normal.
struct ShaderOptions: ParsableArguments {
    enum Preset: String, ExpressibleByArgument, CaseIterable {
        case seed, threejs
    }

    @Option(name: .customLong("shader"), help: ArgumentHelp(
        "Shader constants: seed (seed 003's Metal shader) or threejs (its GLSL ancestor: angle strength 20, no y flip).",
        valueName: "seed|threejs"))
    var preset: Preset = .seed

    @Option(name: .customLong("angle-strength"), parsing: .unconditional,
            help: ArgumentHelp("Hue cycles per radian of view angle, -1000...1000 (overrides --shader).", valueName: "k"))
    var angleStrength: Float?

    @Option(name: .customLong("y-flip"),
            help: ArgumentHelp("Noise y flip: seed-width (the seed's quirk), height, or none (overrides --shader).",
                               valueName: "seed-width|height|none"))
    var yFlip: YFlip?

    @Option(help: ArgumentHelp("Rotation matrices of normalFromTilt: seed (transposed, as seed 003) or standard.", valueName: "seed|standard"))
    var rotation: RotationArgument = .seed

    enum YFlip: String, ExpressibleByArgument, CaseIterable {
        case seedWidth = "seed-width", height, none
    }

    enum RotationArgument: String, ExpressibleByArgument, CaseIterable {
        case seed, standard
    }

    func validate() throws {
        if let angleStrength { try Check.number(angleStrength, "--angle-strength", in: -1000...1000) }
    }

    var parameters: KiraParameters {
        var parameters: KiraParameters = preset == .seed ? .seed : .threeJS
        if let angleStrength { parameters.angleStrength = angleStrength }
        switch yFlip {
        case .seedWidth: parameters.verticalFlip = .seedWidth
        case .height: parameters.verticalFlip = .height
        case .none?: parameters.verticalFlip = .none
        case nil: break
        }
        return parameters
    }

    var rotationConvention: Rotation.Convention { rotation == .seed ? .seed : .standard }
}

/// The memory budget (README, "Robustness"): work whose estimated peak is over it is refused
/// before it starts, with a message that says what would fit.
struct MemoryOptions: ParsableArguments {
    @Option(name: .customLong("max-memory"),
            help: ArgumentHelp("Refuse work estimated to need more memory than this (e.g. 512M, 2G, 8G).", valueName: "size"))
    var maxMemory = ByteCountArgument(bytes: MemoryBudget.standard.bytes)

    func validate() throws {
        guard maxMemory.bytes >= 16 << 20 else {
            throw ValidationError("--max-memory must be at least 16M, not \(Self.exactly(maxMemory.bytes))")
        }
    }

    /// `bytes` exactly, in the largest binary unit that divides it: "1 KiB", "16383 KiB",
    /// "1000 bytes". Not `MemoryBudget.describe`, which rounds up to whole MiB (right for an
    /// estimate) and so said "not 1 MiB" for 1K, or "not 16 MiB" for a value just under 16M.
    static func exactly(_ bytes: Int) -> String {
        if bytes != 0, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes != 0, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    var budget: MemoryBudget { MemoryBudget(bytes: maxMemory.bytes) }

    /// Refuses `estimate` bytes for `what` when over the budget; `hint` says how to need less.
    func check(_ estimate: Int, for what: String, hint: String) throws {
        guard budget.fits(estimate) else { throw overBudget(estimate, for: what, hint: hint) }
    }

    /// Refuses, from their headers and before any is decoded, input PNGs whose bytes and decoded
    /// images do not fit the budget together.
    func checkInputs(_ paths: [String]) throws {
        try check(PNGHeader.decodingBytes(paths), for: "reading \(paths.joined(separator: ", "))",
                  hint: "give smaller images")
    }

    func overBudget(_ estimate: Int, for what: String, hint: String) -> InputError {
        InputError("\(what) needs about \(MemoryBudget.describe(estimate)) of memory, over the budget of "
            + "\(MemoryBudget.describe(budget.bytes)): \(hint), or raise --max-memory")
    }
}

/// A byte count typed as `2G`, `512M`, `1.5g` or plain bytes.
struct ByteCountArgument: ExpressibleByArgument {
    var bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        guard let bytes = ArgumentValues.byteCount(argument) else { return nil }
        self.bytes = bytes
    }

    var defaultValueDescription: String { bytes % (1 << 30) == 0 ? "\(bytes >> 30)G" : "\(bytes >> 20)M" }
}

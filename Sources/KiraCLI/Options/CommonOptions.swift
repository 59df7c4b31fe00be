import ArgumentParser
import Kira
import KiraArguments
import KiraFiles

private typealias P = RenderParameters

/// How many threads render.
struct ThreadOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Worker threads (default: one per processor).", valueName: "n"))
    var threads: Int?

    func validate() throws {
        if let threads { try Check.integer(threads, "--threads", in: 1...1024, example: 4) }
    }

    var count: Int { threads ?? TileScheduler.processorCount }
}

/// The shader's variant, and the rotation convention that turns a tilt into its normal.
struct ShaderOptions: ParsableArguments {
    @Option(name: P.shader.long, help: P.shader.argumentHelp, completion: P.shader.completion) var shader: String?
    @Option(name: P.angleStrength.long, parsing: P.angleStrength.parsing, help: P.angleStrength.argumentHelp) var angleStrength: String?
    @Option(name: P.yFlip.long, help: P.yFlip.argumentHelp, completion: P.yFlip.completion) var yFlip: String?
    @Option(name: P.rotation.long, help: P.rotation.argumentHelp, completion: P.rotation.completion) var rotation: String?
    @Option(name: P.foil.long, help: P.foil.argumentHelp, completion: P.foil.completion) var foil: String?
    @Option(name: P.intensity.long, parsing: P.intensity.parsing, help: P.intensity.argumentHelp) var intensity: String?
    @Option(name: P.glare.long, parsing: P.glare.parsing, help: P.glare.argumentHelp) var glare: String?

    var values: [(String, String)] {
        given([(P.shader, shader), (P.angleStrength, angleStrength), (P.yFlip, yFlip), (P.rotation, rotation), (P.foil, foil),
               (P.intensity, intensity), (P.glare, glare)])
    }
}

/// The memory budget (docs/robustness.md): work whose estimated peak is over it is refused
/// before it starts, with a message that says what would fit.
struct MemoryOptions: ParsableArguments {
    @Option(name: .customLong("max-memory"),
            help: ArgumentHelp("Refuse work estimated to need more memory than this (e.g. 512M, 2G, 8G).", valueName: "size"))
    var maxMemory = ByteCountArgument(bytes: MemoryBudget.standard.bytes)

    func validate() throws {
        if let problem = budget.problem { throw ValidationError("--max-memory \(problem)") }
    }

    var budget: MemoryBudget { MemoryBudget(bytes: maxMemory.bytes) }
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

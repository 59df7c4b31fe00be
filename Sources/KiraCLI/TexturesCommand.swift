import ArgumentParser
import Kira
import KiraFiles
import KiraPNG
import KiraSamples

/// `kira textures`: draws the sample card that textures/ holds.
struct TexturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "textures",
        abstract: "Draw the sample card (front, back and their holo masks) as PNG files."
    )

    @Option(name: .customLong("output-dir"), help: ArgumentHelp("Directory to write into, created if missing (default: textures).", valueName: "dir"))
    var outputDirectory: String?

    @Option(help: ArgumentHelp("Card size.", valueName: "WxH"))
    var size: SizeArgument = SizeArgument(width: SampleCard.width, height: SampleCard.height)

    @OptionGroup var memory: MemoryOptions

    func run() throws {
        try memory.budget.check(SampleCard.estimatedPeakBytes(width: size.width, height: size.height),
                         for: "drawing \(size.width)×\(size.height) textures", hint: "give a smaller --size")
        let outputDirectory = self.outputDirectory ?? "textures"
        // As `animate --output-dir`: a given folder is created if missing (its parent must exist);
        // the default one with its parents.
        if self.outputDirectory == nil {
            try FileIO.makeDirectories(outputDirectory)
        } else {
            try FileIO.makeDirectory(outputDirectory)
        }
        guard FileIO.isDirectory(outputDirectory) else {
            throw InputError("\(QuotedValue.shown(outputDirectory)): no such directory")
        }
        let (w, h) = (size.width, size.height)
        try PNGCodec.write(SampleCard.front(width: w, height: h), to: "\(outputDirectory)/front.png")
        try PNGCodec.write(SampleCard.back(width: w, height: h), to: "\(outputDirectory)/back.png")
        // Masks are data, not colours: no sRGB chunk.
        var data = PNGCodec.EncodingOptions.standard
        data.marksSRGB = false
        try PNGCodec.write(SampleCard.mask(width: w, height: h), to: "\(outputDirectory)/mask.png", options: data)
        try PNGCodec.write(SampleCard.backMask(width: w, height: h), to: "\(outputDirectory)/back-mask.png", options: data)
    }
}


import ArgumentParser
import Dispatch
import Kira

/// The card's two faces, for the commands that draw the card on screen.
///
/// Without files the built-in sample card is used (drawn by `KiraSamples`, so every command works
/// from any directory). The sample's textures are never mixed into a user's card: a user's art
/// without a mask shines where it is opaque, and a user's front without a back gets a plain back
/// in its own mean colour (see ``LoadedCard``).
struct CardOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Front art (PNG; default: the built-in sample card).", valueName: "path"))
    var art: String?

    @Option(help: ArgumentHelp("Front holo mask (PNG, any size; white = full shine; default: the art's alpha).", valueName: "path"))
    var mask: String?

    @Option(help: ArgumentHelp("Back art (PNG; default: a plain back in the art's mean colour).", valueName: "path"))
    var back: String?

    @Option(name: .customLong("back-mask"), help: ArgumentHelp("Back holo mask (PNG; default: the back art's alpha).", valueName: "path"))
    var backMask: String?

    @Option(name: .customLong("foil-map"), help: ArgumentHelp(
        "Front height map for the etched foil (PNG, any size of the art's aspect ratio; default: the mask; the built-in card's art).", valueName: "path"))
    var foilMap: String?

    /// The input files the user named.
    var paths: [String] { [art, mask, back, backMask, foilMap].compactMap { $0 } }

    /// Reads the faces; failures name the file. The user's files are read before the sample card
    /// is drawn, so a bad file fails at once. `read` reads a file (`kira batch` passes its cache).
    func load(read: (String) throws -> AnyRGBAImage) throws -> LoadedCard {
        let artImage = try art.map { try read($0) }, maskImage = try mask.map { try read($0) }
        let backImage = try back.map { try read($0) }, backMaskImage = try backMask.map { try read($0) }
        let foilMapImage = try foilMap.map { try read($0) }
        var front = FaceInput.resolve(art: art.map { ($0, artImage!) }, mask: maskImage, maskOption: "--mask") { BuiltInCard.front }
        if let foilMapImage { front.face.foilMap = try FaceInput.checked(foilMap: foilMapImage, for: front.face.art) }
        if back == nil, art != nil {
            let plain = PlainBack(for: front.face.art)
            return LoadedCard(front: front, back: FaceInput(
                face: CardFace(art: .rgba8(plain.image), mask: backMaskImage ?? .rgba8(PlainBack.noShine)),
                assumption: "no --back: a plain back in the art's mean colour \(plain.hex)"))
        }
        let backFace = FaceInput.resolve(art: back.map { ($0, backImage!) }, mask: backMaskImage, maskOption: "--back-mask") {
            BuiltInCard.back
        }
        return LoadedCard(front: front, back: backFace)
    }
}

extension CardOptions {
    /// ``load(read:)`` from the files, decoded all at once: a 1260×1760 PNG takes about 50 ms to
    /// decode, and a card has up to four. Failures are reported as reading them one by one
    /// would: the first file, in the order art, mask, back, back mask, that fails.
    func load() throws -> LoadedCard {
        let files = Array(Set(paths))
        let decoded = Locked([String: Result<AnyRGBAImage, any Error>]())
        DispatchQueue.concurrentPerform(iterations: files.count) { i in
            let result = Result<AnyRGBAImage, any Error> { try PNGCodec.read(files[i]) }
            decoded.withLock { $0[files[i]] = result }
        }
        let images = decoded.withLock { $0 }
        return try load { path in try images[path]!.get() }
    }
}

/// One face as read, and what was assumed for it.
struct FaceInput {
    var face: CardFace
    /// What Kira chose for the user (nil when every file was given or the sample is used whole).
    var assumption: String?

    /// The face from the user's images; art without a mask shines where it is opaque, and without
    /// art the `sample` (drawn only then) gives the art, and the mask unless one was given.
    static func resolve(art: (path: String, image: AnyRGBAImage)?, mask: AnyRGBAImage?, maskOption: String,
                        sample: () -> CardFace) -> FaceInput {
        guard let art else {
            let sample = sample()
            return FaceInput(face: CardFace(art: sample.art, mask: mask ?? sample.mask, foilMap: sample.foilMap))
        }
        if let mask { return FaceInput(face: CardFace(art: art.image, mask: mask)) }
        return FaceInput(face: CardFace(art: art.image, mask: .rgba8(AlphaMask.of(art.image))),
                         assumption: "no \(maskOption): the shine covers \(art.path) where it is opaque (its alpha as the mask)")
    }
}

extension FaceInput {
    /// `foilMap`, refused (naming both sizes) when its aspect ratio is not the art's.
    static func checked(foilMap: AnyRGBAImage?, for art: AnyRGBAImage) throws -> AnyRGBAImage? {
        guard let foilMap else { return nil }
        let map = SIMD2(foilMap.width, foilMap.height), size = SIMD2(art.width, art.height)
        guard FoilMapShape.fits(map: map, art: size) else {
            throw InputError("--foil-map: " + RenderError.foilMapShape(map: map, art: size).description)
        }
        return foilMap
    }
}

/// Both faces, and the line that says what was assumed about them.
struct LoadedCard {
    var front: FaceInput
    var back: FaceInput

    /// Tells the user, in one line on stderr, what was assumed for the sides that show.
    func reportAssumptions(showing sides: Set<CardSide>, command: String) {
        let notes = [sides.contains(.front) ? front.assumption : nil, sides.contains(.back) ? back.assumption : nil]
            .compactMap { $0 }
        if !notes.isEmpty { writeToStandardError("kira \(command): \(notes.joined(separator: "; "))\n") }
    }
}

import KiraImage
import KiraPNG
import Testing
@testable import KiraSamples

@Suite struct SampleCardTests {
    @Test func imagesHaveTheRequestedSizeAndAreDeterministic() throws {
        for (w, h) in [(64, 90), (33, 47)] {
            for design in 0..<4 {
                func make(_ w: Int, _ h: Int) throws(ImageError) -> RGBAImage<UInt8> {
                    switch design {
                    case 0: try SampleCard.front(width: w, height: h)
                    case 1: try SampleCard.back(width: w, height: h)
                    case 2: try SampleCard.mask(width: w, height: h)
                    default: try SampleCard.backMask(width: w, height: h)
                    }
                }
                let image = try make(w, h)
                #expect(image.width == w && image.height == h)
                #expect(try make(w, h) == image)
            }
        }
    }

    /// The designs are drawn in bands of rows at once; the pixels must not depend on the bands.
    @Test func bandsDrawTheSamePixelsAsOneCanvas() {
        for (w, h) in [(630, 880), (64, 90), (9, 5)] {
            for design in [SampleCard.drawFront, SampleCard.drawBack] {
                let whole = Canvas.image(width: w, height: h, bands: 1) { design(&$0, CardLayout($0)) }
                for bands in [2, 3, 16, h] {
                    #expect(Canvas.image(width: w, height: h, bands: bands) { design(&$0, CardLayout($0)) } == whole,
                            "\(w)×\(h), \(bands) bands")
                }
            }
        }
    }

    @Test func masksAreOpaqueGrayWithShineAndShade() throws {
        for mask in [try SampleCard.mask(width: 64, height: 90), try SampleCard.backMask(width: 64, height: 90)] {
            var values = Set<UInt8>()
            for i in stride(from: 0, to: mask.channels.count, by: 4) {
                #expect(mask.channels[i] == mask.channels[i + 1] && mask.channels[i] == mask.channels[i + 2])
                #expect(mask.channels[i + 3] == 255)
                values.insert(mask.channels[i])
            }
            #expect(values.contains(0) && values.contains(255))
        }
    }

    @Test func cornersAreTransparentAndUnmasked() throws {
        let (w, h) = (64, 90)
        let front = try SampleCard.front(width: w, height: h), back = try SampleCard.back(width: w, height: h)
        let mask = try SampleCard.mask(width: w, height: h)
        for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
            #expect(front[x, y].w == 0 && back[x, y].w == 0 && mask[x, y].x == 0)
        }
    }

    @Test func backIsMirrorSymmetricExceptTheTopLeftMark() throws {
        let (w, h) = (101, 140)
        let back = try SampleCard.back(width: w, height: h)
        var asymmetricInLeftTop = 0, asymmetricElsewhere = 0
        for y in 0..<h {
            for x in 0..<(w / 2) where back[x, y] != back[w - 1 - x, y] {
                if x < w / 4 && y < h / 5 { asymmetricInLeftTop += 1 } else { asymmetricElsewhere += 1 }
            }
        }
        #expect(asymmetricInLeftTop > 0, "the orientation mark must break the symmetry")
        #expect(asymmetricElsewhere == 0)
    }
}

/// textures/ holds exactly what `kira textures` draws: the committed files and the built-in card
/// the commands use by default are the same card.
@Suite struct CommittedTexturesTests {
    @Test func committedTexturesAreTheSampleCard() throws {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        while let last = parts.last, last != "Tests" { parts.removeLast() }
        let root = parts.dropLast().joined(separator: "/")
        let drawn: [(String, RGBAImage<UInt8>)] = [
            ("front", try SampleCard.front()), ("back", try SampleCard.back()), ("mask", try SampleCard.mask()), ("back-mask", try SampleCard.backMask()),
        ]
        for (name, image) in drawn {
            #expect(try PNGCodec.read("\(root)/textures/\(name).png").rgba8 == image, "textures/\(name).png")
        }
    }
}

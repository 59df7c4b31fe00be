import KiraFiles
import Testing

/// A user's value in a message is whole up to a few hundred bytes, then elided with its length:
/// a 1 MiB value once gave a 1 MiB line on stderr.
@Suite struct QuotedValueTests {
    static let huge = String(repeating: "a", count: 1 << 20)

    @Test func aShortValueIsShownWhole() {
        #expect(QuotedValue.quoted("8x") == "\"8x\"")
        #expect(QuotedValue.quoted("kira", mark: "'") == "'kira'")
        #expect(QuotedValue.shown("out/a.png") == "out/a.png")
        // Control characters escaped as Swift writes them, so a line stays one line.
        #expect(QuotedValue.quoted("8\u{0}abc\n") == "8\u{0}abc\n".debugDescription)
        #expect(QuotedValue.shown("a\nb") == "a\\nb")
        let limit = String(repeating: "b", count: QuotedValue.limit)
        #expect(QuotedValue.quoted(limit) == "\"\(limit)\"")
    }

    @Test func aLongValueIsElidedWithItsLength() {
        let quoted = QuotedValue.quoted(Self.huge)
        #expect(quoted == "\"" + String(repeating: "a", count: QuotedValue.limit) + "…\" (1048576 bytes)")
        #expect(QuotedValue.shown(Self.huge) == String(repeating: "a", count: QuotedValue.limit) + "… (1048576 bytes)")
        // Escapes count: a value of NULs shows at most the limit's bytes of escapes.
        let nuls = QuotedValue.quoted(String(repeating: "\u{0}", count: 1 << 16))
        #expect(nuls.utf8.count < QuotedValue.limit + 40, "\(nuls.utf8.count) bytes")
        #expect(nuls.hasSuffix("…\" (65536 bytes)"))
    }

    /// A cut never splits a character's UTF-8 bytes.
    @Test(arguments: ["é", "€", "🃏", "e\u{301}"])
    func aCutKeepsWholeScalars(character: String) {
        let shown = QuotedValue.shown(String(repeating: character, count: 1000))
        let kept = String(shown.prefix { $0 != "…" })
        #expect(kept.utf8.count <= QuotedValue.limit)
        #expect(kept.unicodeScalars.allSatisfy { character.unicodeScalars.contains($0) })
    }

    @Test func argumentParsersQuotesAreElidedToo() {
        let message = "The value '\(Self.huge)' is invalid for '--threads <n>'"
        let shown = QuotedValue.elidingQuotedSpans(in: message)
        #expect(shown == "The value '" + String(repeating: "a", count: QuotedValue.limit) + "…' (1048576 bytes) is invalid for '--threads <n>'")
        for unchanged in ["Unknown option '--frob'", "the card's art", "a 'b' c 'd", ""] {
            #expect(QuotedValue.elidingQuotedSpans(in: unchanged) == unchanged)
        }
    }

    /// A path in a file's error: `path: reason`, the path elided.
    @Test func aFileErrorsPathIsElided() {
        let error = ImageFileError(path: Self.huge + ".png", reason: "no such file")
        #expect(error.description.utf8.count < 300, "\(error.description.utf8.count) bytes")
        #expect(error.description.hasSuffix("… (1048580 bytes): no such file"))
        #expect(ImageFileError(path: "a.png", reason: "no such file").description == "a.png: no such file")
    }
}

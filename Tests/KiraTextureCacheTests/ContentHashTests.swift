import KiraTextureCache
import Testing

@Suite struct ContentHashTests {
    @Test func sha256MatchesKnownVectors() {
        // FIPS 180-2 examples.
        #expect(ContentHash.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(ContentHash.sha256("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}

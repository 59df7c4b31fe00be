import KiraAnimation
import KiraRequest
import Testing

/// Presets and shader values are named for what they show; the older names, after the card views
/// Kira reproduces, stay accepted and mean the same, while requests spell every value by its new
/// name.
@Suite struct NameAliasTests {
    @Test(arguments: AnimationPreset.allCases)
    func aPresetIsTheSameByEitherName(preset: AnimationPreset) throws {
        let byName = try AnimationRequest(values: [("preset", preset.name)])
        let byAlias = try AnimationRequest(values: [("preset", preset.rawValue)])
        #expect(byName.preset == preset && byAlias.preset == preset)
        #expect(byAlias.values.first { $0.name == "preset" }?.value == preset.name)
    }

    @Test func presetNamesAreDistinctAndSaySomething() {
        let names = AnimationPreset.allCases.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { !$0.hasPrefix("seed") })
        #expect(Set(names).isDisjoint(with: AnimationPreset.aliases.map(\.0)))
    }

    @Test func theListedWordsAreTheNewNames() throws {
        let preset = try #require(AnimationRequest.parameter(named: "preset"))
        #expect(preset.kind == .choice(AnimationPreset.allCases.map(\.name)))
        #expect(RenderRequest.parameter(named: "shader")?.kind == .choice(["original", "threejs"]))
        #expect(RenderRequest.parameter(named: "y_flip")?.kind == .choice(["width", "height", "none"]))
    }

    @Test func oldShaderSpellingsMeanTheSame() throws {
        #expect(try RenderRequest(values: [("shader", "seed")]) == RenderRequest(values: [("shader", "original")]))
        let old = try RenderRequest(values: [("y_flip", "seed-width")])
        #expect(old == (try RenderRequest(values: [("y_flip", "width")])))
        #expect(old.values.map { "\($0.name)=\($0.value)" } == ["y_flip=width"])
    }

    @Test func anUnknownPresetListsOnlyTheNames() {
        #expect { try AnimationRequest(values: [("preset", "seed")]) } throws: { error in
            let text = (error as? RequestError)?.description ?? ""
            return text.contains("flip-spring") && !text.contains("seed002-flip")
        }
    }
}

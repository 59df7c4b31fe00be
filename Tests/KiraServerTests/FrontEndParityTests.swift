#if Server
import ArgumentParser
import Foundation
import KiraAnimation
@testable import KiraCatalogue
@testable import KiraCLI
import KiraFormats
import KiraGeometry
import KiraImage
import KiraRequest
@testable import KiraServer
import KiraServerAPI
import Testing

/// Hostile and edge-case requests through every front end that can express each: `kira render`'s
/// arguments (its option groups, parsed as the command parses them), a manifest row (JSON Lines,
/// through `kira batch`'s plan), a URL query (through the server's parse), and a live preview's
/// controls. The front ends that take a case reach the same decision: equal canonical values, or
/// equal `RequestError`s (parameter and reason, not text); the others refuse it.
@Suite struct FrontEndParityTests {
    enum FrontEnd: String, CaseIterable, CustomStringConvertible {
        case commandLine, manifest, url, live
        var description: String { rawValue }
    }

    /// What a front end made of a case.
    enum Decision: Equatable, CustomStringConvertible {
        /// Accepted, with the request's canonical values (the live preview adds its pose: none).
        case accepted([String])
        case refused(RequestError)
        /// Refused before any request was made (an unknown option, a manifest's NUL): the front
        /// end cannot express the case.
        case cannotExpress(String)

        var description: String {
            switch self {
            case .accepted(let values): "accepted \(values)"
            case .refused(let error): "refused (\(error.parameter ?? "-")) \(error.reason)"
            case .cannotExpress(let why): "cannot express: \(why)"
            }
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let values: [(String, String)]
        /// The output's format: the file's extension, the URL's route.
        let format: StillFormat
        let takers: Set<FrontEnd>
        /// The parameter the refusal names (`.some(nil)` for one about the request as a whole), or
        /// nil when accepted.
        let refusal: String??
        /// Front ends that take the case with a range of their own, and why.
        let byDesign: [FrontEnd: String]

        init(_ values: [(String, String)], _ format: StillFormat = .png, takers: Set<FrontEnd> = [.commandLine, .manifest, .url],
             refused: String?? = .none, byDesign: [FrontEnd: String] = [:]) {
            self.values = values
            self.format = format
            self.takers = takers
            self.refusal = refused
            self.byDesign = byDesign
        }

        var testDescription: String {
            values.map { "\($0.0)=\($0.1.debugDescription)" }.joined(separator: "&") + " (\(format.extensions[0]))"
        }
    }

    static let all: Set<FrontEnd> = [.commandLine, .manifest, .url]
    static let withLive: Set<FrontEnd> = [.commandLine, .manifest, .url, .live]
    /// A NUL cannot be in a program's arguments, and a manifest refuses any cell holding one.
    static let urlAndLive: Set<FrontEnd> = [.url, .live]

    static let cases: [Case] = [
        Case([("tilt_x", "8")]),
        Case([("tilt_x", "8.0"), ("tilt_y", "-14.50")]),
        Case([("tilt_x", "91")], refused: "tilt_x"),
        Case([("tilt_x", "nan")], refused: "tilt_x"),
        Case([("tilt_x", "-inf")], refused: "tilt_x"),
        Case([("tilt_x", "1e308")], refused: "tilt_x"),
        Case([("tilt_x", "8\u{0}abc")], takers: [.url], refused: "tilt_x"),
        Case([("flip", "8\u{0}abc")], takers: [.url], refused: "flip"),
        Case([("perspective", "0.5\u{0}9")], takers: [.url], refused: "perspective"),
        Case([("scale", "1\u{0}")], takers: [.url], refused: "scale"),
        Case([("angle_strength", "8\u{0}abc")], takers: urlAndLive, refused: "angle_strength"),
        Case([("intensity", "1\u{0}abc")], takers: urlAndLive, refused: "intensity"),
        Case([("glare", "0.5\u{0}")], takers: urlAndLive, refused: "glare"),
        Case([("flip", "721")], refused: "flip"),
        Case([("perspective", "-1")], refused: "perspective"),
        Case([("axis", "z")], refused: "axis"),
        Case([("axis", "xy"), ("flip", "180")]),
        Case([("size", "0x10")], refused: "size"),
        Case([("size", "16385x10")], refused: "size"),
        Case([("size", "10x")], refused: "size"),
        Case([("background", "#ggg000")], takers: withLive, refused: "background"),
        Case([("background", "#1B1F2A")], takers: withLive),
        Case([("scale", "5")], refused: "scale"),
        Case([("scale", "0.5"), ("fit", "true")], refused: .some(nil)),
        Case([("shader", "nope")], takers: withLive, refused: "shader"),
        Case([("foil", "nope")], takers: withLive, refused: "foil"),
        Case([("foil", "rainbow"), ("intensity", "1.5")], takers: withLive),
        Case([("intensity", "2.5")], takers: withLive, refused: "intensity"),
        Case([("glare", "-0.1")], takers: withLive, refused: "glare"),
        Case([("depth", "12")], refused: "depth"),
        Case([("depth", "16")], .jpeg, refused: "depth"),
        Case([("compression", "best")], refused: "compression"),
        Case([("compression", "fast")], .webp, refused: "compression"),
        Case([("quality", "80")], refused: "quality"),
        Case([("quality", "80")], .webp),
        Case([("quality", "0")], .jpeg, refused: "quality"),
        Case([("lossless", "true")], .jpeg, refused: "lossless"),
        Case([("quality", "80"), ("lossless", "true")], .webp, refused: .some(nil)),
        Case([("size", "64x64"), ("width", "65")], refused: "width"),
        Case([("size", "64x64"), ("height", "16384")], .webp, refused: "height"),
        Case([("width", "0")], refused: "width"),
        Case([("width", "65")], takers: withLive,
             byDesign: [.live: "the preview's width is the card's width on screen, 126...1260; a render's scales the image down"]),
    ]

    static let library = try! CardLibrary.load(directory: nil, textureBudget: 1 << 30)
    static var sample: CardLibrary.Card { library[CardLibrary.sampleID]! }

    /// The arguments `kira render` takes for the request (the option groups it declares).
    struct CommandLine: ParsableArguments {
        @OptionGroup var card: CardOptions
        @OptionGroup var pose: PoseOptions
        @OptionGroup var canvas: CanvasOptions
        @OptionGroup var shader: ShaderOptions
        @OptionGroup var output: OutputOptions<RenderCommand.RenderOutput>

        var values: [(String, String)] { card.values + pose.values + canvas.values + shader.values + output.format.values }
    }

    static func decide(_ front: FrontEnd, _ test: Case) -> Decision {
        do throws(RequestError) {
            let request: RenderRequest
            switch front {
            case .commandLine:
                var arguments = ["-o", "card." + test.format.extensions[0]]
                for (name, value) in test.values {
                    let entry = RenderRequest.parameter(named: name)!
                    // `--perspective=-1`: a value that starts with a dash is not read as an option.
                    arguments += entry.kind == .flag ? (value == "true" ? [entry.option] : [entry.option, value]) : [entry.option + "=" + value]
                }
                let parsed: CommandLine
                do { parsed = try CommandLine.parse(arguments) } catch { return .cannotExpress(CommandLine.message(for: error)) }
                request = try RenderRequest(values: parsed.values)
                _ = try request.prepare(sample.faces, format: try request.format(ofFile: parsed.output.path), budget: .standard)
            case .manifest:
                var object = ["output": "card." + test.format.extensions[0]]
                for (name, value) in test.values { object[name] = value }
                let line = String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
                let rows: [ManifestRow]
                do {
                    rows = try Manifest.parse(line, format: .jsonLines, name: "m.jsonl", columns: CataloguePlan.columns, required: "output")
                } catch { return .cannotExpress(error.description) }
                let manifest = Manifest(path: "m.jsonl", directory: ".", format: .jsonLines, rows: rows)
                let job = try CataloguePlan.job(for: rows[0], in: manifest, kiraVersion: "test", store: RecordStore(directory: ".kira-batch"))
                request = job.request
                _ = try request.prepare(sample.faces, format: job.format, budget: nil)
            case .url:
                let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
                let query = test.values.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }.joined(separator: "&")
                request = try RenderQuery(rawQuery: query).request
                _ = try request.prepare(sample.faces, format: test.format, budget: nil)
            case .live:
                var controls = LiveControls(), interaction = InteractiveCard()
                for (name, value) in test.values { try controls.set(name, to: value, cards: library, interaction: &interaction) }
                _ = try controls.request(pose: CardPose(), card: sample)
                return .accepted([])
            }
            return .accepted(request.values.map { "\($0.name)=\($0.value)" })
        } catch {
            return .refused(error)
        }
    }

    @Test(arguments: cases)
    func everyFrontEndDecidesAlike(test: Case) {
        let decisions = Dictionary(uniqueKeysWithValues: FrontEnd.allCases.map { ($0, Self.decide($0, test)) })
        let takers = test.takers.subtracting(test.byDesign.keys).sorted { $0.rawValue < $1.rawValue }
        // The front ends that take the case: one decision, the one expected.
        for front in takers {
            let decision = decisions[front]!
            switch (test.refusal, decision) {
            case (.none, .accepted): break
            case (.some(let parameter), .refused(let error)): #expect(error.parameter == parameter, "\(front): \(decision)")
            default: Issue.record("\(front): \(decision), expected \(test.refusal.map { "a refusal of \($0 ?? "the request")" } ?? "acceptance")")
            }
            if front != .live, let first = takers.first(where: { $0 != .live }) {
                #expect(decision == decisions[first]!, "\(front) against \(first)")
            } else if front == .live, case .refused = decision, let first = takers.first(where: { $0 != .live }) {
                #expect(decision == decisions[first]!, "live against \(first)")
            }
        }
        // Those that cannot express it refuse it.
        for front in Set(FrontEnd.allCases).subtracting(test.takers) {
            if case .accepted = decisions[front]! { Issue.record("\(front) accepted what it cannot express: \(test.testDescription)") }
        }
        // A range of its own: the front end refuses what the others decide otherwise, naming the parameter.
        for (front, why) in test.byDesign {
            guard case .refused(let error) = decisions[front]! else {
                Issue.record("\(front) was to refuse by design (\(why)): \(decisions[front]!)")
                continue
            }
            #expect(error.parameter == test.values.first?.0, "\(front): \(why)")
            #expect(decisions[front] != decisions[takers.first!], "\(front) decides as the others; the range is no longer its own: \(why)")
        }
    }

    /// Values spelled differently but equal are one request wherever they are given.
    @Test func canonicalValuesAgree() {
        let spellings = [[("tilt_x", "8"), ("tilt_y", "-14.5")], [("tilt_x", "8.0"), ("tilt_y", "-14.50")], [("tilt_x", " 8"), ("tilt_y", "-1.45e1")]]
        var seen = Set<String>()
        for values in spellings {
            for front in [FrontEnd.commandLine, .manifest, .url] {
                guard case .accepted(let canonical) = Self.decide(front, Case(values)) else {
                    Issue.record("\(front) refused \(values)")
                    continue
                }
                seen.insert(canonical.joined(separator: "&"))
            }
        }
        #expect(seen == ["tilt_x=8&tilt_y=-14.5"])
    }

    @Test func thereAreAboutFortyCasesAndEachFrontEndTakesSome() {
        #expect(Self.cases.count >= 40)
        for front in FrontEnd.allCases { #expect(Self.cases.contains { $0.takers.contains(front) }, "\(front)") }
    }
}
#endif

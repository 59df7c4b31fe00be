import Foundation
import KiraImage
import KiraRequest
import Testing

/// web/parameters.js is the library's parameter table for the values the browser's module takes
/// (names, kinds, ranges, defaults), so that kira.js checks and fills them as `kira render` does
/// and cannot fall behind the table. Re-write it with
/// `KIRA_RECORD_DOCS=1 swift test --filter WebParameterTableTests` and review the diff; a
/// recording run fails, so that only a run that compares can pass.
@Suite struct WebParameterTableTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("web/parameters.js")

    /// kira.render's values, as kira render's parameter names.
    static let render = ["tilt_x", "tilt_y", "flip", "axis", "perspective", "tilt_perspective", "crossfade", "size",
                         "background", "scale", "fit", "foil", "intensity", "glare"]
    /// kira.shade's: the tilts and the look as kira render takes them, and kira shade's `back`.
    static let shade = ["tilt_x", "tilt_y", "back_face", "foil", "intensity", "glare"]

    static func camel(_ name: String) -> String {
        let words = name.split(separator: "_")
        return words.first.map(String.init)! + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func entry<Root>(_ parameter: RequestParameter<Root>) -> String {
        let name = "name: \"\(parameter.name)\""
        let spelled = parameter.defaultValue
        switch parameter.kind {
        case .number:
            let range = parameter.range!
            return "{ \(name), kind: \"number\", min: \(number(range.lowerBound)), max: \(number(range.upperBound)), default: \(spelled ?? "null") }"
        case .flag:
            return "{ \(name), kind: \"flag\", default: \(spelled ?? "false") }"
        case .choice(let words):
            let list = words.map { "\"\($0)\"" }.joined(separator: ", ")
            return "{ \(name), kind: \"choice\", words: [\(list)], default: \(spelled.map { "\"\($0)\"" } ?? "null") }"
        case .text where parameter.name == "size":
            return "{ \(name), kind: \"size\", max: \(ImageLimits.standard.maxSide), default: \(spelled.flatMap { $0.isEmpty ? nil : "\"\($0)\"" } ?? "null") }"
        case .text where parameter.name == "background":
            return "{ \(name), kind: \"color\", default: \(spelled.map { "\"\($0)\"" } ?? "null") }"
        default:
            Issue.record("\(parameter.name): a kind the browser's module does not read")
            return "null"
        }
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    static var script: String {
        var rows: [String] = []
        var seen = Set<String>()
        for name in render + shade where seen.insert(name).inserted {
            // A value of kira.render as kira render takes it; kira.shade's own (`back`, the face) as kira shade does.
            if render.contains(name), let parameter = RenderRequest.parameters.first(where: { $0.name == name }) {
                rows.append("    \(camel(name)): \(entry(parameter)),")
            } else if let parameter = ShadeRequest.parameters.first(where: { $0.name == name }) {
                rows.append("    \(camel(name)): \(entry(parameter)),")
            } else {
                Issue.record("\(name) is in no table")
            }
        }
        return """
            // Written by WebParameterTableTests from the library's parameter table; do not edit by hand:
            //   KIRA_RECORD_DOCS=1 swift test --filter WebParameterTableTests
            // Each value kira.js takes, by its camel-case name: kira render's name for it, what it takes,
            // its range and its default (null: unset).
            export const parameters = {
            \(rows.joined(separator: "\n"))
            };

            /// The values kira.render takes, and kira.shade.
            export const renderNames = [\(render.map { "\"\(camel($0))\"" }.joined(separator: ", "))];
            export const shadeNames = [\(shade.map { "\"\(camel($0))\"" }.joined(separator: ", "))];

            """
    }

    @Test func theFileIsTheTable() throws {
        let text = Self.script
        if ProcessInfo.processInfo.environment["KIRA_RECORD_DOCS"] == "1" {
            try text.write(to: Self.file, atomically: true, encoding: .utf8)
            Issue.record("wrote web/parameters.js: review the diff, commit it, and run the tests again without KIRA_RECORD_DOCS")
            return
        }
        let committed = try String(contentsOf: Self.file, encoding: .utf8)
        #expect(committed == text, "web/parameters.js differs from the parameter table: KIRA_RECORD_DOCS=1 swift test --filter WebParameterTableTests")
    }
}

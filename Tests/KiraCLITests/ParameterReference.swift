import Foundation
import Kira
import KiraCatalogue
import KiraServerAPI

/// docs/parameters.md, written from the library's parameter table: every entry of the render,
/// shade and animation requests, with the front ends that take it (each command's options as
/// `kira --experimental-dump-help` lists them, a manifest's columns, a URL's parameters).
struct ParameterReference {
    /// A parameter and where it is taken, in the order of the first request that has it.
    struct Row {
        var name: String
        var option: String
        var kind: ParameterKind
        var valueName: String
        var range: ClosedRange<Double>?
        var defaultValue: String?
        var help: String
        var frontEnds: [String]
    }

    var rows: [Row] = []

    /// The table, with `options` the long option names of each `kira` subcommand.
    init(options: [String: Set<String>]) {
        add(RenderRequest.parameters, command: "render", options: options)
        add(ShadeRequest.parameters, command: "shade", options: options)
        add(AnimationRequest.parameters, command: "animate", options: options)
        for index in rows.indices {
            rows[index].frontEnds.sort { Self.order.firstIndex(of: $0)! < Self.order.firstIndex(of: $1)! }
        }
    }

    private static let order = ["`kira shade`", "`kira render`", "`kira animate`", "manifest", "URL"]

    /// The parameters of `command`'s request: an entry of the same name and kind as one already
    /// listed is the same parameter (`tilt_x`); another kind is another one (a flag beside
    /// a file).
    private mutating func add<Root>(_ parameters: [RequestParameter<Root>], command: String, options: [String: Set<String>]) {
        for parameter in parameters {
            let index = rows.firstIndex { $0.name == parameter.name && $0.kind == parameter.kind } ?? {
                rows.append(Row(name: parameter.name, option: parameter.option, kind: parameter.kind, valueName: parameter.valueName,
                                range: parameter.range, defaultValue: parameter.defaultValue,
                                help: parameter.help(naming: { "`\($0)`" }), frontEnds: []))
                return rows.count - 1
            }()
            if options[command]?.contains(String(parameter.option.dropFirst(2))) == true {
                rows[index].frontEnds.append("`kira \(command)`")
            }
            guard command == "render" else { continue }
            if CataloguePlan.columns.contains(parameter.name) { rows[index].frontEnds.append("manifest") }
            if RenderQuery.parameterNames.contains(parameter.name) { rows[index].frontEnds.append("URL") }
        }
    }

    /// The page.
    var markdown: String {
        var lines = [
            "# Parameters",
            "",
            "<!-- Written by ParameterReferenceTests from the library's parameter table; do not edit by hand:",
            "     KIRA_RECORD_DOCS=1 swift test --filter ParameterReferenceTests -->",
            "",
            "Every value a frame takes has one name and one entry in the library's table of parameters",
            "(`RenderRequest.parameters`, `ShadeRequest.parameters`, `AnimationRequest.parameters`), so the",
            "command line, a [`kira batch`](batch.md) manifest and a [`kira serve`](serve.md) URL parse it alike:",
            "the same range, the same default, the same message when it is wrong. The name `tilt_x` is",
            "",
            "- the option `--tilt-x` of `kira shade`, `kira render` and `kira animate` (a flag is given alone: `--fit`);",
            "- the column `tilt_x` of a manifest (an empty cell is the default; a flag is `true` or `false`);",
            "- the query parameter `tilt_x=8` of a render URL (files come from the server's card folders, not the URL).",
            "",
            "*Takes* is the value's form; a choice lists its words. *Default* is blank where the parameter is unset",
            "unless given (a file, or an override of another parameter). *In* lists the front ends that take it.",
            "Options that are not values of a frame (`--output`, `--threads`, `--max-memory`, a command's outputs)",
            "are in [the command's page](cli.md) and `kira help COMMAND`.",
            "",
            "| name | option | takes | range | default | in | what it does |",
            "|---|---|---|---|---|---|---|",
        ]
        for row in rows {
            let cells = ["`\(row.name)`", "`\(row.option)`", Self.takes(row), Self.range(row.range),
                         row.defaultValue.map { $0.isEmpty ? "" : "`\($0)`" } ?? "", row.frontEnds.joined(separator: ", "), row.help]
            lines.append("| " + cells.map(Self.cell).joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func takes(_ row: Row) -> String {
        switch row.kind {
        case .number: "number"
        case .integer: "whole number"
        case .flag: "flag"
        case .path: "file"
        case .choice(let words): words.map { "`\($0)`" }.joined(separator: " ")
        case .text: "`\(row.valueName)`"
        }
    }

    private static func range(_ range: ClosedRange<Double>?) -> String {
        guard let range else { return "" }
        func spelled(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
        }
        return "\(spelled(range.lowerBound))…\(spelled(range.upperBound))"
    }

    /// A table cell: a `|` would end it.
    private static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}

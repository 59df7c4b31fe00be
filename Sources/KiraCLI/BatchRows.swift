import ArgumentParser
import Kira
import KiraCatalogue

/// A manifest row as `kira render` options: each column is the render option of the same name
/// (`tilt_x` is `--tilt-x`), parsed and checked by ``RenderCommand`` itself, so that a row and
/// `kira render` with the same values cannot disagree about defaults, ranges or the frame made.
enum BatchRows {
    /// The column every row needs.
    static let output = "output"
    /// Texture columns: paths, taken from the manifest's folder.
    static let textures = ["art", "mask", "back", "back_mask", "foil_map"]
    /// Value columns: the render options that change the picture.
    static let values = ["tilt_x", "tilt_y", "flip", "axis", "perspective", "tilt_perspective", "size",
                         "background", "depth", "shader", "angle_strength", "y_flip", "rotation", "compression", "scale",
                         "foil", "intensity", "glare"]
    /// On/off columns: `true`/`false` (also `yes`/`no`, `1`/`0`).
    static let flags = ["crossfade", "fit"]

    static var columns: Set<String> { Set([output] + textures + values + flags) }

    /// The render option of a column.
    static func option(_ column: String) -> String {
        "--" + String(column.map { $0 == "_" ? "-" : $0 })
    }

    /// A row that cannot be rendered, and why (one line).
    struct RowError: Error, CustomStringConvertible {
        var description: String
    }

    /// `kira render`'s parse of each distinct set of row values, with its outcome.
    ///
    /// A parse rebuilds argument-parser's whole option table (about 0.7 ms), while a catalogue of
    /// thousands of rows repeats a few sets of values (a tilt or two per card); each set is parsed
    /// once. Paths are left out of the parse and set on the parsed command per row, after which
    /// the option groups that hold paths are validated again, as a parse would.
    final class Parses {
        private var byValues: [[String]: Result<RenderCommand, RowError>] = [:]
        /// Distinct value sets kept at most: memory stays bounded in a catalogue of all-different rows.
        static let limit = 4096

        fileprivate func parse(_ arguments: [String]) -> Result<RenderCommand, RowError> {
            if let known = byValues[arguments] { return known }
            let result: Result<RenderCommand, RowError>
            do {
                result = .success(try RenderCommand.parse(arguments))
            } catch {
                result = .failure(BatchRows.rowError(error))
            }
            if byValues.count < Self.limit { byValues[arguments] = result }
            return result
        }
    }

    /// The row's frame job: its values parsed by `kira render`'s own parser (once per distinct set
    /// of values, through `parses`), its paths taken from the manifest's folder.
    static func job(for row: ManifestRow, in manifest: Manifest, kiraVersion: String, parses: Parses) throws(RowError) -> FrameJob {
        guard let outputValue = row.values[output] else { throw RowError(description: "no output") }
        var arguments: [String] = []
        var recorded: [String] = []
        for column in values {
            guard let value = row.values[column] else { continue }
            arguments.append("\(option(column))=\(value)")
            recorded.append("\(column)=\(value)")
        }
        for column in flags {
            guard let value = row.values[column] else { continue }
            switch value.lowercased() {
            case "true", "yes", "1": arguments.append(option(column))
            case "false", "no", "0": break
            default: throw RowError(description: "\(column) must be true or false, not \"\(value)\"")
            }
            recorded.append("\(column)=\(value.lowercased())")
        }

        var render = try parses.parse(arguments).get()
        let path = { (column: String) in row.values[column].map { manifest.resolve($0) } }
        (render.card.art, render.card.mask, render.card.back, render.card.backMask, render.card.foilMap) =
            (path("art"), path("mask"), path("back"), path("back_mask"), path("foil_map"))
        render.output.output = manifest.resolve(outputValue)
        do {
            // What a parse checks of the path options (the value options were checked above).
            try render.card.validate()
            try render.output.validate()
        } catch {
            throw rowError(error)
        }
        do {
            try InputFiles.checkOutput(render.output.path, isNotOneOf: render.card.paths)
        } catch {
            throw RowError(description: String(describing: error))
        }
        let card = render.card
        return FrameJob(
            row: row.number, output: render.output.path,
            textures: CardTextures(art: card.art, mask: card.mask, back: card.back, backMask: card.backMask, foilMap: card.foilMap),
            depth: render.output.depth.depth, encoding: render.output.compression.options,
            record: OutputRecord(kira: kiraVersion, values: recorded.sorted(), textures: [:]),
            scene: { front, back in render.scene(front: front, back: back) })
    }

    /// argument-parser's message for a row, naming the column as the manifest does.
    private static func rowError(_ error: any Error) -> RowError {
        // One line, with the valid values argument-parser lists on the lines after it.
        let message = KiraCommand.oneLine(RenderCommand.message(for: error))
        // Longest options first: '--back' is the start of '--background' and '--back-mask'.
        let column = (textures + values + flags).sorted { option($0).count > option($1).count }
            .first { message.contains("'\(option($0))") || message.contains("\(option($0)) ") }
        return RowError(description: (column.map { "\($0): " } ?? "") + lowercasingFirst(message))
    }

    /// A card's faces as `kira render` makes them from the same files (absent ones: its defaults).
    static func faces(_ textures: CardTextures, read: (String) throws -> AnyRGBAImage) throws -> (front: CardFace, back: CardFace) {
        var card = try CardOptions.parse([])
        (card.art, card.mask, card.back, card.backMask, card.foilMap) =
            (textures.art, textures.mask, textures.back, textures.backMask, textures.foilMap)
        let loaded = try card.load(read: read)
        return (loaded.front.face, loaded.back.face)
    }

    /// The record a job's output must have to count as up to date: the job's values with the
    /// content hashes of its textures as they are now.
    static func expectedRecord(for job: FrameJob, cache: TextureCache) throws -> OutputRecord {
        var record = job.record
        for (role, path) in job.textures.byRole { record.textures[role] = try cache.hash(of: path) }
        return record
    }

    private static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first, first.isUppercase, !(text.dropFirst().first?.isUppercase ?? false) else { return text }
        return first.lowercased() + text.dropFirst()
    }
}

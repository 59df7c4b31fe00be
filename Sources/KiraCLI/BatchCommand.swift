import ArgumentParser
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Kira
import KiraFiles
import KiraCatalogue
import KiraTextureCache

/// `kira batch`: a whole card catalogue from a manifest, one shard of it per process.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render a card catalogue: one frame per manifest row, resumable, sharded across processes or machines.",
        discussion: """
            The manifest is CSV with a header (.csv) or JSON Lines (.jsonl), at most 64 MiB. Columns: output (required), \
            \(RenderRequest.parameters.map(\.name).joined(separator: ", ")): each is the kira render option of the \
            same name, with its default when absent or empty (docs/parameters.md); paths are taken from the manifest's folder. \
            Each output is byte-identical to kira render with the same values. \
            Outputs that are up to date are skipped: a record of each output (the hashes of its textures and \
            bytes, the row's values and Kira's version) is kept in the state folder, .MANIFEST.kira-state beside \
            the manifest unless --state names another; records .NAME.kira-batch beside outputs, from earlier \
            versions, are still read. \
            --shard K/N takes the K-th of N contiguous blocks of rows (K from 0, N up to 1000000). \
            Exit status: 0 all rows done or up to date, 1 some rows failed (each is named), 2 the manifest \
            cannot be used (nothing is rendered).
            """
    )

    @Argument(help: ArgumentHelp("The catalogue: a .csv file with a header, or .jsonl; - or a pipe (<(generate), with --state) is read as either.", valueName: "manifest"))
    var manifest: String

    // `.unconditional`: `--shard -1/2` is a (bad) value to explain, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp("Render only block K of N (K = 0…N-1), e.g. \"$JOB_COMPLETION_INDEX/16\".", valueName: "K/N"))
    var shard = "0/1"

    @Option(help: ArgumentHelp("The folder for the records of the outputs (default: .MANIFEST.kira-state beside the manifest; required when the manifest's folder is not writable).", valueName: "dir"))
    var state: String?

    @OptionGroup var threads: ThreadOptions

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    @Flag(help: "No progress bar.")
    var quiet = false

    /// The block of rows to render.
    var block: Shard {
        get throws {
            do {
                return try Shard(parsing: shard)
            } catch {
                throw ValidationError(error.commandLine)
            }
        }
    }

    func validate() throws { _ = try block }

    func run() throws {
        let start = DispatchTime.now().uptimeNanoseconds
        let shard = try block
        let catalogue: Manifest
        do {
            catalogue = try Manifest.read(manifest, columns: CataloguePlan.columns, required: CataloguePlan.outputColumn)
        } catch {
            throw InputError(error.description)
        }
        if let (row, first) = catalogue.duplicateOutputs(column: CataloguePlan.outputColumn).first {
            throw InputError("\(QuotedValue.shown(manifest)): rows \(first) and \(row.number) both write \(QuotedValue.shown(row.values[CataloguePlan.outputColumn] ?? ""))")
        }

        // Standard input or a pipe has no folder of its own to keep the records beside.
        if catalogue.isUnnamedStream, state == nil {
            throw InputError("\(QuotedValue.shown(FileIO.displayName(manifest))): a manifest read from a stream keeps its records where --state DIR says: give one")
        }
        let store = RecordStore(directory: state ?? RecordStore.defaultDirectory(forManifest: manifest))
        do {
            try store.prepare()
        } catch {
            throw InputError(state == nil
                ? "\(error.description); the records need a folder that can be written: give one with --state DIR"
                : error.description)
        }

        let rows = catalogue.rows[shard.rows(ofTotal: catalogue.rows.count)]
        var summary = BatchSummary(manifest: manifest, shard: shard.description, rows: rows.count)
        var progress = ProgressBar(total: rows.count, label: "batch \(shard)", quiet: quiet)
        func fail(_ row: Int, _ output: String?, _ reason: String) {
            summary.failures.append(.init(row: row, output: output, reason: reason))
            if progress.enabled { writeToStandardError("\r\u{1B}[2K") }
            writeToStandardError("kira batch: row \(row)\(output.map { " (\(QuotedValue.shown($0)))" } ?? ""): \(reason)\n")
        }

        let cache = TextureCache()
        let plan = CataloguePlan(rows, of: catalogue, kiraVersion: BuildInfo.version, store: store, cache: cache)
        for failure in plan.failures { fail(failure.row, failure.output, failure.reason) }
        summary.skipped = plan.skipped
        let jobs = plan.jobs
        let flattened = jobs.filter { $0.request.outputNote(for: $0.format) != nil }
        if let first = flattened.first, let note = first.request.outputNote(for: first.format) {
            let rows = flattened.count == 1 ? "row \(first.row)" : "\(flattened.count) rows (row \(first.row) first)"
            writeToStandardError("kira batch: \(rows): \(RequestError.spelling(note) { $0 })\n")
        }
        var done = rows.count - jobs.count
        progress.update(done)

        let renderer = CatalogueRenderer(threads: threads.count, cache: cache, inputs: [manifest])
        summary.cards = renderer.render(jobs) { index, outcome in
            switch outcome {
            case .rendered: summary.rendered += 1
            case .failed(let reason): fail(jobs[index].row, jobs[index].output, reason)
            }
            done += 1
            progress.update(done)
        }
        progress.finish()
        summary.failures.sort { $0.row < $1.row }
        summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9

        // A summary that cannot be written (a full disk) is an error, as for compare's report.
        if json {
            try writeToStandardOutput(summary.json + "\n")
        } else {
            try writeToStandardOutput("""
                kira batch: \(summary.rows) \(summary.rows == 1 ? "row" : "rows") (shard \(summary.shard)): \(summary.rendered) rendered, \
                \(summary.skipped) up to date, \(summary.failed) failed; \(format2(summary.seconds)) s, \
                \(format2(summary.cardsPerSecond)) cards/s, \(format2(summary.framesPerSecond)) frames/s

                """)
        }
        if summary.failed > 0 { throw ExitCode(1) }
    }
}

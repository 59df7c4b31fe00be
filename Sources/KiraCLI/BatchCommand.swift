import ArgumentParser
import Dispatch
import Foundation
import Kira
import KiraCatalogue

/// `kira batch`: a whole card catalogue from a manifest, one shard of it per process.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render a card catalogue: one frame per manifest row, resumable, sharded across processes or machines.",
        discussion: """
            The manifest is CSV with a header (.csv) or JSON Lines (.jsonl). Columns: output (required), \
            art, mask, back, back_mask, tilt_x, tilt_y, flip, axis, perspective, tilt_perspective, crossfade, \
            size, background, scale, fit, depth, shader, angle_strength, y_flip, rotation, compression: each is the kira render option of the \
            same name, with its default when absent or empty; paths are taken from the manifest's folder. \
            Each output is byte-identical to kira render with the same values. \
            Outputs that are up to date (a record .NAME.kira-batch beside each output holds the hashes of \
            its textures, the row's values and Kira's version) are skipped. \
            --shard K/N takes the K-th of N contiguous blocks of rows (K from 0). \
            Exit status: 0 all rows done or up to date, 1 some rows failed (each is named), 2 the manifest \
            cannot be used (nothing is rendered).
            """
    )

    @Argument(help: ArgumentHelp("The catalogue: a .csv file with a header, or .jsonl.", valueName: "manifest"))
    var manifest: String

    // `.unconditional`: `--shard -1/2` is a (bad) value to explain, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp("Render only block K of N (K = 0…N-1), e.g. \"$JOB_COMPLETION_INDEX/16\".", valueName: "K/N"))
    var shard: ShardArgument = ShardArgument(value: .whole)

    @OptionGroup var threads: ThreadOptions

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    @Flag(help: "No progress bar.")
    var quiet = false

    /// `K/N` as typed: two integers, checked against each other in ``validate()`` so that the
    /// message can say what is wrong with them.
    struct ShardArgument: ExpressibleByArgument {
        var index: Int
        var count: Int
        init(value: Shard) { (index, count) = (value.index, value.count) }
        init?(argument: String) {
            let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2,
                  let index = Int(parts[0].trimmingCharacters(in: .whitespaces)),
                  let count = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
            (self.index, self.count) = (index, count)
        }
        /// The shard; ``validate()`` has checked K and N before any use.
        var value: Shard { Shard(index: index, count: count)! }
        var defaultValueDescription: String { "0/1" }
    }

    func validate() throws {
        guard (1...Shard.maxCount).contains(shard.count) else {
            throw ValidationError("--shard \(shard.index)/\(shard.count): N must be 1…\(Shard.maxCount)")
        }
        guard (0..<shard.count).contains(shard.index) else {
            throw ValidationError("--shard \(shard.index)/\(shard.count): K must be 0…\(shard.count - 1) (K counts from 0)")
        }
    }

    func run() throws {
        let start = DispatchTime.now().uptimeNanoseconds
        let catalogue: Manifest
        do {
            catalogue = try Manifest.read(manifest, columns: BatchRows.columns, required: BatchRows.output)
        } catch {
            throw InputError(error.description)
        }
        if let (row, first) = catalogue.duplicateOutputs(column: BatchRows.output).first {
            throw InputError("\(manifest): rows \(first) and \(row.number) both write \(row.values[BatchRows.output] ?? "")")
        }

        let rows = catalogue.rows[shard.value.rows(ofTotal: catalogue.rows.count)]
        var summary = BatchSummary(manifest: manifest, shard: shard.value.description, rows: rows.count)
        var progress = ProgressBar(total: rows.count, label: "batch \(shard.value)", quiet: quiet)
        var done = 0
        func fail(_ row: Int, _ output: String?, _ reason: String) {
            summary.failures.append(.init(row: row, output: output, reason: reason))
            if progress.enabled { writeToStandardError("\r\u{1B}[2K") }
            writeToStandardError("kira batch: row \(row)\(output.map { " (\($0))" } ?? ""): \(reason)\n")
        }

        // Every row's values and textures are checked, and the up-to-date rows set aside, before
        // anything renders.
        let inputs = BatchInputFiles(catalogue, path: manifest)
        let cache = TextureCache()
        let parses = BatchRows.Parses()
        var jobs: [FrameJob] = []
        for row in rows {
            let job: FrameJob
            do {
                job = try BatchRows.job(for: row, in: catalogue, kiraVersion: BuildInfo.version, parses: parses)
            } catch {
                fail(row.number, row.values[BatchRows.output], error.description)
                done += 1
                continue
            }
            if let input = inputs.overwritten(by: job.output) {
                fail(row.number, job.output, "the output would overwrite \(input)")
                done += 1
                continue
            }
            do {
                if try BatchRows.expectedRecord(for: job, cache: cache).isUpToDate(output: job.output) {
                    summary.skipped += 1
                    done += 1
                    continue
                }
            } catch {
                fail(row.number, job.output, String(describing: error))
                done += 1
                continue
            }
            jobs.append(job)
        }
        progress.update(done)

        let renderer = CatalogueRenderer(threads: threads.count, cache: cache, inputs: [manifest], loadFaces: BatchRows.faces)
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

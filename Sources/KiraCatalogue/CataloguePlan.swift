import KiraFiles
import KiraImage
import KiraRequest
import KiraTextureCache

/// What a run of a catalogue does: the frames to render, the rows that cannot be rendered (and
/// why), and the rows whose outputs are up to date.
///
/// A row's columns are ``RenderRequest``'s parameters, parsed by the same entries as `kira
/// render`'s options, so a row and `kira render` with the same values make the same file; paths
/// are taken from the manifest's folder. Every row is checked, and the up-to-date ones set aside,
/// before anything renders.
public struct CataloguePlan {
    /// A row that cannot be rendered.
    public struct Failure: Sendable, Equatable {
        public var row: Int
        public var output: String?
        public var reason: String
    }

    public private(set) var jobs: [FrameJob] = []
    public private(set) var failures: [Failure] = []
    /// Rows whose outputs are up to date.
    public private(set) var skipped = 0

    /// The column every row needs: the file it writes.
    public static let outputColumn = "output"
    /// The columns that name files.
    public static var textureColumns: [String] {
        RenderRequest.parameters.filter { $0.kind == .path }.map(\.name)
    }
    /// Every column a manifest may have.
    public static var columns: Set<String> { Set([outputColumn] + RenderRequest.parameters.map(\.name)) }

    /// Plans `rows` of `manifest`: each parsed, checked against the catalogue's textures, and
    /// compared with its record in `store` (hashing textures through `cache`).
    public init(_ rows: some Sequence<ManifestRow>, of manifest: Manifest, kiraVersion: String, store: RecordStore, cache: TextureCache) {
        let inputs = BatchInputFiles(manifest)
        for row in rows {
            let job: FrameJob
            do throws(RequestError) {
                job = try Self.job(for: row, in: manifest, kiraVersion: kiraVersion, store: store)
            } catch {
                failures.append(Failure(row: row.number, output: row.values[Self.outputColumn], reason: error.description))
                continue
            }
            if let input = inputs.overwritten(by: job.output) {
                failures.append(Failure(row: row.number, output: job.output, reason: "the output would overwrite \(input)"))
                continue
            }
            do {
                if let stored = RecordStore.read(at: job.recordPath, output: job.output),
                   try Self.expectedRecord(for: job, cache: cache).isUpToDate(output: job.output, stored: stored) {
                    skipped += 1
                    continue
                }
            } catch {
                failures.append(Failure(row: row.number, output: job.output, reason: String(describing: error)))
                continue
            }
            jobs.append(job)
        }
    }

    /// The row's frame job: its values parsed by ``RenderRequest``'s parameters, its paths taken
    /// from the manifest's folder, its record kept in `store`.
    public static func job(for row: ManifestRow, in manifest: Manifest, kiraVersion: String, store: RecordStore)
        throws(RequestError) -> FrameJob
    {
        guard let outputValue = row.values[outputColumn] else { throw RequestError(parameter: nil, reason: "no output") }
        var request = RenderRequest()
        // In the table's order, so that the first bad value is the same whatever the columns' order.
        for parameter in RenderRequest.parameters {
            guard let value = row.values[parameter.name] else { continue }
            try parameter.set(parameter.kind == .path ? manifest.resolve(value) : value, in: &request)
        }
        try request.validate()
        // The canonical values, as ETags and signatures have them (`8` for `8.0`, a default given
        // or not alike); paths are left out: textures count by their content.
        let paths = Set(textureColumns)
        let recorded = request.values.filter { !paths.contains($0.name) }.map { "\($0.name)=\($0.value)" }
        let format = try request.format(ofFile: outputValue, parameter: outputColumn)
        let output = manifest.resolve(outputValue)
        do {
            try FileIO.checkDistinct(inputs: request.card.paths, outputs: [output])
        } catch {
            throw RequestError(parameter: nil, reason: error.description)
        }
        let key = RecordStore.key(outputValue)
        return FrameJob(row: row.number, output: output, format: format, request: request,
                        record: OutputRecord(kira: kiraVersion, values: recorded.sorted(), textures: [:], path: key),
                        recordPath: store.path(forKey: key))
    }

    /// The record a job's output must have to count as up to date: the job's values with the
    /// content hashes of its textures as they are now.
    public static func expectedRecord(for job: FrameJob, cache: TextureCache) throws -> OutputRecord {
        var record = job.record
        for (role, path) in job.request.card.byRole { record.textures[role] = try cache.hash(of: path) }
        return record
    }
}

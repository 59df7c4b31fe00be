import CSV
import Foundation
import KiraFiles
import KiraImage

/// One row of a catalogue manifest: the values it sets, by column name.
public struct ManifestRow: Sendable, Equatable {
    /// The row's place in the manifest, from 1: the N-th record after a CSV's header, or the N-th
    /// non-blank line of JSON Lines. Messages name rows by it; shards are cut by it.
    public var number: Int
    /// Column → value, as written. Empty cells and JSON `null` are left out: the column takes
    /// its default.
    public var values: [String: String]

    public init(number: Int, values: [String: String]) {
        self.number = number
        self.values = values
    }
}

/// A catalogue: one row per output frame, read from CSV with a header (RFC 4180) or from JSON
/// Lines (one object per line), chosen by the file's extension, `.csv` or `.jsonl`.
///
/// Reading checks the file as a whole (text, header, known columns, the same number of fields in
/// every CSV record); the values themselves are checked row by row by whoever renders them, so
/// that one bad row fails alone.
public struct Manifest: Sendable {
    public enum Format: Sendable { case csv, jsonLines }

    /// The manifest file as given.
    public var path: String
    /// Its folder: relative paths in the rows are taken from here.
    public var directory: String
    public var format: Format
    public var rows: [ManifestRow]

    /// Whether the manifest came from standard input or a stream without a manifest's name
    /// (`/dev/fd/63`): it has no folder of its own to keep records beside.
    public var isUnnamedStream: Bool { Self.format(ofPath: path) == nil }

    /// The most a manifest may hold (64 MiB: about half a million rows). A larger file is refused
    /// before it is read; a stream (a pipe, `<(generate)`, a link to `/dev/zero`) is read up to
    /// this and no further.
    public static let maxSize = 64 << 20

    /// Reads and checks the manifest at `path`. `columns` are the column names allowed; `required`
    /// must be among them and set in the header (CSV) or in some row (JSON Lines).
    ///
    /// The format is the name's: `.csv` or `.jsonl`. Standard input (`-`) or a stream named
    /// otherwise (`kira batch <(generate)` reads `/dev/fd/63`), which cannot be renamed, is JSON
    /// Lines when its first character other than white space is `{`, else CSV; its paths are taken
    /// from the current folder (``isUnnamedStream``).
    public static func read(_ path: String, columns: Set<String>, required: String) throws(ManifestError) -> Manifest {
        let named = format(ofPath: path)
        guard named != nil || path == FileIO.standardStream || FileIO.isStream(path) else {
            throw ManifestError(path: path, reason: "not a manifest: the name must end in .csv or .jsonl")
        }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, limit: maxSize, limitName: "the most a manifest may hold (about half a million rows): split it")
        } catch {
            throw ManifestError(path: FileIO.displayName(path), reason: error.reason)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ManifestError(path: FileIO.displayName(path), reason: "not UTF-8 text")
        }
        let format = named ?? (text.first { !$0.isWhitespace && $0 != "\u{FEFF}" } == "{" ? .jsonLines : .csv)
        let rows = try parse(text, format: format, name: FileIO.displayName(path), columns: columns, required: required)
        return Manifest(path: path, directory: named == nil ? "." : FileIO.parentDirectory(of: path), format: format, rows: rows)
    }

    public static func format(ofPath path: String) -> Format? {
        let lower = path.lowercased()
        if lower.hasSuffix(".csv") { return .csv }
        if lower.hasSuffix(".jsonl") { return .jsonLines }
        return nil
    }

    /// Parses manifest text; `name` is used in messages.
    public static func parse(_ text: String, format: Format, name: String, columns: Set<String>, required: String)
        throws(ManifestError) -> [ManifestRow]
    {
        // A byte-order mark is not part of the first column's name.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let rows: [ManifestRow]
        switch format {
        case .csv: rows = try CSVManifest.rows(text, name: name, columns: columns, required: required)
        case .jsonLines: rows = try JSONLinesManifest.rows(text, name: name, columns: columns)
        }
        if format == .jsonLines, !rows.isEmpty, !rows.contains(where: { $0.values[required] != nil }) {
            throw ManifestError(path: name, reason: "no \"\(required)\" field in any row")
        }
        for row in rows {
            // A file name ends at a NUL: "a\0.png" would be written as "a", past the checks.
            if let (column, _) = row.values.sorted(by: { $0.key < $1.key }).first(where: { $0.value.contains("\u{0}") }) {
                throw ManifestError(path: name, reason: "row \(row.number): \(column) holds a NUL character")
            }
            // `-` is standard output for `kira render`; a catalogue's outputs are files (and its
            // summary may be on standard output).
            if row.values[required] == "-" {
                throw ManifestError(path: name, reason: "row \(row.number): \(required) '-' (standard output) is not a file; a catalogue writes files")
            }
        }
        return rows
    }

    /// `value` (a path from a row) as a path from the current directory: absolute paths are kept,
    /// relative ones are taken from the manifest's folder.
    public func resolve(_ value: String) -> String {
        if value.hasPrefix("/") || directory == "." { return value }
        return directory + "/" + value
    }

    /// The rows that name the same output file as an earlier row, each with the number of the
    /// earlier row. Paths are compared as the system tells files apart (``OutputPlace``: device
    /// and inode, through links), not as text.
    public func duplicateOutputs(column: String) -> [(row: ManifestRow, first: Int)] {
        var seen: [OutputPlace: Int] = [:]
        var folders: [String: OutputPlace] = [:]
        var duplicates: [(ManifestRow, Int)] = []
        for row in rows {
            guard let output = row.values[column] else { continue }
            let key = OutputPlace(resolve(output), folders: &folders)
            if let first = seen[key] { duplicates.append((row, first)) } else { seen[key] = row.number }
        }
        return duplicates
    }

    /// `path` without `.` segments, repeated slashes, or `dir/..` pairs, relative to the current
    /// directory made absolute (so `out/a.png` and `./out//a.png` are one file).
    static func normalised(_ path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            absolute = FileManager.default.currentDirectoryPath + "/" + path
        }
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}

/// CSV with a header row, through yaslab/CSV.swift (quoted fields, `""` escapes, line breaks in
/// quotes, CRLF). What that reader accepts silently but RFC 4180 does not allow is refused here:
/// an odd number of quotes (a quoted field never closed) and records with more or fewer fields
/// than the header.
enum CSVManifest {
    static func rows(_ text: String, name: String, columns: Set<String>, required: String) throws(ManifestError) -> [ManifestRow] {
        guard !text.unicodeScalars.allSatisfy({ $0 == "\n" || $0 == "\r" || $0 == " " }) else {
            throw ManifestError(path: name, reason: "empty: no header row")
        }
        if text.utf8.lazy.filter({ $0 == UInt8(ascii: "\"") }).count % 2 != 0 {
            throw ManifestError(path: name, reason: "not CSV: a quoted field is never closed")
        }
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true)
        } catch {
            throw ManifestError(path: name, reason: "not CSV: no header row")
        }
        let header = (reader.headerRow ?? []).map { $0.trimmingCharacters(in: .whitespaces) }
        try checkHeader(header, name: name, columns: columns, required: required)

        var rows: [ManifestRow] = []
        while let fields = reader.next() {
            if fields.count == 1, fields[0].isEmpty { continue }  // a blank line
            let number = rows.count + 1
            guard fields.count == header.count else {
                throw ManifestError(
                    path: name, reason: "row \(number) has \(fields.count) fields, the header \(header.count)")
            }
            var values: [String: String] = [:]
            for (column, value) in zip(header, fields) where !value.isEmpty { values[column] = value }
            rows.append(ManifestRow(number: number, values: values))
        }
        return rows
    }

    private static func checkHeader(_ header: [String], name: String, columns: Set<String>, required: String) throws(ManifestError) {
        var seen: Set<String> = []
        for column in header {
            guard columns.contains(column) else {
                let shown = column.isEmpty ? "an empty column name" : "unknown column \(QuotedValue.quoted(column))"
                throw ManifestError(path: name, reason: "\(shown) in the header (columns: \(columns.sorted().joined(separator: ", ")))")
            }
            guard seen.insert(column).inserted else {
                throw ManifestError(path: name, reason: "column \(QuotedValue.quoted(column)) appears twice in the header")
            }
        }
        guard seen.contains(required) else {
            throw ManifestError(path: name, reason: "no \"\(required)\" column in the header")
        }
    }
}

/// JSON Lines: one object per line, through Foundation's JSON decoder. Strings are taken as
/// written, numbers in their shortest form, booleans as `true`/`false`, `null` as absent.
enum JSONLinesManifest {
    private enum Value: Decodable {
        case text(String), absent, unsupported

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .absent }
            else if let value = try? container.decode(Bool.self) { self = .text(value ? "true" : "false") }
            else if let value = try? container.decode(Int.self) { self = .text(String(value)) }
            else if let value = try? container.decode(Double.self) { self = .text(value.description) }
            else if let value = try? container.decode(String.self) { self = .text(value) }
            else { self = .unsupported }
        }
    }

    static func rows(_ text: String, name: String, columns: Set<String>) throws(ManifestError) -> [ManifestRow] {
        var rows: [ManifestRow] = []
        let decoder = JSONDecoder()
        // "\r\n" is one Character in Swift: both end a line.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, line) in lines.enumerated() {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let object: [String: Value]
            do {
                object = try decoder.decode([String: Value].self, from: Data(line.utf8))
            } catch {
                throw ManifestError(path: name, reason: "line \(index + 1) is not a JSON object")
            }
            var values: [String: String] = [:]
            for (key, value) in object {
                guard columns.contains(key) else {
                    throw ManifestError(
                        path: name,
                        reason: "line \(index + 1): unknown field \(QuotedValue.quoted(key)) (fields: \(columns.sorted().joined(separator: ", ")))")
                }
                switch value {
                case .text(let text): if !text.isEmpty { values[key] = text }
                case .absent: break
                case .unsupported:
                    throw ManifestError(path: name, reason: "line \(index + 1): \(QuotedValue.quoted(key)) must be a string, number or boolean")
                }
            }
            rows.append(ManifestRow(number: rows.count + 1, values: values))
        }
        return rows
    }
}

import KiraAnimation
import KiraFiles

// Drag files' text: CSV lines or JSON, read strictly, with the line of each error. Beside the
// files, not in KiraAnimation: that module is part of the portable core (WebAssembly), and an
// error quotes the file's name through ``/KiraFiles/QuotedValue``.

extension DragPath {
    /// Reads `time,dx,dy` lines (an optional header line, `#` comments), or a JSON array of
    /// objects with `time` (or `t`), `dx` and `dy`, read strictly as JSON. A UTF-8 byte order mark
    /// at the start is skipped. Numbers are read exactly (digits, sign, point, exponent; nothing
    /// else, not even a NUL); anything else is refused with its line number, and so is a sample
    /// beyond ``/KiraAnimation/DragPath/maxSamples``, as soon as it is met (the rest of the file is not parsed).
    public init(text: String, name: String) throws(DragPathError) {
        try self.init(bytes: Array(text.utf8), name: name)
    }

    /// ``init(text:name:)`` from the file's bytes, parsed where they are: besides them, a drag
    /// holds only its samples and one line at a time.
    public init(bytes: [UInt8], name: String) throws(DragPathError) {
        try self.init(bytes: bytes, name: name, limit: Self.maxSamples)
    }

    /// ``init(bytes:name:)`` with `limit` samples at most (tests use a small one).
    init(bytes: [UInt8], name: String, limit: Int) throws(DragPathError) {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var position = start, line = 1
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(bytes[position]) {
            if bytes[position] == 0x0A || (bytes[position] == 0x0D && bytes[safe: position + 1] != 0x0A) { line += 1 }
            position += 1
        }
        if bytes[safe: position] == UInt8(ascii: "[") {
            var reader = JSONReader(bytes: bytes, position: position, line: line, name: name, limit: limit)
            try self.init(samples: try reader.samples())
        } else {
            try self.init(samples: try Self.parseCSV(bytes, from: start, name: name, limit: limit))
        }
    }

    /// A decimal number as `time,dx,dy` files write it, or nil. `Double(_:)` alone would take
    /// "nan", "0x1p3" and, through C's strtod, stop at a NUL ("1\0" read as 1).
    static func number<S: StringProtocol>(_ text: S) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || "+-.eE".utf8.contains($0) }) else { return nil }
        return Double(String(text))
    }

    /// The CSV form, line by line from `start`. Lines end at LF, CR LF, CR, and the other breaks
    /// Unicode names (VT, FF, NEL, LS, PS), as Swift's `Character.isNewline` has them.
    static func parseCSV(_ bytes: [UInt8], from start: Int, name: String, limit: Int) throws(DragPathError) -> [Sample] {
        var samples: [Sample] = []
        var number = 0
        var lineStart = start, position = start
        func lineBreak(at i: Int) -> Int {  // the break's length in bytes at `i`, or 0
            switch bytes[i] {
            case 0x0A, 0x0B, 0x0C: return 1
            case 0x0D: return bytes[safe: i + 1] == 0x0A ? 2 : 1
            case 0xC2: return bytes[safe: i + 1] == 0x85 ? 2 : 0
            case 0xE2: return bytes[safe: i + 1] == 0x80 && (bytes[safe: i + 2] == 0xA8 || bytes[safe: i + 2] == 0xA9) ? 3 : 0
            default: return 0
            }
        }
        while lineStart <= bytes.count {
            var length = 0
            while position < bytes.count {
                length = lineBreak(at: position)
                if length > 0 { break }
                position += 1
            }
            defer {
                number += 1
                position += length
                lineStart = length == 0 ? bytes.count + 1 : position
            }
            // The line up to a comment, as fields; an ASCII line is split where it is (the common
            // case, and a file of comments or blank lines costs no string), any other as text.
            let end = bytes[lineStart..<position].firstIndex(of: UInt8(ascii: "#")) ?? position
            let content = bytes[lineStart..<end]
            let fields: [String]
            if content.allSatisfy({ $0 < 0x80 }) {
                fields = content.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true).map { field in
                    let trimmed = field.drop { $0 == 0x20 || (0x09...0x0D).contains($0) }
                        .reversed().drop { $0 == 0x20 || (0x09...0x0D).contains($0) }.reversed()
                    return String(decoding: trimmed, as: UTF8.self)
                }
            } else {
                fields = String(decoding: content, as: UTF8.self).split(separator: ",").map { $0.trimmingWhitespace }
            }
            if fields.isEmpty || fields.allSatisfy({ $0.isEmpty }) { continue }
            if samples.isEmpty, number == 0, fields.first.map({ Self.number($0) == nil }) == true { continue }  // header
            guard fields.count == 3, let t = Self.number(fields[0]), let dx = Self.number(fields[1]), let dy = Self.number(fields[2]) else {
                throw DragPathError("\(QuotedValue.shown(name)):\(number + 1): expected `time,dx,dy`")
            }
            guard samples.count < limit else { throw tooManySamples("\(QuotedValue.shown(name)):\(number + 1)", limit: limit) }
            samples.append(Sample(time: t, dx: dx, dy: dy))
        }
        return samples
    }
}


extension Array where Element == UInt8 {
    fileprivate subscript(safe index: Int) -> UInt8? { index < count ? self[index] : nil }
}

/// Reads exactly JSON's grammar (RFC 8259) for this format: an array of objects whose keys are
/// strings and whose values are numbers, nothing after the array. Anything else – a missing or
/// extra comma, unquoted keys, stray words, a NUL, an array where an object belongs – is refused
/// with its line.
///
/// Hand-written rather than Foundation's decoders on purpose: this module, like the rest of the
/// `Kira` library, does not link Foundation, and neither decoder says where the error is
/// (`JSONDecoder` says only "not valid JSON"; `JSONSerialization` gives a character offset),
/// nor stops at the sample limit. The grammar is small enough to follow to the letter; escapes
/// in keys are the one part of JSON left out (no key of this format needs one), and are refused.
///
/// A cursor over a drag file's JSON that counts lines as it goes, from the array's `[`.
private struct JSONReader {
    let bytes: [UInt8]
    var position: Int
    var line: Int
    let name: String
    let limit: Int

    static let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":"), quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    static let openArray = UInt8(ascii: "["), closeArray = UInt8(ascii: "]"), openObject = UInt8(ascii: "{"), closeObject = UInt8(ascii: "}")

    init(bytes: [UInt8], position: Int, line: Int, name: String, limit: Int) {
        self.limit = limit
        self.bytes = bytes
        self.position = position
        self.line = line
        self.name = name
    }

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// What is at the cursor, for messages: a printable character, a byte in hex, or the end.
    var found: String {
        guard let byte = peek else { return "found the end of the file" }
        if (0x21...0x7E).contains(byte) { return "found `\(Character(Unicode.Scalar(byte)))`" }
        return "found byte 0x\(byte < 16 ? "0" : "")\(String(byte, radix: 16, uppercase: true))"
    }

    func error(_ what: String, line: Int? = nil) -> DragPathError { DragPathError("\(QuotedValue.shown(name)):\(line ?? self.line): \(what)") }

    /// Skips JSON's whitespace (space, tab, CR, LF) and nothing else, counting lines (CR LF is one).
    mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            if byte == 0x0A || (byte == 0x0D && (position + 1 == bytes.count || bytes[position + 1] != 0x0A)) { line += 1 }
            position += 1
        }
    }

    /// Takes `byte` after any whitespace, or throws naming `what` was expected.
    mutating func take(_ byte: UInt8, _ what: String) throws(DragPathError) {
        skipWhitespace()
        guard peek == byte else { throw error("expected \(what), \(found)") }
        position += 1
    }

    /// After an element: true after a `,` (another follows), false after `closing`.
    mutating func separator(_ closing: UInt8) throws(DragPathError) -> Bool {
        skipWhitespace()
        if peek == Self.comma { position += 1; return true }
        if peek == closing { position += 1; return false }
        throw error("expected `,` or `\(Character(Unicode.Scalar(closing)))`, \(found)")
    }

    mutating func samples() throws(DragPathError) -> [DragPath.Sample] {
        try take(Self.openArray, "a JSON array")
        var samples: [DragPath.Sample] = []
        skipWhitespace()
        if peek == Self.closeArray {
            position += 1
        } else {
            repeat {
                skipWhitespace()  // the line the extra sample starts on
                guard samples.count < limit else { throw DragPath.tooManySamples("\(QuotedValue.shown(name)):\(line)", limit: limit) }
                samples.append(try sample(samples.count + 1))
            } while try separator(Self.closeArray)
        }
        skipWhitespace()
        guard peek == nil else { throw error("expected nothing after the array, \(found)") }
        return samples
    }

    /// The array's `index`th element (from 1): an object with `time` (or `t`), `dx` and `dy`.
    mutating func sample(_ index: Int) throws(DragPathError) -> DragPath.Sample {
        skipWhitespace()
        let start = line
        guard peek == Self.openObject else { throw error("element \(index): expected an object {\"time\", \"dx\", \"dy\"}, \(found)") }
        position += 1
        var values: [String: Double] = [:]
        skipWhitespace()
        if peek == Self.closeObject {
            position += 1
        } else {
            repeat {
                let key = try string()
                try take(Self.colon, "`:`")
                guard values.updateValue(try number(), forKey: key) == nil else { throw error("\"\(key)\" appears twice") }
            } while try separator(Self.closeObject)
        }
        guard let t = values["time"] ?? values["t"], let dx = values["dx"], let dy = values["dy"] else {
            throw error("element \(index) needs time, dx and dy", line: start)
        }
        return DragPath.Sample(time: t, dx: dx, dy: dy)
    }

    /// A key: a JSON string without escapes or control characters.
    mutating func string() throws(DragPathError) -> String {
        try take(Self.quote, "a key in double quotes")
        let start = position
        while let byte = peek, byte != Self.quote {
            guard byte >= 0x20, byte != Self.backslash else { throw error("expected a key in double quotes (no escapes or control characters), \(found)") }
            position += 1
        }
        guard peek == Self.quote else { throw error("a key's closing quote is missing") }
        position += 1
        return String(decoding: bytes[start..<(position - 1)], as: UTF8.self)
    }

    /// Takes one or more decimal digits; false if there is none.
    mutating func digits() -> Bool {
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }
        guard isDigit(peek) else { return false }
        while isDigit(peek) { position += 1 }
        return true
    }

    /// A number as JSON writes it: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)? ([eE] [+-]? [0-9]+)?.
    mutating func number() throws(DragPathError) -> Double {
        skipWhitespace()
        let start = position
        if peek == UInt8(ascii: "-") { position += 1 }
        var valid: Bool
        if peek == UInt8(ascii: "0") { position += 1; valid = true } else { valid = digits() }
        if valid, peek == UInt8(ascii: ".") { position += 1; valid = digits() }
        if valid, peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            valid = digits()
        }
        guard valid, let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else {
            throw error("expected a number, \(found)")
        }
        return value
    }
}

extension StringProtocol {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

import KiraArguments
import KiraFiles

/// What kind of value the parameter takes.
public enum ParameterKind: Sendable, Equatable {
    /// A number (`8`, `-0.5`).
    case number
    /// A whole number.
    case integer
    /// One of these words.
    case choice([String])
    /// On or off: `true`/`false`, `yes`/`no`, `1`/`0`; a command-line flag.
    case flag
    /// A file path; front ends resolve it (a manifest from its folder) or refuse it (a server).
    case path
    /// Anything else the parser accepts (a size `WxH`, a colour, a vector).
    case text
}

/// One named value of a request: its name (`tilt_x`), what it takes, its help, and how it is
/// parsed, range-checked and stored.
///
/// Every front end takes its values through these entries: the command line spells the name
/// `--tilt-x`, a manifest has a `tilt_x` column, a URL a `tilt_x` query parameter. So the three
/// agree on names, defaults, ranges and messages, and a value means the same wherever it is given.
public struct RequestParameter<Root>: Sendable {
    /// The name, in lower case with underscores: `tilt_x`.
    public let name: String
    /// What the help shows for the value: `deg`, `WxH`.
    public let valueName: String
    /// One or two sentences of help, with the range and the default; other parameters are
    /// written `{name}` (see ``help(naming:)``).
    public let help: String
    public let kind: ParameterKind
    /// The bounds of a number or whole number, for a front end that draws a slider; nil for the other kinds.
    public let range: ClosedRange<Double>?
    /// The default in its canonical spelling (`0`, `original`), for a reference page or a front end
    /// that shows it (a slider's start, a picker's choice); nil when the parameter is unset by
    /// default (a file, an override).
    public let defaultValue: String?
    private let store: @Sendable (inout Root, String) throws(RequestError) -> Void
    private let canonical: @Sendable (Root) -> String?
    /// A number's store from the value itself, checked as the text's is (nil for other kinds).
    private let storeNumber: (@Sendable (inout Root, Double) throws(RequestError) -> Void)?

    /// An entry that parses with `store` and reports its value with `canonical`; a number's
    /// entry may also store a value given as a number with `storeNumber`.
    public init(name: String, valueName: String, help: String, kind: ParameterKind, range: ClosedRange<Double>? = nil,
                defaultValue: String? = nil,
                store: @escaping @Sendable (inout Root, String) throws(RequestError) -> Void,
                canonical: @escaping @Sendable (Root) -> String?,
                storeNumber: (@Sendable (inout Root, Double) throws(RequestError) -> Void)? = nil) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.kind = kind
        self.range = range
        self.defaultValue = defaultValue
        self.store = store
        self.canonical = canonical
        self.storeNumber = storeNumber
    }

    /// The command-line spelling of the name: `--tilt-x`.
    public var option: String { "--" + String(name.map { $0 == "_" ? "-" : $0 }) }

    /// The help with the parameters it mentions spelled by `spell` (`--shader` or `shader`).
    public func help(naming spell: (String) -> String) -> String {
        RequestError.spelling(help, with: spell)
    }

    /// Parses `text`, checks it, and sets it in `root`.
    public func set(_ text: String, in root: inout Root) throws(RequestError) {
        try store(&root, text)
    }

    /// Checks the number `value` as ``set(_:in:)`` checks a number's text, and sets it in
    /// `root`: for a front end whose values are numbers already (the live preview's pose), which
    /// need not be spelled out and parsed back.
    public func set(number value: Double, in root: inout Root) throws(RequestError) {
        guard let storeNumber else { throw RequestError(parameter: name, reason: "takes \(valueName), not a number") }
        try storeNumber(&root, value)
    }

    /// The value set in `root` in its canonical spelling, or nil when it is the default: what a
    /// front end shows or hashes so that equal requests are spelled alike (`8` for `8.0`).
    public func value(in root: Root) -> String? { canonical(root) }

    /// The same entry for a request that holds a `Root` at `path`.
    public func lifted<Outer>(_ path: WritableKeyPath<Outer, Root> & Sendable) -> RequestParameter<Outer> {
        let store = self.store, canonical = self.canonical
        var storeNumber: (@Sendable (inout Outer, Double) throws(RequestError) -> Void)?
        if let inner = self.storeNumber {
            storeNumber = { (outer: inout Outer, value: Double) throws(RequestError) in try inner(&outer[keyPath: path], value) }
        }
        return RequestParameter<Outer>(
            name: name, valueName: valueName, help: help, kind: kind, range: range, defaultValue: defaultValue,
            store: { (outer: inout Outer, text: String) throws(RequestError) in try store(&outer[keyPath: path], text) },
            canonical: { canonical($0[keyPath: path]) },
            storeNumber: storeNumber)
    }
}

extension RequestParameter {
    /// A number within `range`, stored at `path`; messages show `example` (by default the default).
    public static func number<V: BinaryFloatingPoint & LosslessStringConvertible & Sendable>(
        _ name: String, _ path: WritableKeyPath<Root, V> & Sendable, in range: ClosedRange<V>, default: V, example: V? = nil,
        valueName: String, help: String
    ) -> Self {
        Self(name: name, valueName: valueName, help: help, kind: .number, range: Double(range.lowerBound)...Double(range.upperBound),
             defaultValue: ParameterValue.format(`default`),
             store: { (root: inout Root, text: String) throws(RequestError) in
                 root[keyPath: path] = try ParameterValue.number(text, in: range, name: name, example: example ?? `default`)
             },
             canonical: { $0[keyPath: path] == `default` ? nil : ParameterValue.format($0[keyPath: path]) },
             storeNumber: { (root: inout Root, value: Double) throws(RequestError) in
                 root[keyPath: path] = try ParameterValue.checked(V(value), in: range, name: name, example: example ?? `default`)
             })
    }

    /// A number within `range` that is unset (nil) by default, stored at `path`; messages show
    /// `example`.
    public static func number<V: BinaryFloatingPoint & LosslessStringConvertible & Sendable>(
        _ name: String, _ path: WritableKeyPath<Root, V?> & Sendable, in range: ClosedRange<V>, example: V,
        valueName: String, help: String
    ) -> Self {
        Self(name: name, valueName: valueName, help: help, kind: .number, range: Double(range.lowerBound)...Double(range.upperBound),
             store: { (root: inout Root, text: String) throws(RequestError) in
                 root[keyPath: path] = try ParameterValue.number(text, in: range, name: name, example: example)
             },
             canonical: { $0[keyPath: path].map(ParameterValue.format) },
             storeNumber: { (root: inout Root, value: Double) throws(RequestError) in
                 root[keyPath: path] = try ParameterValue.checked(V(value), in: range, name: name, example: example)
             })
    }

    /// A whole number within `range`, stored at `path`; messages show `example` (by default the
    /// default).
    public static func integer(
        _ name: String, _ path: WritableKeyPath<Root, Int> & Sendable, in range: ClosedRange<Int>, default: Int,
        example: Int? = nil, valueName: String, help: String
    ) -> Self {
        Self(name: name, valueName: valueName, help: help, kind: .integer, range: Double(range.lowerBound)...Double(range.upperBound),
             defaultValue: String(`default`),
             store: { (root: inout Root, text: String) throws(RequestError) in
                 root[keyPath: path] = try ParameterValue.integer(text, in: range, name: name, example: example ?? `default`)
             },
             canonical: { $0[keyPath: path] == `default` ? nil : String($0[keyPath: path]) })
    }

    /// A whole number within `range` that is unset (nil) by default, stored at `path`; messages
    /// show `example`.
    public static func integer(
        _ name: String, _ path: WritableKeyPath<Root, Int?> & Sendable, in range: ClosedRange<Int>, example: Int,
        valueName: String, help: String
    ) -> Self {
        Self(name: name, valueName: valueName, help: help, kind: .integer, range: Double(range.lowerBound)...Double(range.upperBound),
             store: { (root: inout Root, text: String) throws(RequestError) in
                 root[keyPath: path] = try ParameterValue.integer(text, in: range, name: name, example: example)
             },
             canonical: { $0[keyPath: path].map { String($0) } })
    }

    /// One of a fixed set of words, each naming a value, stored at `path`; `aliases` are older
    /// spellings, accepted but not listed.
    public static func choice<V: Equatable & Sendable>(
        _ name: String, _ path: WritableKeyPath<Root, V> & Sendable, words: [(String, V)], aliases: [(String, V)] = [],
        default: V, help: String
    ) -> Self {
        Self(name: name, valueName: words.map(\.0).joined(separator: "|"), help: help, kind: .choice(words.map(\.0)),
             defaultValue: words.first { $0.1 == `default` }?.0,
             store: { (root: inout Root, text: String) throws(RequestError) in
                 root[keyPath: path] = try ParameterValue.choice(text, words: words, aliases: aliases, name: name)
             },
             canonical: { root in
                 let value = root[keyPath: path]
                 return value == `default` ? nil : words.first { $0.1 == value }?.0
             })
    }

    /// One of a fixed set of words, each naming a value, unset (nil) by default, stored at `path`;
    /// `aliases` are older spellings, accepted but not listed.
    public static func choice<V: Equatable & Sendable>(
        _ name: String, _ path: WritableKeyPath<Root, V?> & Sendable, words: [(String, V)], aliases: [(String, V)] = [],
        help: String
    ) -> Self {
        Self(name: name, valueName: words.map(\.0).joined(separator: "|"), help: help, kind: .choice(words.map(\.0)),
             store: { (root: inout Root, text: String) throws(RequestError) in
                 root[keyPath: path] = try ParameterValue.choice(text, words: words, aliases: aliases, name: name)
             },
             canonical: { root in root[keyPath: path].flatMap { value in words.first { $0.1 == value }?.0 } })
    }

    /// One of an enumeration's raw values, stored at `path`.
    public static func choice<V: RawRepresentable & CaseIterable & Equatable & Sendable>(
        _ name: String, _ path: WritableKeyPath<Root, V> & Sendable, default: V, help: String
    ) -> Self where V.RawValue == String {
        choice(name, path, words: V.allCases.map { ($0.rawValue, $0) }, default: `default`, help: help)
    }

    /// A value of any other form, parsed by `parse` and spelled back by `spell`, stored at `path`.
    public static func value<V: Equatable & Sendable>(
        _ name: String, _ path: WritableKeyPath<Root, V> & Sendable, default: V, valueName: String, help: String,
        parse: @escaping @Sendable (String) throws(RequestError) -> V, spell: @escaping @Sendable (V) -> String
    ) -> Self {
        Self(name: name, valueName: valueName, help: help, kind: .text, defaultValue: spell(`default`),
             store: { (root: inout Root, text: String) throws(RequestError) in root[keyPath: path] = try parse(text) },
             canonical: { $0[keyPath: path] == `default` ? nil : spell($0[keyPath: path]) })
    }

    /// On or off (off by default), stored at `path`.
    public static func flag(_ name: String, _ path: WritableKeyPath<Root, Bool> & Sendable, help: String) -> Self {
        Self(name: name, valueName: "true|false", help: help, kind: .flag, defaultValue: "false",
             store: { (root: inout Root, text: String) throws(RequestError) in
                 root[keyPath: path] = try ParameterValue.flag(text, name: name)
             },
             canonical: { $0[keyPath: path] ? "true" : nil })
    }

    /// A file path (unset by default), stored at `path`.
    public static func path(_ name: String, _ path: WritableKeyPath<Root, String?> & Sendable, help: String) -> Self {
        Self(name: name, valueName: "path", help: help, kind: .path,
             store: { (root: inout Root, text: String) throws(RequestError) in
                 guard !text.isEmpty else { throw RequestError(parameter: name, reason: "must name a file, not be empty") }
                 root[keyPath: path] = text
             },
             canonical: { $0[keyPath: path] })
    }
}

/// The parsers behind ``RequestParameter``'s kinds, with messages that say what is valid.
package enum ParameterValue {
    /// A number in `range`; messages give the range and `example` (a value in it).
    static func number<V: BinaryFloatingPoint & LosslessStringConvertible>(
        _ text: String, in range: ClosedRange<V>, name: String, example: V
    ) throws(RequestError) -> V {
        // Not through C's strtod alone: it stops at a NUL, and "8\0abc" would be 8.
        guard !text.utf8.contains(0), let value = V(text.trimmingSpaces) else {
            throw RequestError(parameter: name, reason: "must be a number \(valid(range, example: example)), not \(quoted(text))")
        }
        return try checked(value, in: range, name: name, example: example)
    }

    /// `value` if it is finite and in `range`; messages give the range and `example`.
    static func checked<V: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: V, in range: ClosedRange<V>, name: String, example: V
    ) throws(RequestError) -> V {
        let valid = Self.valid(range, example: example)
        guard value.isFinite else {
            throw RequestError(parameter: name, reason: "must be a finite number \(valid), not \(value)")
        }
        guard range.contains(value) else {
            throw RequestError(parameter: name, reason: "must be \(valid), not \(format(value))")
        }
        return value
    }

    /// "between 0 and 10, e.g. 0.7".
    static func valid<V: BinaryFloatingPoint & LosslessStringConvertible>(_ range: ClosedRange<V>, example: V) -> String {
        "between \(format(range.lowerBound)) and \(format(range.upperBound)), e.g. \(format(example))"
    }

    /// A whole number in `range`; messages give the range and `example` (a value in it).
    static func integer(_ text: String, in range: ClosedRange<Int>, name: String, example: Int) throws(RequestError) -> Int {
        let valid = "between \(range.lowerBound) and \(range.upperBound), e.g. \(example)"
        guard let value = Int(text.trimmingSpaces) else {
            throw RequestError(parameter: name, reason: "must be a whole number \(valid), not \(quoted(text))")
        }
        guard range.contains(value) else {
            throw RequestError(parameter: name, reason: "must be \(valid), not \(value)")
        }
        return value
    }

    static func choice<V>(_ text: String, words: [(String, V)], aliases: [(String, V)] = [], name: String) throws(RequestError) -> V {
        if let match = (words + aliases).first(where: { $0.0 == text }) { return match.1 }
        throw RequestError(parameter: name, reason: "must be \(listing(words.map(\.0))), not \(quoted(text))")
    }

    static func flag(_ text: String, name: String) throws(RequestError) -> Bool {
        switch text.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: throw RequestError(parameter: name, reason: "must be true or false, not \(quoted(text))")
        }
    }

    /// `text` in double quotes, control characters escaped, elided past a few hundred bytes
    /// (``/KiraFiles/QuotedValue``).
    static func quoted(_ text: String) -> String { QuotedValue.quoted(text) }

    /// `a`, `a or b`, `a, b or c`.
    static func listing(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    /// Whole numbers without a fraction (`8`, not `8.0`); others as Swift prints them (shortest
    /// round trip).
    package static func format<V: BinaryFloatingPoint & LosslessStringConvertible>(_ value: V) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : value.description
    }

}

extension String {
    /// Without the spaces around it (a manifest cell `" 8"` is 8).
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

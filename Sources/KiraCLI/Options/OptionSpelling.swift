import ArgumentParser
import Kira

/// A request parameter as the command line spells it: `tilt_x` is `--tilt-x`.
enum OptionSpelling {
    static func option(_ name: String) -> String { "--" + String(name.map { $0 == "_" ? "-" : $0 }) }
}

extension RequestError {
    /// The message with parameters spelled as options (`--tilt-x must be …`).
    var commandLine: String { described(naming: OptionSpelling.option) }
}

extension RequestParameter {
    /// The option's name: the parameter's, spelled `--tilt-x`.
    var long: NameSpecification { .customLong(String(option.dropFirst(2))) }

    /// The option's help, value name and completions, from the parameter's entry.
    var argumentHelp: ArgumentHelp {
        ArgumentHelp(help(naming: OptionSpelling.option), valueName: valueName)
    }

    /// A number's value is taken whatever it looks like, so that `--perspective -1` is a value to
    /// check (and explain by its range), not an option, as `--tilt-x -8` is.
    var parsing: SingleValueParsingStrategy {
        switch kind {
        case .number, .integer: .unconditional
        case .choice, .path, .flag, .text: .next
        }
    }

    var completion: CompletionKind? {
        switch kind {
        case .choice(let words): .list(words)
        case .path: .file()
        case .number, .integer, .flag, .text: nil
        }
    }
}

/// Values given on the command line, by parameter: (name, value) for each option given.
func given<Root>(_ options: [(RequestParameter<Root>, String?)]) -> [(String, String)] {
    options.compactMap { parameter, value in value.map { (parameter.name, $0) } }
}

/// `true` for a flag that was given, nil otherwise.
func given(_ flag: Bool) -> String? { flag ? "true" : nil }

extension OptionSpelling {
    /// `text` with the parameters it names (`{mask}`) spelled as options (`--mask`).
    static func spell(_ text: String) -> String { RequestError.spelling(text, with: option) }
}

import ArgumentParser

/// Checks of the options that belong to the command line alone (threads, a benchmark's frames);
/// each failure is a one-line `ValidationError`. A request's values are checked by its parameters.
enum Check {
    /// `value` is finite and within `range`; a message gives the range and `example`.
    static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F, _ name: String, in range: ClosedRange<F>, example: F) throws {
        let valid = "between \(format(range.lowerBound)) and \(format(range.upperBound)), e.g. \(format(example))"
        guard value.isFinite else { throw ValidationError("\(name) must be a finite number \(valid), not \(value)") }
        guard range.contains(value) else { throw ValidationError("\(name) must be \(valid), not \(format(value))") }
    }

    /// `value` is within `range`; a message gives the range and `example`.
    static func integer(_ value: Int, _ name: String, in range: ClosedRange<Int>, example: Int) throws {
        guard range.contains(value) else {
            throw ValidationError("\(name) must be between \(range.lowerBound) and \(range.upperBound), e.g. \(example), not \(value)")
        }
    }

    static func format<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : value.description
    }
}

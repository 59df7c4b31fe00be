import ArgumentParser

/// Checks of the options that belong to the command line alone (threads, a benchmark's frames);
/// each failure is a one-line `ValidationError`. A request's values are checked by its parameters.
enum Check {
    /// `value` is finite and within `range`.
    static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F, _ name: String, in range: ClosedRange<F>) throws {
        guard value.isFinite else {
            throw ValidationError("\(name) must be a finite number between \(format(range.lowerBound)) and \(format(range.upperBound)), not \(value)")
        }
        guard range.contains(value) else {
            throw ValidationError("\(name) must be between \(format(range.lowerBound)) and \(format(range.upperBound)), not \(format(value))")
        }
    }

    static func integer(_ value: Int, _ name: String, in range: ClosedRange<Int>) throws {
        guard range.contains(value) else {
            throw ValidationError("\(name) must be between \(range.lowerBound) and \(range.upperBound), not \(value)")
        }
    }

    static func format<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : value.description
    }
}

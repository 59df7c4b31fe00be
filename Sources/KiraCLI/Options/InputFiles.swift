import ArgumentParser
import Kira
import KiraFiles

/// A failure the user can fix: a message, exit status 2.
struct InputError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum InputFiles {
    /// Refuses to write over one of the inputs (compared by device and inode, see
    /// `FileIO.checkDistinct`).
    static func checkOutput(_ output: String, isNotOneOf inputs: [String]) throws {
        try FileIO.checkDistinct(inputs: inputs, outputs: [output])
    }
}

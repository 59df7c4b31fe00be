import KiraAnimation
import KiraFiles

extension DragPath {
    /// Reads the drag file at `path` (`-` is standard input) within `budget`: while it is parsed
    /// Kira holds its bytes and the samples read so far, at most ``/KiraAnimation/DragPath/maxSamples`` and at most one
    /// per 6 bytes (`0,0,0` and a line break), so a file larger than what the budget leaves
    /// beside them is refused before it is read (a stream, as soon as it grows past that).
    ///
    /// - Throws: ``/KiraFiles/ImageFileError`` for a file that cannot be read or does not fit, or
    ///   ``/KiraAnimation/DragPathError`` for one that is not a drag.
    public static func read(_ path: String, budget: MemoryBudget) throws -> DragPath {
        let limit = max(budget.bytes - bytes(samples: maxSamples), budget.bytes * 6 / (6 + bytes(samples: 1)))
        return try DragPath(bytes: try FileIO.read(path, limit: limit), name: path)
    }
}

import KiraShader

/// Per-worker buffers, allocated once and grown only when a frame needs more.
package final class WorkerScratch: @unchecked Sendable {
    /// Bytes per worker: a resampled mask row, an art and a mask tail, one output tail per
    /// frame, per frame a pointer to its output row and one to its output tail, then (for foils
    /// that read it) three rows of the height field and a resampled row of its source.
    package private(set) var stride = 0
    package private(set) var base: UnsafeMutableRawPointer?
    private var layout = Layout(rowBytes: 0, frames: 0, heightFloats: 0)
    private var capacity = 0

    package init() {}

    package static let maxPixelBytes = 8
    package static let tailBytes = Lanes.scalarCount * maxPixelBytes
    /// Floats of margin on either side of a height row (one lane, so that loads one column
    /// beyond either end stay inside).
    package static let heightMargin = Lanes.scalarCount

    package struct Layout {
        package let rowBytes: Int
        package let frames: Int
        /// Floats per height row, margins included; 0 without a height field.
        package let heightFloats: Int

        package init(rowBytes: Int, frames: Int, heightFloats: Int) {
            self.rowBytes = rowBytes
            self.frames = frames
            self.heightFloats = heightFloats
        }

        package var bytes: Int {
            rowBytes + (2 + frames) * WorkerScratch.tailBytes + 2 * frames * MemoryLayout<UnsafeMutableRawPointer>.stride
                + (heightFloats > 0 ? 3 * heightFloats * MemoryLayout<Float>.stride + rowBytes + WorkerScratch.tailBytes : 0)
        }
    }

    package func reserve(workers: Int, paddedWidth: Int, frames: Int, heightRows: Bool) {
        let rowBytes = paddedWidth * Self.maxPixelBytes
        layout = Layout(rowBytes: rowBytes, frames: frames,
                        heightFloats: heightRows ? paddedWidth + 2 * Self.heightMargin : 0)
        // Whole cache lines per worker, so that the height rows stay aligned.
        let needed = (layout.bytes + 63) / 64 * 64
        let total = needed * workers
        if total > capacity {
            base?.deallocate()
            base = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 64)
            capacity = total
        }
        stride = needed
    }

    /// Worker `worker`'s buffers.
    package func space(of worker: Int) -> WorkerSpace {
        WorkerSpace(base: base! + worker * stride, layout: layout)
    }

    deinit { base?.deallocate() }
}

/// One worker's share of ``WorkerScratch``.
package struct WorkerSpace {
    package let maskRow: UnsafeMutableRawPointer
    package let tailArt: UnsafeMutableRawPointer
    package let tailMask: UnsafeMutableRawPointer
    package let tailOuts: UnsafeMutableRawPointer
    package let rowOuts: UnsafeMutablePointer<UnsafeMutableRawPointer>
    package let tailPointers: UnsafeMutablePointer<UnsafeMutableRawPointer>
    /// Three height rows (column 0 of each is ``WorkerScratch/heightMargin`` floats in), a
    /// resampled source row and a source tail.
    package let heightRows: UnsafeMutablePointer<Float>
    package let heightFloats: Int
    package let sourceRow: UnsafeMutableRawPointer
    package let sourceTail: UnsafeMutableRawPointer

    package init(base: UnsafeMutableRawPointer, layout: WorkerScratch.Layout) {
        maskRow = base
        tailArt = base + layout.rowBytes
        tailMask = tailArt + WorkerScratch.tailBytes
        tailOuts = tailMask + WorkerScratch.tailBytes
        rowOuts = (tailOuts + layout.frames * WorkerScratch.tailBytes).assumingMemoryBound(to: UnsafeMutableRawPointer.self)
        tailPointers = rowOuts + layout.frames
        let heights = UnsafeMutableRawPointer(tailPointers + layout.frames)
        heightRows = heights.assumingMemoryBound(to: Float.self)
        heightFloats = layout.heightFloats
        sourceRow = heights + 3 * layout.heightFloats * MemoryLayout<Float>.stride
        sourceTail = sourceRow + layout.rowBytes
    }
}

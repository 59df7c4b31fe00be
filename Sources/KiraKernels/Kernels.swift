import KiraLaneJobs
import KiraShader

/// The pixel loops of one CPU level. This folder is compiled once per x86-64 level (the modules
/// KiraKernelsV2, KiraKernelsV3 and KiraKernelsV4 are links to it), and the renderers call the
/// level they chose at start (`KernelLevel`). Each entry takes its job by pointer and its other
/// arguments as scalars: SIMD values wider than 16 bytes travel in different registers at
/// different levels, so none crosses between them.
package enum Kernels {
    /// Shades tile `tile` of the ``ShadeTask`` at `task` as worker `worker`.
    package static func shadeTile(_ task: UnsafeMutableRawPointer, _ tile: Int, _ worker: Int) {
        let task = task.assumingMemoryBound(to: ShadeTask.self)
        FoilRegistry.with(task.pointee.foil, ShadeTile(task: task, tile: tile, worker: worker))
    }

    /// Projects and composites tile `tile` of the ``ProjectionFrame`` at `frame`.
    package static func projectTile(_ frame: UnsafeMutableRawPointer, _ tile: Int) {
        LaneProjectionJob(frame: frame.assumingMemoryBound(to: ProjectionFrame.self).pointee).run(tile: tile)
    }
}

/// ``Kernels/shadeTile(_:_:_:)`` at the task's foil type.
private struct ShadeTile: FoilTypeConsumer {
    let task: UnsafePointer<ShadeTask>, tile: Int, worker: Int
    func callAsFunction<F: FoilShader>(_: F.Type) {
        ShadeKernel<F>(task.pointee).shade(tile: tile, worker: worker)
    }
}

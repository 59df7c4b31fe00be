import Testing
@testable import KiraRender

@Suite struct TileSchedulerTests {
    /// Each tile writes only its own slots, so the test needs no lock (a lock built on futexes,
    /// as `Mutex` is on Linux, is invisible to ThreadSanitizer).
    @Test(arguments: [1, 2, 3, 8])
    func everyTileRunsOnceOnAValidWorker(workers: Int) {
        let runs = UnsafeMutableBufferPointer<Int>.allocate(capacity: 97)
        let workerOfTile = UnsafeMutableBufferPointer<Int>.allocate(capacity: 97)
        runs.initialize(repeating: 0)
        workerOfTile.initialize(repeating: -1)
        defer { runs.deallocate(); workerOfTile.deallocate() }
        let slots = Slots(runs: runs, workers: workerOfTile)
        TileScheduler(workers: workers).run(tiles: 97) { tile, worker in
            slots.runs[tile] += 1
            slots.workers[tile] = worker
        }
        #expect(Array(runs) == [Int](repeating: 1, count: 97))
        #expect(workerOfTile.allSatisfy { (0..<workers).contains($0) })
    }

    struct Slots: @unchecked Sendable {
        let runs: UnsafeMutableBufferPointer<Int>
        let workers: UnsafeMutableBufferPointer<Int>
    }
}

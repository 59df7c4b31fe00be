import Synchronization
import Testing
@testable import KiraRender

@Suite struct TileSchedulerTests {
    @Test(arguments: [1, 2, 3, 8])
    func everyTileRunsOnceOnAValidWorker(workers: Int) {
        let counts = Mutex([Int](repeating: 0, count: 97))
        let workersSeen = Mutex(Set<Int>())
        TileScheduler(workers: workers).run(tiles: 97) { tile, worker in
            counts.withLock { $0[tile] += 1 }
            workersSeen.withLock { _ = $0.insert(worker) }
        }
        #expect(counts.withLock { $0 } == [Int](repeating: 1, count: 97))
        #expect(workersSeen.withLock { $0 }.allSatisfy { (0..<workers).contains($0) })
    }
}

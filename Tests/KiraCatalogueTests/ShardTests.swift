import KiraCatalogue
import KiraRequest
import Testing

@Suite struct ShardTests {
    /// Every row in exactly one shard, for catalogues smaller and larger than the shard count.
    @Test(arguments: [1, 2, 3, 7, 16, 100])
    func shardsCoverEveryRowOnce(count: Int) {
        for total in [0, 1, 2, 5, 24, 99, 1000] {
            var owner = [Int?](repeating: nil, count: total)
            var sizes: [Int] = []
            for k in 0..<count {
                let range = Shard(index: k, count: count)!.rows(ofTotal: total)
                sizes.append(range.count)
                for i in range {
                    #expect(owner[i] == nil, "row \(i) of \(total) in shards \(owner[i] ?? -1) and \(k) of \(count)")
                    owner[i] = k
                }
            }
            #expect(owner.allSatisfy { $0 != nil }, "\(total) rows over \(count) shards: some row in no shard")
            #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1, "uneven blocks: \(sizes)")
            // Contiguous blocks, in shard order.
            #expect(owner.compactMap { $0 } == owner.compactMap { $0 }.sorted())
        }
    }

    @Test func sameRowsEveryTime() throws {
        let shard = try Shard(parsing: "2/5")
        #expect(shard.rows(ofTotal: 23) == shard.rows(ofTotal: 23))
        #expect(shard.rows(ofTotal: 23) == 9..<13)
    }

    @Test func parsing() throws {
        #expect(try Shard(parsing: "0/1") == .whole)
        #expect(try Shard(parsing: " 3 / 16 ") == Shard(index: 3, count: 16))
        for (bad, reason) in [("", "must be K/N"), ("1", "must be K/N"), ("1/1", "K must be 0…0"), ("-1/3", "K must be 0…2"),
                              ("3/3", "K must be 0…2"), ("0/0", "N must be 1…1000000"), ("a/2", "must be K/N"),
                              ("1/2/3", "must be K/N"), ("1/", "must be K/N"), ("/2", "must be K/N"),
                              ("0/1000001", "N must be 1…1000000")] {
            #expect { try Shard(parsing: bad) } throws: { error in
                (error as? RequestError)?.parameter == "shard" && (error as? RequestError)?.reason.contains(reason) == true
            }
        }
    }
}

import CKiraPNG
import KiraTestSupport
import Testing

/// The vectorised PNG row filters of `kira_png_row_filters.h` against their one-byte definition,
/// `kira_png_filter_byte`: the filtered bytes and the adaptive choice's cost, for every filter
/// type, both pixel sizes, and row lengths around the 32-byte steps (head, whole steps, tail).
@Suite struct PNGRowFilterTests {
    /// The filtered row and its cost by the one-byte definition.
    static func reference(type: Int32, row: [UInt8], above: [UInt8], bpp: Int) -> (bytes: [UInt8], cost: UInt64) {
        var bytes = [UInt8](repeating: 0, count: row.count)
        var cost: UInt64 = 0
        for i in row.indices {
            let a = i >= bpp ? row[i - bpp] : 0, c = i >= bpp ? above[i - bpp] : 0
            bytes[i] = kira_png_filter_byte(type, row[i], a, above[i], c)
            cost += UInt64(Int8(bitPattern: bytes[i]).magnitude)
        }
        return (bytes, cost)
    }

    static func check(row: [UInt8], above: [UInt8], bpp: Int) {
        for type: Int32 in 0...4 {
            let expected = reference(type: type, row: row, above: above, bpp: bpp)
            var bytes = [UInt8](repeating: 0xA5, count: row.count)
            bytes.withUnsafeMutableBufferPointer { out in
                kira_png_filter_row(type, row, above, row.count, bpp, out.baseAddress)
            }
            let cost = kira_png_filter_cost(type, row, above, row.count, bpp)
            #expect(bytes == expected.bytes, "type \(type), \(row.count) bytes, bpp \(bpp)")
            #expect(cost == expected.cost, "type \(type), \(row.count) bytes, bpp \(bpp)")
        }
    }

    @Test(arguments: [4, 8])
    func randomRowsMatchTheDefinition(bpp: Int) {
        var generator = SplitMix(state: UInt64(bpp))
        for count in [0, 1, 3, 4, 5, 8, 9, 31, 32, 35, 36, 37, 40, 67, 68, 100, 1000, 2340 * 4] {
            for smooth in [false, true] {
                // Noise, or a gentle ramp (where the predictors differ from the raw bytes by little,
                // as in real images, and Paeth's ties between predictors occur).
                let row = (0..<count).map { i in
                    smooth ? UInt8(truncatingIfNeeded: i / 3 + Int(generator.next() % 3)) : UInt8.random(in: 0...255, using: &generator)
                }
                let above = (0..<count).map { i in
                    smooth ? UInt8(truncatingIfNeeded: i / 3) : UInt8.random(in: 0...255, using: &generator)
                }
                Self.check(row: row, above: above, bpp: bpp)
                Self.check(row: row, above: [UInt8](repeating: 0, count: count), bpp: bpp)  // a first row
            }
        }
    }

    /// Every byte at the largest magnitude (0x80 reads as -128), in a row longer than the 256 steps
    /// whose lane sums fit sixteen bits: the cost must not wrap.
    @Test func costOfLongRowsDoesNotOverflow() {
        let count = 256 * 32 * 3 + 17
        let row = [UInt8](repeating: 0x80, count: count), above = [UInt8](repeating: 0, count: count)
        #expect(kira_png_filter_cost(0, row, above, count, 4) == UInt64(128 * count))
        Self.check(row: row, above: above, bpp: 4)
    }
}

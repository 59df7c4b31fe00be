@testable import KiraFormats
import KiraImage
import Testing

@Suite struct ContactSheetTests {
    @Test func framesLandInTheirCellsWithLabels() throws {
        var red = try RGBAImage<UInt8>(width: 40, height: 60), blue = red
        for i in stride(from: 0, to: red.channels.count, by: 4) {
            red.channels[i] = 255; red.channels[i + 3] = 255
            blue.channels[i + 2] = 255; blue.channels[i + 3] = 255
        }
        let frames = [(0.0, red), (0.5, blue), (1.25, red)].map { (time: $0.0, image: $0.1) }
        let sheet = try ContactSheet.make(frames: frames, columns: 2, cellWidth: 100)
        // 2 columns × 2 rows of 100 × 150 cells with a 9-pixel label strip and 8-pixel gaps.
        #expect(sheet.width == 8 + 2 * 108 && sheet.height == 8 + 2 * (150 + 9 + 8))
        #expect(sheet[8 + 50, 8 + 75].x == 255 && sheet[8 + 50, 8 + 75].z == 0)
        #expect(sheet[116 + 50, 8 + 75].z == 255 && sheet[116 + 50, 8 + 75].x == 0)
        #expect(sheet[8 + 50, 175 + 75].x == 255)
        // Each label strip has light pixels; the empty fourth cell stays background.
        for (x, y) in [(8, 158), (116, 158), (8, 325)] {
            let lit = (0..<60).contains { dx in (0..<9).contains { dy in sheet[x + dx, y + dy].x > 200 && sheet[x + dx, y + dy].y > 200 } }
            #expect(lit, "label at (\(x), \(y))")
        }
        #expect(sheet[116 + 50, 175 + 75] == SIMD4(24, 26, 32, 255))
        #expect(ContactSheet.label(1.25) == "1.25 s" && ContactSheet.label(0.05) == "0.05 s")
    }

    /// A tall, narrow canvas once gave a cell as tall as its aspect ratio (40000 pixels for 5 × 4000)
    /// and a sheet Kira itself would not read back; cards keep the cells they had.
    @Test func tallFramesGetBoundedCells() throws {
        #expect(ContactSheet.cellSize(frameWidth: 500, frameHeight: 700, cellWidth: 200) == (280, 200, 280))
        let tall = ContactSheet.cellSize(frameWidth: 5, frameHeight: 4000, cellWidth: 200)
        #expect(tall == (800, 1, 800))
        #expect(ContactSheet.cellSize(frameWidth: 1, frameHeight: 16384, cellWidth: 200) == (800, 1, 800))
        #expect(ContactSheet.cellSize(frameWidth: 16384, frameHeight: 1, cellWidth: 200) == (1, 200, 1))
        var frame = try RGBAImage<UInt8>(width: 5, height: 4000)
        for i in stride(from: 0, to: frame.channels.count, by: 4) { frame.channels[i] = 255; frame.channels[i + 3] = 255 }
        let sheet = try ContactSheet.make(frames: [(time: 0, image: frame)], columns: 6, cellWidth: 200)
        #expect(sheet.width == 8 + 208 && sheet.height == 8 + 800 + 18 + 8)
        // The frame (1 pixel wide) is centred in its cell, at (200 - 1) / 2; either side of it is background.
        #expect(sheet[8 + 99, 8 + 400].x == 255 && sheet[8 + 50, 8 + 400] == SIMD4(24, 26, 32, 255))
    }
}

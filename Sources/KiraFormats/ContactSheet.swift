import KiraFiles
import KiraImage

/// A grid of frames, each scaled down (libswscale's Lanczos) and labelled with its time: an
/// animation on one page.
public enum ContactSheet {
    /// The most frames a sheet shows.
    public static let maxFrames = 24

    /// The tallest a cell may be, as a multiple of its width. A cell is as tall as the frame's aspect
    /// ratio asks up to this; a taller frame is shrunk to fit and centred, so that a tall, narrow
    /// canvas (5 × 4000, say) gives a sheet of bounded size – a few thousand pixels, within the
    /// 16384 a side Kira itself reads back – instead of one as tall as the frames' aspect ratio.
    /// Cards (5:7 and the like) are far below it and keep the cells they always had.
    public static let maxCellAspect = 4

    /// The size of a cell `cellWidth` wide for a frame of `frameWidth` × `frameHeight`, and of the
    /// frame scaled into it: the frame keeps its aspect ratio, fills the cell's width, and is made
    /// narrower only if it would be taller than ``maxCellAspect`` cell widths.
    public static func cellSize(frameWidth: Int, frameHeight: Int, cellWidth: Int)
        -> (cellHeight: Int, imageWidth: Int, imageHeight: Int) {
        precondition(frameWidth > 0 && frameHeight > 0 && cellWidth > 0, "a cell needs a frame and a width")
        let maxHeight = maxCellAspect * cellWidth
        // In Double: frameHeight × cellWidth may not fit in an Int for absurd sizes, and this is
        // never the place to crash.
        let natural = (Double(cellWidth) * Double(frameHeight) / Double(frameWidth)).rounded()
        guard natural > Double(maxHeight) else {
            let height = max(1, (cellWidth * frameHeight + frameWidth / 2) / frameWidth)
            return (height, cellWidth, height)
        }
        let width = max(1, Int((Double(maxHeight) * Double(frameWidth) / Double(frameHeight)).rounded()))
        return (maxHeight, min(cellWidth, width), maxHeight)
    }

    /// Which of `count` frames a sheet shows: all of them up to `limit`, otherwise `limit` frames
    /// spread evenly from the first to the last, both included.
    public static func frameIndices(count: Int, limit: Int = maxFrames) -> [Int] {
        guard count > limit else { return Array(0..<max(0, count)) }
        guard limit > 1 else { return Array(0..<max(0, limit)) }
        return (0..<limit).map { k in (k * (count - 1) + (limit - 1) / 2) / (limit - 1) }
    }

    /// Lays `frames` (with their times in seconds) out in `columns` columns of cells `cellWidth`
    /// pixels wide, over an opaque background of `background` (RGB, 0...255). Frames keep their
    /// aspect ratio (shrunk and centred to fit a cell at most ``maxCellAspect`` widths tall) and are
    /// composited over the background; each cell has its time below it unless `timed` is false.
    public static func make(frames: [(time: Double, image: RGBAImage<UInt8>)], columns: Int = 6,
                            cellWidth: Int = 200, background: SIMD3<UInt8> = SIMD3(24, 26, 32),
                            timed: Bool = true) throws(ImageFileError) -> RGBAImage<UInt8> {
        precondition(!frames.isEmpty && columns > 0 && cellWidth > 0, "a sheet needs frames, columns and a cell width")
        let first = frames[0].image
        let (cellHeight, imageWidth, imageHeight) = cellSize(frameWidth: first.width, frameHeight: first.height, cellWidth: cellWidth)
        let scale = max(1, cellWidth / 100)  // glyph pixel size
        let labelHeight = timed ? 9 * scale : 0
        let gap = 8
        let columns = min(columns, frames.count), rows = (frames.count + columns - 1) / columns
        let width = gap + columns * (cellWidth + gap)
        let height = gap + rows * (cellHeight + labelHeight + gap)
        var sheet = try RGBAImage<UInt8>.zeroed(width: width, height: height, path: "<contact sheet>")
        for i in stride(from: 0, to: sheet.channels.count, by: 4) {
            sheet.channels[i] = background.x
            sheet.channels[i + 1] = background.y
            sheet.channels[i + 2] = background.z
            sheet.channels[i + 3] = 255
        }
        for (index, frame) in frames.enumerated() {
            let x0 = gap + (index % columns) * (cellWidth + gap)
            let y0 = gap + (index / columns) * (cellHeight + labelHeight + gap)
            let cell = try frame.image.lanczosScaled(width: imageWidth, height: imageHeight)
            let left = x0 + (cellWidth - imageWidth) / 2
            for y in 0..<imageHeight {
                for x in 0..<imageWidth {
                    let p = cell[x, y]
                    let a = Int(p.w)
                    let under = sheet[left + x, y0 + y]
                    func over(_ top: UInt8, _ bottom: UInt8) -> UInt8 { UInt8((Int(top) * a + Int(bottom) * (255 - a) + 127) / 255) }
                    sheet[left + x, y0 + y] = SIMD4(over(p.x, under.x), over(p.y, under.y), over(p.z, under.z), 255)
                }
            }
            if timed { BitmapFont.draw(label(frame.time), into: &sheet, x: x0, y: y0 + cellHeight + 2 * scale, scale: scale) }
        }
        return sheet
    }

    /// "0.35 s": the time to the hundredth.
    static func label(_ time: Double) -> String {
        let hundredths = Int((time * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}

/// A 3 × 5 pixel font for digits, '.', 's' and space: enough to label times without a font library.
enum BitmapFont {
    static let glyphs: [Character: [String]] = [
        "0": ["###", "#.#", "#.#", "#.#", "###"], "1": [".#.", "##.", ".#.", ".#.", "###"],
        "2": ["###", "..#", "###", "#..", "###"], "3": ["###", "..#", "###", "..#", "###"],
        "4": ["#.#", "#.#", "###", "..#", "..#"], "5": ["###", "#..", "###", "..#", "###"],
        "6": ["###", "#..", "###", "#.#", "###"], "7": ["###", "..#", "..#", "..#", "..#"],
        "8": ["###", "#.#", "###", "#.#", "###"], "9": ["###", "#.#", "###", "..#", "###"],
        ".": ["...", "...", "...", "...", ".#."], "s": ["...", ".##", "#..", "..#", "##."], " ": ["...", "...", "...", "...", "..."],
    ]

    /// Draws `text` in light grey with its top-left corner at (`x`, `y`), each font pixel a
    /// `scale` × `scale` block; what falls outside the image is clipped.
    static func draw(_ text: String, into image: inout RGBAImage<UInt8>, x: Int, y: Int, scale: Int) {
        var penX = x
        for character in text {
            guard let rows = glyphs[character] else { continue }
            for (gy, row) in rows.enumerated() {
                for (gx, pixel) in row.enumerated() where pixel == "#" {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let px = penX + gx * scale + dx, py = y + gy * scale + dy
                            if px >= 0, py >= 0, px < image.width, py < image.height { image[px, py] = SIMD4(220, 220, 220, 255) }
                        }
                    }
                }
            }
            penX += 4 * scale
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WASILibc)
import WASILibc  // WebAssembly: wasi-libc's libm (scripts/build-web)
#endif

// The card front: a sapphire frame with gold trim around a cream panel, a title bar, a sunset
// mountain scene in the art window and a text box of glyph-like marks.

extension SampleCard {
    static func drawFront(on canvas: inout Canvas, layout: CardLayout) {
        // On tiny cards the anti-aliased fringes of inner parts would reach the corners.
        canvas.clip = layout.card
        drawFrame(&canvas, layout)
        drawTitleBar(&canvas, layout)
        drawArtWindow(&canvas, layout)
        drawTextBox(&canvas, layout)
    }
}

// MARK: - Palette

private enum Palette {
    static let ink = Color.hex(0x2B2119)
    static let softInk = Color.hex(0x5E5346)
    static let paleInk = Color.hex(0x85796A)
    static let rule = Color.hex(0xB09B70)
    static let goldDark = Color.hex(0x8C6626)
    static let goldLight = Color.hex(0xE8C878)
}

/// Brushed gold: bands of light and dark along a diagonal, so flat shapes read as metal.
private func gold(_ p: Point) -> Color {
    let u = (p.x * 0.45 - p.y) * 0.16
    return mix(Palette.goldDark, Palette.goldLight, 0.5 + 0.5 * sin(u + 0.8))
}

// MARK: - Frame and panel

private func drawFrame(_ canvas: inout Canvas, _ layout: CardLayout) {
    let card = layout.card, panel = layout.panel
    let blue = Gradient([(0, .hex(0x5A6CC8)), (0.45, .hex(0x35418F)), (1, .hex(0x222A66))])
    canvas.fill(card.box, shape: card.distance) { p in
        blue(clamp01((p.x * 0.4 + p.y) / 110 + 0.5))
    }

    // A faint engraved lattice on the frame gives the holo shine something to catch.
    let spacing: Float = 2.4
    let pixelsPerMM = canvas.pixelsPerMM
    canvas.fill(card.box, excluding: panel.innerBox, shape: { max(card.distance($0), -panel.distance($0)) }) { p in
        let u = (p.x + p.y) / spacing, v = (p.x - p.y) / spacing
        let du = abs(u - u.rounded()) * spacing, dv = abs(v - v.rounded()) * spacing
        let line = clamp01(0.5 - (min(du, dv) - 0.06) * pixelsPerMM)
        return Color.hex(0x9AA8F0, alpha: 0.16 * line)
    }
    let edge = card.inset(by: 0.55)
    canvas.stroke(edge, width: 0.22, color: .hex(0xB9C3F5, alpha: 0.35))

    // The gold trim sits just outside the panel, then the panel covers its inner half.
    let trim = panel.inset(by: -0.55)
    canvas.stroke(trim, width: 0.3, paint: gold)
    let goldEdge = panel.inset(by: -0.25)
    canvas.fill(goldEdge.box, excluding: panel.innerBox, shape: goldEdge.distance, paint: gold)

    let cream = Gradient([(-41, .hex(0xEEE4CB)), (0, .hex(0xE6DAC0)), (41, .hex(0xD9C9A8))])
    canvas.fill(panel.box, shape: panel.distance) { p in cream(p.y) }
}

// MARK: - Title bar

private func drawTitleBar(_ canvas: inout Canvas, _ layout: CardLayout) {
    let bar = layout.titleBar
    var shadow = bar
    shadow.center.y += 0.4
    canvas.fill(shadow.box, shape: shadow.distance, color: .hex(0x000000, alpha: 0.18))
    let top = bar.center.y - bar.halfSize.y, bottom = bar.center.y + bar.halfSize.y
    let fill = Gradient([(top, .hex(0xF6EBCD)), (bottom, .hex(0xD2B97F))])
    canvas.fill(bar.box, shape: bar.distance) { p in fill(p.y) }
    canvas.stroke(bar, width: 0.25, color: .hex(0x8A6C3A))

    let baseline = bar.center.y + 1.05
    drawText(&canvas, from: Point(-24.2, baseline), width: 19, capHeight: 2.3, color: Palette.ink, seed: 11,
             weight: 1.3)
    // "HP" and its value, right-aligned against the type emblem.
    drawText(&canvas, from: Point(11.8, baseline), width: 2.6, capHeight: 1.3, color: Palette.softInk, seed: 3)
    drawNumber(&canvas, "110", trailing: 20.4, baseline: baseline, capHeight: 2.4, color: Palette.ink)
    drawTypeEmblem(&canvas, center: Point(23.5, bar.center.y), radius: 2.15,
                   inner: .hex(0xF2904A), outer: .hex(0xAE3520))
}

/// A round energy-type symbol: a coloured disc with a pale four-point spark.
private func drawTypeEmblem(_ canvas: inout Canvas, center: Point, radius: Float, inner: Color, outer: Color) {
    let bounds = Box(center: center, halfSize: Point(repeating: radius + 0.3))
    canvas.fill(bounds, shape: { SDF.circle($0, center: center, radius: radius) }) { p in
        mix(inner, outer, clamp01(length(p - center - Point(-0.3, -0.4) * radius) / (1.4 * radius)))
    }
    canvas.fill(bounds, shape: { SDF.outline(SDF.circle($0, center: center, radius: radius), width: 0.22) },
                color: .hex(0x3A2416))
    let spark = starVertices(center: center, outer: radius * 0.68, inner: radius * 0.2, points: 4)
    canvas.fill(bounds, shape: { SDF.polygon($0, spark) }, color: .hex(0xFBE8C4))
}

// MARK: - Text

/// Abstract "text": words of glyph-like strokes (bowls, stems and arches) on a baseline, laid out
/// from `start` until `width` is used up. The same seed always writes the same words.
private func drawText(_ canvas: inout Canvas, from start: Point, width: Float, capHeight: Float,
                      color: Color, seed: Int, weight: Float = 1)
{
    let xHeight = capHeight * 0.7
    let stroke = max(capHeight * 0.15 * weight, 0.08)
    let letterGap = capHeight * 0.16
    let wordGap = capHeight * 0.55
    let end = start.x + width
    var x = start.x
    var n = seed &* 7919
    var lettersLeftInWord = 0
    while x < end {
        if lettersLeftInWord == 0 {
            lettersLeftInWord = 2 + Int(hash01(n) * 6)
            n += 1
        }
        let kind = hash01(n)
        n += 1
        let narrow = kind < 0.18
        let w = narrow ? stroke : xHeight * (0.8 + 0.3 * hash01(n))
        n += 1
        guard x + w <= end else { break }
        let bowl = RoundedRect(center: Point(x + w / 2, start.y - xHeight / 2), halfSize: Point(w / 2, xHeight / 2),
                               radius: min(w, xHeight) * 0.45)
        let ring = { (p: Point) -> Float in abs(bowl.distance(p) + stroke / 2) - stroke / 2 }
        let bounds = Box(min: Point(x, start.y - capHeight), max: Point(x + w, start.y))
        // A vertical stroke from the baseline up to `top`.
        let stemAt = { (side: Float, top: Float) -> RoundedRect in
            RoundedRect(center: Point(side, (start.y + top) / 2), halfSize: Point(stroke / 2, (start.y - top) / 2),
                        radius: stroke / 2)
        }
        // A notch in the bowl's right side, opening "c" and "e".
        let notch = RoundedRect(center: Point(x + w - stroke / 2, bowl.center.y + xHeight * 0.16),
                                halfSize: Point(stroke, xHeight * 0.14), radius: 0)
        switch kind {
        case ..<0.1:
            canvas.fill(bounds, shape: stemAt(x + w / 2, start.y - capHeight).distance, color: color)
        case ..<0.18:
            let stem = stemAt(x + w / 2, start.y - xHeight)
            let dot = Point(x + w / 2, start.y - xHeight - 2 * stroke)
            canvas.fill(bounds, shape: { min(stem.distance($0), SDF.circle($0, center: dot, radius: stroke * 0.7)) },
                        color: color)
        case ..<0.34:
            let stem = stemAt(kind < 0.26 ? x + w - stroke / 2 : x + stroke / 2, start.y - capHeight)
            canvas.fill(bounds, shape: { min(ring($0), stem.distance($0)) }, color: color)
        case ..<0.48:
            let bar = RoundedRect(center: bowl.center - Point(0, stroke * 0.2),
                                  halfSize: Point(w / 2 - stroke / 2, stroke / 2), radius: 0)
            canvas.fill(bounds, shape: { min(max(ring($0), -notch.distance($0)), bar.distance($0)) }, color: color)
        case ..<0.58:
            canvas.fill(bounds, shape: { max(ring($0), -notch.distance($0)) }, color: color)
        case ..<0.78:
            canvas.fill(bounds, shape: ring, color: color)
        default:
            // "n": the bowl's outline with its bottom edge cut away.
            let cut = RoundedRect(center: Point(bowl.center.x, start.y), halfSize: Point(w / 2 - stroke, stroke * 1.6),
                                  radius: 0)
            canvas.fill(bounds, shape: { max(ring($0), -cut.distance($0)) }, color: color)
        }
        x += w + letterGap
        lettersLeftInWord -= 1
        if lettersLeftInWord == 0 { x += wordGap }
    }
}

/// Bold numerals, right-aligned at `trailing`. Only "1" and "0" have shapes (anything else draws
/// as "0"): enough for hit points and damage to read as numbers. Read as ASCII bytes, so that
/// WebAssembly's standard library needs no Unicode tables.
private func drawNumber(_ canvas: inout Canvas, _ digits: String, trailing: Float, baseline: Float,
                        capHeight: Float, color: Color)
{
    let stroke = capHeight * 0.2
    let gap = capHeight * 0.12
    let one = UInt8(ascii: "1")
    let widths = digits.utf8.map { $0 == one ? capHeight * 0.42 : capHeight * 0.64 }
    var x = trailing - widths.reduce(0, +) - gap * Float(widths.count - 1)
    for (digit, w) in zip(digits.utf8, widths) {
        let bounds = Box(min: Point(x, baseline - capHeight), max: Point(x + w, baseline))
        if digit == one {
            let top = Point(x + w * 0.62, baseline - capHeight + stroke / 2)
            let foot = Point(top.x, baseline - stroke / 2)
            let flag = Point(x + stroke / 2, baseline - capHeight * 0.7)
            canvas.fill(bounds, shape: {
                min(SDF.capsule($0, top, foot, radius: stroke / 2), SDF.capsule($0, top, flag, radius: stroke / 2))
            }, color: color)
        } else {
            let oval = RoundedRect(center: Point(x + w / 2, baseline - capHeight / 2),
                                   halfSize: Point(w / 2, capHeight / 2), radius: w * 0.48)
            canvas.fill(bounds, shape: { abs(oval.distance($0) + stroke / 2) - stroke / 2 }, color: color)
        }
        x += w + gap
    }
}

// MARK: - Art window

private func drawArtWindow(_ canvas: inout Canvas, _ layout: CardLayout) {
    let art = layout.art, bevel = layout.artFrame
    var shadow = bevel
    shadow.center += Point(0.35, 0.45)
    canvas.fill(shadow.box, shape: shadow.distance, color: .hex(0x000000, alpha: 0.25))
    canvas.fill(bevel.box, shape: bevel.distance, paint: gold)
    canvas.stroke(bevel, width: 0.2, color: .hex(0x5A3F14))

    let outerClip = canvas.clip
    canvas.clip = art
    drawScene(&canvas, origin: art.center, halfSize: art.halfSize)
    canvas.clip = outerClip

    // A soft inner shadow seats the picture below the bevel.
    canvas.fill(art.box, excluding: art.inset(by: 1.2).innerBox, shape: art.distance) { p in
        Color.hex(0x0B0818, alpha: 0.5 * (1 - smoothstep(0, 1.1, -art.distance(p))))
    }
    canvas.stroke(art, width: 0.25, color: .hex(0x4A3310))

    // The info strip under the picture: a slanted gold ribbon with a line of tiny type.
    let y0 = bevel.center.y + bevel.halfSize.y + 0.6, y1 = y0 + 1.9
    let ribbon = [Point(-20.5, y0), Point(21.5, y0), Point(20.5, y1), Point(-21.5, y1)]
    let ribbonBox = Box(min: Point(-21.5, y0), max: Point(21.5, y1))
    canvas.fill(ribbonBox, shape: { SDF.polygon($0, ribbon) }, paint: gold)
    canvas.fill(ribbonBox, shape: { SDF.outline(SDF.polygon($0, ribbon), width: 0.16) }, color: .hex(0x5A3F14))
    drawText(&canvas, from: Point(-17, y1 - 0.55), width: 34, capHeight: 0.95, color: .hex(0x3B2A12), seed: 5)
}

/// A sunset over a mountain lake, in art-window millimetres around `origin` (x within ±26,
/// y within ±20, y down).
private func drawScene(_ canvas: inout Canvas, origin o: Point, halfSize: Point) {
    let everywhere = Box(center: o, halfSize: halfSize)
    let horizon = o.y + 5.5
    let sun = o + Point(4, -3.5)
    let sunRadius: Float = 8.5

    // Sky with the sun's glow and faint rays.
    let sky = Gradient([
        (-20, .hex(0x191C4C)), (-11, .hex(0x33286C)), (-3, .hex(0x7A3A82)), (2.5, .hex(0xC4585C)),
        (5.5, .hex(0xE3804E)),
    ])
    let glow = Color.hex(0xF59A5A)
    canvas.fill(everywhere) { p in
        let d = p - sun
        let r = length(d)
        var c = sky(p.y - o.y)
        c = mix(c, glow, 0.55 * exp(-r * r / (2 * 10 * 10)))
        let ray = smoothstep(0.35, 0.8, cos(atan2(d.y, d.x) * 14 + 0.4))
        return mix(c, .hex(0xFFCF8E), ray * 0.14 * exp(-r / 16) * smoothstep(sunRadius, sunRadius + 3, r))
    }

    // Stars: four-point sparkles and small dots, kept clear of the sun.
    for i in 0..<26 {
        let s = Point(-24 + 48 * hash01(3 * i + 1), -19 + 13 * hash01(3 * i + 2)) + o
        if length(s - sun) < sunRadius + 3 { continue }
        let size = 0.3 + 0.8 * hash01(3 * i + 3) * hash01(3 * i + 3)
        let alpha = 0.9 - 0.5 * clamp01((s.y - o.y + 19) / 13)
        let color = Color.hex(0xFFEFD6, alpha: alpha)
        let bounds = Box(center: s, halfSize: Point(repeating: size * 1.8))
        if size > 0.6 {
            let sparkle = starVertices(center: s, outer: size * 1.7, inner: size * 0.3, points: 4)
            canvas.fill(bounds, shape: { SDF.polygon($0, sparkle) }, color: color)
        } else {
            canvas.fill(bounds, shape: { SDF.circle($0, center: s, radius: max(size * 0.4, 0.12)) }, color: color)
        }
    }

    // The sun, striped across its lower half.
    let sunColor = Gradient([(-sunRadius, .hex(0xF5BC66)), (0, .hex(0xF59A58)), (sunRadius, .hex(0xE5604C))])
    canvas.fill(Box(center: sun, halfSize: Point(repeating: sunRadius))) { p in
        var bands = Float.infinity
        for k in 0..<5 {
            let y = sun.y + 1.0 + Float(k) * 1.55
            bands = min(bands, abs(p.y - y) - (0.2 + 0.16 * Float(k)))
        }
        return max(SDF.circle(p, center: sun, radius: sunRadius), -bands)
    } paint: { p in
        sunColor(p.y - sun.y)
    }

    // Two mountain ranges with a band of warm haze between them.
    let baseY = o.y + 7.5
    let far: [(x: Float, y: Float, halfBase: Float)] = [(-22, -2.5, 10), (-10, -0.5, 8), (12, -1.5, 9), (23, -3.5, 9)]
    for m in far {
        drawMountain(&canvas, peak: o + Point(m.x, m.y), halfBase: m.halfBase, baseY: baseY, sunX: sun.x,
                     lit: .hex(0x9A5C98), shadow: .hex(0x74467F), snow: nil)
    }
    canvas.fill(everywhere) { p in
        let t = (p.y - o.y - 3) / 3
        return Color.hex(0xE8855E, alpha: 0.5 * exp(-t * t))
    }
    let near: [(x: Float, y: Float, halfBase: Float)] = [
        (-16, -9, 13), (-3.5, -2.5, 8), (17, -10.5, 13), (27.5, -4, 8),
    ]
    for m in near {
        drawMountain(&canvas, peak: o + Point(m.x, m.y), halfBase: m.halfBase, baseY: baseY, sunX: sun.x,
                     lit: .hex(0x5C4A96), shadow: .hex(0x2E2962),
                     snow: (lit: .hex(0xDFC4DA), shadow: .hex(0x9A86C0)))
    }

    drawLake(&canvas, origin: o, halfSize: halfSize, horizon: horizon, sun: sun, near: near, baseY: baseY)
    drawForeground(&canvas, origin: o)

    // A vignette draws the eye to the sun.
    canvas.fill(everywhere) { p in
        let q = (p - o) / halfSize
        return Color.hex(0x0D0A22, alpha: 0.5 * smoothstep(0.6, 1.15, length(q)))
    }
}

/// One triangular peak, its sun-facing half lit, with an optional jagged snow cap.
private func drawMountain(_ canvas: inout Canvas, peak: Point, halfBase: Float, baseY: Float, sunX: Float,
                          lit: Color, shadow: Color, snow: (lit: Color, shadow: Color)?)
{
    let left = Point(peak.x - halfBase, baseY), right = Point(peak.x + halfBase, baseY)
    let triangle = [peak, right, left]
    let bounds = Box(min: Point(left.x, peak.y), max: Point(right.x, baseY))
    let litRight = peak.x < sunX
    // The ridge line leans away from the sun, so the lit face is the broader one.
    let ridgeFoot = Point(peak.x + (litRight ? -0.25 : 0.25) * halfBase, baseY)
    let litSide: (Point) -> Float = { p in
        litRight ? SDF.halfPlane(p, peak, ridgeFoot) : SDF.halfPlane(p, ridgeFoot, peak)
    }
    let haze = Color.hex(0xB0607A)
    let height = baseY - peak.y
    let shade = { (base: Color, p: Point) -> Color in mix(base, haze, 0.35 * clamp01((p.y - peak.y) / height)) }
    canvas.fill(bounds, shape: { SDF.polygon($0, triangle) }) { p in shade(shadow, p) }
    canvas.fill(bounds, shape: { max(SDF.polygon($0, triangle), litSide($0)) }) { p in shade(lit, p) }

    guard let snow else { return }
    let depth: Float = 0.3
    let a = peak + (left - peak) * depth, b = peak + (right - peak) * depth
    var cap = [peak, b]
    for (i, t) in [Float(0.2), 0.4, 0.6, 0.8].enumerated() {
        let jag = (i.isMultiple(of: 2) ? 0.09 : -0.04) * height
        cap.append(b + (a - b) * t + Point(0, jag))
    }
    cap.append(a)
    let capBounds = Box(min: Point(a.x, peak.y), max: Point(b.x, a.y + 0.1 * height))
    canvas.fill(capBounds, shape: { SDF.polygon($0, cap) }, color: snow.shadow)
    canvas.fill(capBounds, shape: { max(SDF.polygon($0, cap), litSide($0)) }, color: snow.lit)
}

private func drawLake(_ canvas: inout Canvas, origin o: Point, halfSize: Point, horizon: Float, sun: Point,
                      near: [(x: Float, y: Float, halfBase: Float)], baseY: Float)
{
    let lakeBox = Box(min: Point(o.x - halfSize.x, horizon), max: o + halfSize)
    let water = Gradient([(horizon, .hex(0x6A3F78)), (horizon + 4, .hex(0x3D2E6A)), (o.y + 20, .hex(0x1B1C48))])
    let glow = Color.hex(0xE98A5A)
    let belowHorizon: (Point) -> Float = { p in horizon - p.y }
    canvas.fill(lakeBox, shape: belowHorizon) { p in
        let dx = (p.x - sun.x) / 7
        let fade = exp(-(p.y - horizon) / 6)
        return mix(water(p.y), glow, 0.45 * exp(-dx * dx) * fade)
    }

    // Reflections of the near range, upside down about the waterline.
    for m in near {
        let peak = Point(o.x + m.x, 2 * horizon - (o.y + m.y))
        let foot = 2 * horizon - baseY
        let mirrored = [peak, Point(peak.x - m.halfBase, foot), Point(peak.x + m.halfBase, foot)]
        let bounds = Box(min: Point(peak.x - m.halfBase, horizon), max: Point(peak.x + m.halfBase, peak.y))
        canvas.fill(bounds, shape: { max(SDF.polygon($0, mirrored), belowHorizon($0)) }) { p in
            Color.hex(0x221C4E, alpha: 0.55 * (1 - 0.6 * clamp01((p.y - horizon) / 12)))
        }
    }

    // The sun's path on the water: broken streaks narrowing towards the viewer.
    for k in 0..<8 {
        let kf = Float(k)
        let y = horizon + 0.9 + kf * 1.3
        let half = 6.0 * (1 - 0.1 * kf) * (0.75 + 0.5 * hash01(40 + k))
        let cx = sun.x + (hash01(60 + k) - 0.5) * 1.6
        let r = 0.18 + 0.05 * kf
        let a = Point(cx - half, y), b = Point(cx + half, y)
        let color = Color.hex(0xF3A15C, alpha: 0.8 - 0.07 * kf)
        canvas.fill(Box(min: Point(a.x - r, y - r), max: Point(b.x + r, y + r)),
                    shape: { SDF.capsule($0, a, b, radius: r) }, color: color)
    }
    for k in 0..<12 {
        let y = horizon + 1.5 + 13 * hash01(80 + k)
        let cx = o.x - 24 + 48 * hash01(100 + k)
        if abs(cx - sun.x) < 8 { continue }
        let half = 1.5 + 3 * hash01(120 + k)
        let a = Point(cx - half, y), b = Point(cx + half, y)
        canvas.fill(Box(min: Point(a.x - 0.2, y - 0.2), max: Point(b.x + 0.2, y + 0.2)),
                    shape: { SDF.capsule($0, a, b, radius: 0.1) }, color: .hex(0xB58AD0, alpha: 0.3))
    }
    let shore = (Point(o.x - halfSize.x, horizon), Point(o.x + halfSize.x, horizon))
    canvas.fill(Box(min: shore.0 - 0.3, max: shore.1 + 0.3), shape: { SDF.capsule($0, shore.0, shore.1, radius: 0.12) },
                color: .hex(0xF2A070, alpha: 0.55))
}

/// Dark shore hills with pines, framing the lake.
private func drawForeground(_ canvas: inout Canvas, origin o: Point) {
    let hills: [(center: Point, radius: Float)] = [(o + Point(-31, 31), 21.5), (o + Point(37, 34), 20.5)]
    let ground = Gradient([(o.y + 8, .hex(0x2A2150)), (o.y + 20, .hex(0x100D26))])
    for hill in hills {
        let bounds = Box(center: hill.center, halfSize: Point(repeating: hill.radius))
        canvas.fill(bounds, shape: { SDF.circle($0, center: hill.center, radius: hill.radius) }) { p in ground(p.y) }
        // Rim light from the sunset along the crest.
        let crest = { (p: Point) in SDF.circle(p, center: hill.center, radius: hill.radius - 0.2) }
        canvas.fill(bounds, shape: { SDF.outline(crest($0), width: 0.3) }) { p in
            Color.hex(0xE07A62, alpha: 0.6 * clamp01((hill.center.y - p.y) / hill.radius - 0.5))
        }
    }

    let pines: [(x: Float, height: Float, hill: Int)] = [
        (-25.5, 10, 0), (-22, 13.5, 0), (-18.5, 8.5, 0), (-15.5, 6, 0), (20, 6.5, 1), (23, 8.5, 1),
    ]
    for pine in pines {
        let hill = hills[pine.hill]
        let x = o.x + pine.x
        let dx = x - hill.center.x
        let ground = hill.center.y - (hill.radius * hill.radius - dx * dx).squareRoot() + 1.2
        drawPine(&canvas, base: Point(x, ground), height: pine.height)
    }
}

private func drawPine(_ canvas: inout Canvas, base: Point, height h: Float) {
    let tiers = (0..<3).map { j -> [Point] in
        let jf = Float(j)
        let top = base.y - h + jf * h * 0.24
        let bottom = top + h * 0.42
        let half = h * (0.15 + 0.06 * jf)
        return [Point(base.x, top), Point(base.x + half, bottom), Point(base.x - half, bottom)]
    }
    let trunk = RoundedRect(center: Point(base.x, base.y - h * 0.08), halfSize: Point(h * 0.035, h * 0.1), radius: 0)
    let bounds = Box(min: Point(base.x - h * 0.28, base.y - h), max: Point(base.x + h * 0.28, base.y + 0.1))
    canvas.fill(bounds, shape: { p in
        min(trunk.distance(p), min(SDF.polygon(p, tiers[0]), min(SDF.polygon(p, tiers[1]), SDF.polygon(p, tiers[2]))))
    }, color: .hex(0x120E28))
}

// MARK: - Text box

private func drawTextBox(_ canvas: inout Canvas, _ layout: CardLayout) {
    let box = layout.textBox
    let left = box.center.x - box.halfSize.x, right = box.center.x + box.halfSize.x
    let top = box.center.y - box.halfSize.y
    canvas.fill(box.box, shape: box.distance) { p in
        mix(.hex(0xF3ECDC), .hex(0xE9DFC8), clamp01((p.y - top) / (2 * box.halfSize.y)))
    }
    canvas.stroke(box, width: 0.22, color: Palette.rule)

    // The attack: its cost, name and damage.
    let row = top + 3.6
    drawTypeEmblem(&canvas, center: Point(left + 3.4, row - 0.9), radius: 1.25,
                   inner: .hex(0xF2904A), outer: .hex(0xAE3520))
    drawTypeEmblem(&canvas, center: Point(left + 6.4, row - 0.9), radius: 1.25,
                   inner: .hex(0xC9C4BA), outer: .hex(0x8A847A))
    drawText(&canvas, from: Point(left + 9.2, row), width: 17, capHeight: 2.0, color: Palette.ink, seed: 21,
             weight: 1.3)
    drawNumber(&canvas, "100", trailing: right - 2.4, baseline: row + 0.2, capHeight: 2.6, color: Palette.ink)

    // The rules text, its last line short.
    for (i, fraction) in [Float(1), 1, 0.62].enumerated() {
        drawText(&canvas, from: Point(left + 2.6, row + 3.6 + Float(i) * 2.6), width: 48 * fraction, capHeight: 1.2,
                 color: Palette.softInk, seed: 31 + i)
    }

    let ruleY = row + 11.2
    let ruleA = Point(left + 2, ruleY), ruleB = Point(right - 2, ruleY)
    canvas.fill(Box(min: ruleA - 0.3, max: ruleB + 0.3), shape: { SDF.capsule($0, ruleA, ruleB, radius: 0.09) },
                color: Palette.rule)

    // Weakness, resistance and retreat cost.
    let statsY = ruleY + 3.2
    let stats: [(x: Float, inner: Color, outer: Color)] = [
        (left + 2.6, .hex(0x7FB2E8), .hex(0x2F5FA8)),
        (left + 19.6, .hex(0xA6C864), .hex(0x4E7A22)),
        (left + 36.6, .hex(0xC9C4BA), .hex(0x8A847A)),
    ]
    for (i, stat) in stats.enumerated() {
        drawText(&canvas, from: Point(stat.x, statsY), width: 7, capHeight: 0.95, color: Palette.paleInk, seed: 50 + i)
        drawTypeEmblem(&canvas, center: Point(stat.x + 9.4, statsY - 0.45), radius: 0.85,
                       inner: stat.inner, outer: stat.outer)
    }

    // Flavour text, then the illustrator credit and the set details under the box.
    drawText(&canvas, from: Point(left + 8, statsY + 3.0), width: 36, capHeight: 0.95, color: Palette.paleInk, seed: 61)
    let footY = box.center.y + box.halfSize.y + 2.4
    drawText(&canvas, from: Point(left + 0.5, footY), width: 13, capHeight: 0.85, color: Palette.softInk, seed: 71)
    let symbol = Point(right - 8.2, footY - 0.45)
    canvas.fill(Box(center: symbol, halfSize: Point(1, 1)), shape: { SDF.circle($0, center: symbol, radius: 0.7) },
                color: Palette.softInk)
    let rarity = starVertices(center: Point(right - 6, footY - 0.5), outer: 0.85, inner: 0.36, points: 5)
    canvas.fill(Box(center: Point(right - 6, footY - 0.5), halfSize: Point(1, 1)), shape: { SDF.polygon($0, rarity) },
                color: Palette.ink)
    drawText(&canvas, from: Point(right - 4.4, footY), width: 4.4, capHeight: 0.85, color: Palette.softInk, seed: 81)
}

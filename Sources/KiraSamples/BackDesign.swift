#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WASILibc)
import WASILibc  // WebAssembly: wasi-libc's libm (scripts/build-web)
#endif

// The card back: deep blue with a diamond lattice, gold rules and a central compass-star medallion.
// Every shape is centred on the card or evaluated at the point folded into one quadrant (`fold`),
// so the design is exactly symmetric about both axes; only the small mark in the top-left corner
// breaks it.

extension SampleCard {
    static func drawBack(on canvas: inout Canvas, layout: CardLayout) {
        let card = layout.card
        let panel = backPanel(card)
        canvas.clip = card
        drawBackground(&canvas, card: card, panel: panel)
        drawBorders(&canvas, panel: panel)
        drawMedallion(&canvas)
        drawOrientationMark(&canvas, panel: panel)
    }

    /// The blue panel inside the back's navy border.
    static func backPanel(_ card: RoundedRect) -> RoundedRect {
        RoundedRect(center: .zero, halfSize: card.halfSize - Point(4, 4), radius: max(card.radius - 4, 2))
    }

    /// The medallion's outer gold ellipse (semi-axes in millimetres).
    static let backMedallionRadii = Point(20, 27)
}

private let goldDark = Color.hex(0x9A7430)
private let goldLight = Color.hex(0xF0D488)

/// Gold with bands that depend only on |x| and |y|, so it keeps the symmetry.
private func symmetricGold(_ p: Point) -> Color {
    let q = fold(p)
    return mix(goldDark, goldLight, 0.5 + 0.5 * cos((q.x * 0.5 + q.y) * 0.22))
}

private func drawBackground(_ canvas: inout Canvas, card: RoundedRect, panel: RoundedRect) {
    let navy = Gradient([(0, .hex(0x1E2C66)), (1, .hex(0x0C1334))])
    canvas.fill(card.box, shape: card.distance) { p in navy(length(p / card.halfSize)) }
    let hairline = card.inset(by: 0.6)
    canvas.stroke(hairline, width: 0.2, color: .hex(0x8FA8E8, alpha: 0.35))

    let blue = Gradient([(0, .hex(0x3C78D6)), (0.55, .hex(0x2653AA)), (1.05, .hex(0x132C6C))])
    canvas.fill(panel.box, shape: panel.distance) { p in blue(length(p / panel.halfSize)) }

    // A diamond lattice with dots at the crossings, fading out behind the medallion.
    let spacing: Float = 4.2
    let pixelsPerMM = canvas.pixelsPerMM
    canvas.fill(panel.box, shape: panel.distance) { p in
        let q = fold(p)
        let u = (q.x + q.y) / spacing, v = (q.x - q.y) / spacing
        let ku = u.rounded(), kv = v.rounded()
        let line = min(abs(u - ku), abs(v - kv)) * spacing / Float(2).squareRoot()
        let crossing = Point((ku + kv) * spacing / 2, (ku - kv) * spacing / 2)
        let dot = length(q - crossing) - 0.38
        let lineCoverage = clamp01(0.5 - (line - 0.07) * pixelsPerMM)
        let dotCoverage = clamp01(0.5 - dot * pixelsPerMM)
        let fade = smoothstep(12, 24, length(q / Point(1, 1.3)))
        return Color.hex(0x9EC2FF, alpha: fade * max(0.16 * lineCoverage, 0.3 * dotCoverage))
    }
}

private func drawBorders(_ canvas: inout Canvas, panel: RoundedRect) {
    canvas.stroke(panel, width: 0.3, color: .hex(0x0A1230))
    let rule = panel.inset(by: 1.3), fine = panel.inset(by: 1.9)
    canvas.stroke(rule, width: 0.28, paint: symmetricGold)
    canvas.stroke(fine, width: 0.12, color: goldLight.withAlpha(0.55))

    // Corner arcs around each corner of the gold rule, and small diamonds on the edge midpoints.
    let corner = rule.halfSize
    let ornamentFree = Box(center: .zero, halfSize: corner - 6.6)
    canvas.fill(panel.box, excluding: ornamentFree, shape: { p in
        let q = fold(p)
        let arcs = min(SDF.outline(SDF.circle(q, center: corner, radius: 5.2), width: 0.3),
                       SDF.outline(SDF.circle(q, center: corner, radius: 6.4), width: 0.14))
        return max(arcs, rule.distance(q))
    }, paint: symmetricGold)
    let diamonds = [
        [Point(0, corner.y - 1.2), Point(1.1, corner.y), Point(0, corner.y + 1.2), Point(-1.1, corner.y)],
        [Point(corner.x, -1.6), Point(corner.x + 0.8, 0), Point(corner.x, 1.6), Point(corner.x - 0.8, 0)],
    ]
    canvas.fill(panel.box, excluding: ornamentFree, shape: { p in
        let q = fold(p)
        return min(SDF.polygon(q, diamonds[0]), SDF.polygon(q, diamonds[1]))
    }, paint: symmetricGold)
}

private func drawMedallion(_ canvas: inout Canvas) {
    let outerRing = SampleCard.backMedallionRadii
    let bounds = Box(center: .zero, halfSize: outerRing + 1)

    // A glow with fine rays fanning out to the gold ellipse.
    let step = Float.pi / 16
    let pixelsPerMM = canvas.pixelsPerMM
    canvas.fill(bounds, shape: { SDF.ellipse(fold($0), center: .zero, radii: outerRing) }) { p in
        let q = fold(p)
        let r = length(q / Point(1, 1.3))
        let angle = atan2(q.y, q.x)
        let ray = abs(angle - (angle / step).rounded() * step) * length(q) - (0.1 + 0.018 * r)
        let rayCoverage = clamp01(0.5 - ray * pixelsPerMM) * smoothstep(8, 11, r)
        let glow = 0.4 * exp(-r * r / (2 * 9 * 9))
        return Color.hex(0xA9CCFF, alpha: max(glow, 0.3 * rayCoverage))
    }
    // Inside both rings: the box inscribed in the inner one (semi-axes over √2), with room to spare.
    let insideRings = Box(center: .zero, halfSize: (outerRing - 1.6) * 0.7)
    canvas.fill(bounds, excluding: insideRings,
                shape: { SDF.outline(SDF.ellipse(fold($0), center: .zero, radii: outerRing), width: 0.5) },
                paint: symmetricGold)
    canvas.fill(bounds, excluding: insideRings,
                shape: { SDF.outline(SDF.ellipse(fold($0), center: .zero, radii: outerRing - 1.4), width: 0.16) },
                color: goldLight.withAlpha(0.7))

    // The classic card-back diamond.
    let rhombus = [Point(0, -20), Point(13, 0), Point(0, 20), Point(-13, 0)]
    let innerRhombus = [Point(0, -18.2), Point(11.8, 0), Point(0, 18.2), Point(-11.8, 0)]
    let deep = Gradient([(0, .hex(0x2A5CB8)), (1, .hex(0x0F2360))])
    canvas.fill(bounds, shape: { SDF.polygon(fold($0), rhombus) }) { p in
        deep(length(fold(p) / Point(13, 20)))
    }
    canvas.fill(bounds, shape: { SDF.outline(SDF.polygon(fold($0), rhombus), width: 0.4) }, paint: symmetricGold)
    canvas.fill(bounds, shape: { SDF.outline(SDF.polygon(fold($0), innerRhombus), width: 0.15) },
                color: goldLight.withAlpha(0.6))

    // The medallion: a gold-ringed disc holding a compass star.
    let disc = Box(center: .zero, halfSize: Point(8.5, 8.5))
    canvas.fill(disc, shape: { SDF.circle($0, center: .zero, radius: 7.6) }) { p in
        mix(.hex(0x3A74D2), .hex(0x163A88), clamp01(length(p) / 7.6))
    }
    canvas.fill(disc, shape: { SDF.outline(SDF.circle($0, center: .zero, radius: 7.6), width: 0.5) },
                paint: symmetricGold)
    canvas.fill(disc, shape: { SDF.outline(SDF.circle($0, center: .zero, radius: 6.7), width: 0.14) },
                color: goldLight.withAlpha(0.7))
    let diagonalStar = starVertices(center: .zero, outer: 4.6, inner: 1.3, points: 4, rotation: .pi / 4)
    let star = starVertices(center: .zero, outer: 6.3, inner: 1.5, points: 4)
    let starGold = { (p: Point) -> Color in mix(goldLight, goldDark, clamp01(length(p) / 6.3)) }
    canvas.fill(disc, shape: { SDF.polygon(fold($0), diagonalStar) }) { p in
        starGold(p) * Color(0.8, 0.8, 0.85, 1)
    }
    canvas.fill(disc, shape: { SDF.polygon(fold($0), star) }, paint: starGold)
    canvas.fill(disc, shape: { SDF.circle($0, center: .zero, radius: 1.3) }, color: .hex(0x12285E))
    canvas.fill(disc, shape: { SDF.outline(SDF.circle($0, center: .zero, radius: 1.3), width: 0.3) },
                paint: symmetricGold)
}

/// A small ringed spark in the top-left corner only: the one detail that shows whether the back
/// is mirrored.
private func drawOrientationMark(_ canvas: inout Canvas, panel: RoundedRect) {
    // Inside the corner arcs, clear of the gold rule 1.3 mm in from the panel edge.
    let center = -(panel.halfSize - 3.6)
    let bounds = Box(center: center, halfSize: Point(2, 2))
    let spark = starVertices(center: center, outer: 1.15, inner: 0.32, points: 4)
    canvas.fill(bounds, shape: { SDF.circle($0, center: center, radius: 1.5) }, color: .hex(0x10245A))
    canvas.fill(bounds, shape: { SDF.outline(SDF.circle($0, center: center, radius: 1.5), width: 0.26) },
                color: goldLight)
    canvas.fill(bounds, shape: { SDF.polygon($0, spark) }, color: goldLight)
}

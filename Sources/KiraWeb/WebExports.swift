import KiraAnimation
import KiraGeometry
import KiraImage
import KiraRender
import KiraShader

// The functions the browser's module calls (scripts/build-web exports every `kira_` name here;
// web/kira.js wraps them). WebAssembly runs them on one thread, one call at a time: the state
// below is never touched by two at once. Each returns 0 when it made its image (or did its
// work), else 1 with a one-line message at `kira_message()`.

/// The module's card, renderer, buffers and last message.
private final class WebState {
    let renderer = WebRenderer()
    /// The card a pointer drags and a tap flips (`<kira-card>`), and its last pose.
    var motion = InteractiveCard()
    var pose: [Double] = [0, 0, 0]
    /// Where the browser writes a card file's bytes for `kira_card_load`.
    var staging: UnsafeMutableRawBufferPointer?
    var message: [UInt8] = []

    func fail(_ description: String) -> Int32 {
        message = Array(description.utf8)
        return 1
    }
}

nonisolated(unsafe) private let state = WebState()

/// A buffer of `bytes` bytes for a card file's contents (uncompressed), replacing the last one.
@_cdecl("kira_card_buffer")
public func kiraCardBuffer(_ bytes: Int32) -> UnsafeMutableRawPointer? {
    state.staging?.deallocate()
    state.staging = nil
    guard bytes > 0 else { return nil }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(bytes), alignment: 16)
    state.staging = buffer
    return buffer.baseAddress
}

/// Reads the card file in the buffer (its first `bytes` bytes) and uses its card from now on.
@_cdecl("kira_card_load")
public func kiraCardLoad(_ bytes: Int32) -> Int32 {
    guard let staging = state.staging, bytes >= 0, Int(bytes) <= staging.count else {
        return state.fail("no card file in the buffer (kira_card_buffer first)")
    }
    defer {
        staging.deallocate()
        state.staging = nil
    }
    do {
        try state.renderer.load(cardFile: UnsafeRawBufferPointer(rebasing: staging[0..<Int(bytes)]))
        return 0
    } catch {
        return state.fail(error.description)
    }
}

/// Uses the built-in sample card from now on (the card until a file is loaded).
@_cdecl("kira_sample_card")
public func kiraSampleCard() -> Int32 {
    state.renderer.useSampleCard()
    return 0
}

/// Shades the front face (the back when `back` is 1), as `kira shade` does.
@_cdecl("kira_shade")
public func kiraShade(_ tiltX: Double, _ tiltY: Double, _ back: Int32, _ foil: Int32, _ intensity: Double,
                      _ glare: Double) -> Int32 {
    guard let parameters = parameters(foil: foil, intensity: intensity, glare: glare) else {
        return state.fail(foilProblem(foil))
    }
    do {
        try state.renderer.shade(tiltX: tiltX, tiltY: tiltY, back: back != 0, parameters: parameters)
        return 0
    } catch {
        return state.fail(error.description)
    }
}

/// Draws the card on screen, as `kira render` does. `axis` is 0 for y, 1 for x, 2 for the
/// diagonal; `width` and `height` 0 ask for the default canvas; `scale` NaN for none; `background`
/// is 0xRRGGBB, or -1 for transparent.
@_cdecl("kira_render")
public func kiraRender(_ tiltX: Double, _ tiltY: Double, _ flip: Double, _ axis: Int32, _ perspective: Double,
                       _ tiltPerspective: Double, _ crossfade: Int32, _ width: Int32, _ height: Int32, _ scale: Double,
                       _ fit: Int32, _ background: Int32, _ foil: Int32, _ intensity: Double, _ glare: Double) -> Int32 {
    guard let parameters = parameters(foil: foil, intensity: intensity, glare: glare) else {
        return state.fail(foilProblem(foil))
    }
    let axes: [CardPose.FlipAxis] = [.y, .x, .diagonal]
    guard axes.indices.contains(Int(axis)) else { return state.fail("the flip axis must be 0 (y), 1 (x) or 2 (xy), not \(axis)") }
    let limits = ImageLimits.standard
    let size: (width: Int, height: Int)?
    if width == 0, height == 0 {
        size = nil
    } else {
        guard (1...limits.maxSide).contains(Int(width)), (1...limits.maxSide).contains(Int(height)) else {
            return state.fail("the size must be WIDTHxHEIGHT with each side 1...\(limits.maxSide), not \(width)x\(height)")
        }
        size = (Int(width), Int(height))
    }
    let pose = CardPose(tiltX: tiltX, tiltY: tiltY, flip: flip, flipAxis: axes[Int(axis)],
                        flipPerspective: perspective, tiltPerspective: tiltPerspective)
    do {
        try state.renderer.render(pose: pose, crossfade: crossfade != 0, size: size, scale: scale.isNaN ? nil : scale,
                                  fit: fit != 0, background: background < 0 ? .transparent : FrameBackground(rgb: UInt32(background)),
                                  parameters: parameters)
        return 0
    } catch {
        return state.fail(error.description)
    }
}

/// The last image's RGBA bytes (straight alpha, rows top to bottom), valid until the next call.
@_cdecl("kira_image")
public func kiraImage() -> UnsafeRawPointer? {
    state.renderer.image.channels.withUnsafeBytes { $0.baseAddress }
}

@_cdecl("kira_image_width")
public func kiraImageWidth() -> Int32 { Int32(state.renderer.image.width) }

@_cdecl("kira_image_height")
public func kiraImageHeight() -> Int32 { Int32(state.renderer.image.height) }

/// The last failure's message, UTF-8, `kira_message_length()` bytes.
@_cdecl("kira_message")
public func kiraMessage() -> UnsafeRawPointer? {
    state.message.withUnsafeBytes { $0.baseAddress }
}

@_cdecl("kira_message_length")
public func kiraMessageLength() -> Int32 { Int32(state.message.count) }

// The card in the hand: input goes in as it comes, stamped with the page's clock in seconds, and
// the pose comes out at any time, with the seed's drag mapping, clamp and springs
// (InteractiveCard), so the page holds no motion of its own.

/// The pointer is `dx`, `dy` CSS pixels (right, down) from where it was pressed.
@_cdecl("kira_motion_drag")
public func kiraMotionDrag(_ dx: Double, _ dy: Double) { state.motion.drag(dx: dx, dy: dy) }

/// A phone's orientation in degrees from where it was first held.
@_cdecl("kira_motion_orient")
public func kiraMotionOrient(_ beta: Double, _ gamma: Double) { state.motion.orient(beta: beta, gamma: gamma) }

/// The pointer is up at `time`: the card springs back to rest.
@_cdecl("kira_motion_release")
public func kiraMotionRelease(_ time: Double) { state.motion.release(at: time) }

/// A tap at `time`: the card turns to its other face.
@_cdecl("kira_motion_flip")
public func kiraMotionFlip(_ time: Double) { state.motion.toggleFlip(at: time) }

/// The clamp of the tilts in degrees (1...45; the seed's is 10).
@_cdecl("kira_motion_tilt_limit")
public func kiraMotionTiltLimit(_ degrees: Double) { state.motion.setTiltLimit(degrees) }

/// 1: no springs, the card jumps to its targets (`prefers-reduced-motion`).
@_cdecl("kira_motion_reduced")
public func kiraMotionReduced(_ on: Int32) { state.motion.reducedMotion = on != 0 }

/// 1 while a spring has not settled at `time`.
@_cdecl("kira_motion_moving")
public func kiraMotionMoving(_ time: Double) -> Int32 { state.motion.isMoving(at: time) ? 1 : 0 }

/// 1 when the card is turning to (or shows) its back.
@_cdecl("kira_motion_shows_back")
public func kiraMotionShowsBack() -> Int32 { state.motion.showsBack ? 1 : 0 }

/// The card's pose at `time`: three doubles, the tilts about x and y and the flip, in degrees
/// (drawn with the faces crossfading by flip angle, as the seed's card draws them).
@_cdecl("kira_motion_pose")
public func kiraMotionPose(_ time: Double) -> UnsafeRawPointer? {
    let pose = state.motion.state(at: time).pose
    state.pose = [pose.tiltX, pose.tiltY, pose.flip]
    return state.pose.withUnsafeBytes { $0.baseAddress }
}

/// The seed's parameters with this look, or nil for a foil Kira does not have (the intensity and
/// glare are checked by the renderer).
private func parameters(foil: Int32, intensity: Double, glare: Double) -> KiraParameters? {
    guard let foil = Foil(index: Int(foil)) else { return nil }
    var parameters = KiraParameters.seed
    parameters.foil = foil
    parameters.intensity = Float(intensity)
    parameters.glare = Float(glare)
    return parameters
}

private func foilProblem(_ foil: Int32) -> String {
    "the foil must be 0...\(FoilRegistry.names.count - 1) (\(FoilRegistry.names.joined(separator: ", "))), not \(foil)"
}

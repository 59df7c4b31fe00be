import Kira

/// The entries of ``RenderRequest/parameters`` the option groups declare, by name; a misspelt
/// name stops every command at once (and the tests with it).
enum RenderParameters {
    static func entry(_ name: String) -> RequestParameter<RenderRequest> {
        guard let entry = RenderRequest.parameter(named: name) else { fatalError("no render parameter \(name)") }
        return entry
    }

    static let art = entry("art"), mask = entry("mask"), back = entry("back"), backMask = entry("back_mask")
    static let foilMap = entry("foil_map")
    static let tiltX = entry("tilt_x"), tiltY = entry("tilt_y"), flip = entry("flip"), axis = entry("axis")
    static let perspective = entry("perspective"), tiltPerspective = entry("tilt_perspective"), crossfade = entry("crossfade")
    static let size = entry("size"), background = entry("background"), scale = entry("scale"), fit = entry("fit")
    static let shader = entry("shader"), angleStrength = entry("angle_strength"), yFlip = entry("y_flip"), rotation = entry("rotation")
    static let foil = entry("foil"), intensity = entry("intensity"), glare = entry("glare")
    static let depth = entry("depth"), compression = entry("compression")
}

// Written by WebParameterTableTests from the library's parameter table; do not edit by hand:
//   KIRA_RECORD_DOCS=1 swift test --filter WebParameterTableTests
// Each value kira.js takes, by its camel-case name: kira render's name for it, what it takes,
// its range and its default (null: unset).
export const parameters = {
    tiltX: { name: "tilt_x", kind: "number", min: -90, max: 90, default: 0 },
    tiltY: { name: "tilt_y", kind: "number", min: -90, max: 90, default: 0 },
    flip: { name: "flip", kind: "number", min: -720, max: 720, default: 0 },
    axis: { name: "axis", kind: "choice", words: ["y", "x", "xy"], default: "y" },
    perspective: { name: "perspective", kind: "number", min: 0, max: 10, default: 0.7 },
    tiltPerspective: { name: "tilt_perspective", kind: "number", min: 0, max: 10, default: 1 },
    crossfade: { name: "crossfade", kind: "flag", default: false },
    size: { name: "size", kind: "size", max: 16384, default: null },
    background: { name: "background", kind: "color", default: "transparent" },
    scale: { name: "scale", kind: "number", min: 0.01, max: 4, default: null },
    fit: { name: "fit", kind: "flag", default: false },
    foil: { name: "foil", kind: "choice", words: ["kira", "rainbow", "sparkle", "cosmos", "gold", "etched", "reverse"], default: "kira" },
    intensity: { name: "intensity", kind: "number", min: 0, max: 2, default: 1 },
    glare: { name: "glare", kind: "number", min: 0, max: 1, default: 0 },
    backFace: { name: "back_face", kind: "flag", default: false },
};

/// The values kira.render takes, and kira.shade.
export const renderNames = ["tiltX", "tiltY", "flip", "axis", "perspective", "tiltPerspective", "crossfade", "size", "background", "scale", "fit", "foil", "intensity", "glare"];
export const shadeNames = ["tiltX", "tiltY", "backFace", "foil", "intensity", "glare"];

#if arch(wasm32)
import WASILibc

// wasi-libc's single-precision functions by the names Glibc's Swift overlay gives them on Linux,
// where the drawing calls them on Float.
@inline(__always) func sin(_ x: Float) -> Float { sinf(x) }
@inline(__always) func cos(_ x: Float) -> Float { cosf(x) }
@inline(__always) func exp(_ x: Float) -> Float { expf(x) }
@inline(__always) func atan2(_ y: Float, _ x: Float) -> Float { atan2f(y, x) }
#endif

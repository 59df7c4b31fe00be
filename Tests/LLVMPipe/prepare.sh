# Sourced by the LLVMPipe scripts once `root`, `here` and `out` are set: installs Mesa's EGL
# packages when missing (and any named in `also_need`), compiles render.c into "$out/render",
# builds kira (release; KIRA_SCRATCH_PATH=DIR builds there instead of .build, with the swift build
# options in KIRA_BUILD_OPTIONS, e.g. an AVX2 build: "--disable-default-traits -Xswiftc -target-cpu
# -Xswiftc haswell -Xcc -march=haswell") and sets `kira` and `normal_of`.
need=("${also_need[@]}")
pkg-config --exists egl 2>/dev/null || need+=(libegl-dev)
pkg-config --exists opengl 2>/dev/null || need+=(libgl-dev)
[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || ls /usr/lib/*/dri/swrast_dri.so >/dev/null 2>&1 || need+=(libgl1-mesa-dri)
if [ ${#need[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq && $sudo apt-get install -y -qq "${need[@]}"
fi

gcc -O2 -o "$out/render" "$here/render.c" $(pkg-config --cflags --libs egl opengl libpng)
scratch="${KIRA_SCRATCH_PATH:-$root/.build}"
# shellcheck disable=SC2086 # the options are words
(cd "$root" && swift build -c release --product kira --scratch-path "$scratch" ${KIRA_BUILD_OPTIONS:-} >/dev/null)
kira="$scratch/release/kira"

# `normal_of TILT_X TILT_Y`: the face normal of normalFromTilt, as Kira computes it, for both
# renderers ("x y z").
normal_of() {
    python3 -c "import math; x, y = math.radians($1), math.radians($2); print(f'{-math.sin(y)*math.cos(x):.7f} {math.sin(x):.7f} {math.cos(y)*math.cos(x):.7f}')"
}

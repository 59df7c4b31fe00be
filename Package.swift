// swift-tools-version: 6.2
import PackageDescription

// MARK: - Public API

let products: [Product] = [
    // `import Kira` brings in the whole engine; the parts can also be imported one by one.
    .library(name: "Kira", targets: ["Kira"]),
    .executable(name: "kira", targets: ["KiraCLI"]),
    // `kira serve`'s HTTP server is a program of its own, `kira-serve`, that `kira serve` runs from
    // beside itself: `swift run -c release kira` then compiles the engine and the command line
    // only (a fresh first frame in 1 min 55 s and 157 s of CPU, where building the server into
    // `kira` took 2 min 57 s and 323 s; 2-core Zen 4 EPYC, docs/performance.md). `kira-serve` is
    // the same command line with the server built in.
    .executable(name: "kira-serve", targets: ["KiraServeCLI"]),
    // The HTTP render API behind `kira serve`, for a program that embeds it. Not in `Kira`: a package
    // that only renders never builds SwiftNIO and Hummingbird.
    .library(name: "KiraServer", targets: ["KiraServer"]),
]

// MARK: - Build settings

// The pixel loops (every foil's shade, the projection and compositing, the quantising) are
// compiled once per x86-64 level from one source folder, Sources/KiraKernels: the targets
// KiraKernelsV2, V3 and V4 are links to it, built with -march=x86-64-v2, -v3 (AVX2) and -v4
// (AVX-512); clang's -march sets swiftc's code generation too, and swiftc's own -target-cpu takes
// CPU names only. KiraRender chooses one level at start by CPUID (`KIRA_CPU=v2|v3|v4` forces one),
// so the default build runs on any x86-64-v2 CPU at the speed of the one it runs on. The rest of
// the engine is built for the architecture's baseline. Those calls pass pointers and scalars
// only: SIMD values wider than 16 bytes travel in different registers at different levels.
//
// SwiftPM cannot condition a setting on the target architecture, so the levels' flags are chosen
// by the architecture this manifest is compiled for, the host's: on arm64 (NEON is its baseline)
// the three kernel modules are the same baseline code and KernelLevel reports that (not tested
// here: no arm64 machine). A cross build from x86-64 to another architecture is therefore not
// this manifest's: build on the target's own architecture. WebAssembly has its own build,
// scripts/build-web, which compiles the portable core with swiftc and one SIMD128 level.
#if arch(x86_64)
let levelFlags = true
#else
let levelFlags = false
#endif

// The `NativeCPU` trait (opt-in) builds every module for the build machine's CPU
// (`-target-cpu native`, which then also wins over the levels' flags): for a binary that runs
// on that machine only. `kira --version` says so.
//
// Built for a CPU without AVX-512, clang warns at every use of the C lane headers' 32- and
// 64-byte vectors that such a vector changes the calling convention: about 3,000 warnings a
// build. Those helpers are all static, compiled into each module with that module's own flags,
// so no such vector crosses between differently built code; -Wno-psabi.
let nativeCPU: [SwiftSetting] = [
    .unsafeFlags(["-target-cpu", "native", "-Xcc", "-march=native"], .when(traits: ["NativeCPU"])),
    .define("KIRA_NATIVE_CPU", .when(traits: ["NativeCPU"])),
    .unsafeFlags(["-Xcc", "-Wno-psabi"]),
]

/// The settings of the kernel module for x86-64 level `level` ("v2", "v3" or "v4").
func kernelLevel(_ level: String) -> [SwiftSetting] {
    (levelFlags ? [.unsafeFlags(["-Xcc", "-march=x86-64-\(level)"])] : []) + nativeCPU
}

// The `Server` trait (a default one) builds the HTTP server. Without it (`--traits NativeCPU`, or
// `--disable-default-traits`) its packages are not built (this package still fetches them):
// KiraServer and its tests compile to nothing and `kira-serve` says how to get the server. CI's
// sanitizer runs use that to test the library alone: the server is Swift over SwiftNIO, which
// strict concurrency checks, and the rendering it calls, where Kira's unsafe and threaded code
// is, the library's tests cover.
func server(_ product: String, _ package: String) -> Target.Dependency {
    .product(name: product, package: package, condition: .when(traits: ["Server"]))
}

// MARK: - Implementation

// The `kira` command line, as `kira` and (with the server built in) as `kira-serve`.
let commandLineDependencies: [Target.Dependency] = [
    "CKiraMemory",
    "Kira", "KiraPNG", "KiraFiles", "KiraSamples", "KiraArguments", "KiraCatalogue", "KiraTextureCache", "KiraBench", "KiraServerAPI",
    .product(name: "ArgumentParser", package: "swift-argument-parser"),
    .product(name: "Logging", package: "swift-log"),
]

let kernelDependencies: [Target.Dependency] = ["KiraLaneJobs", "KiraShader", "KiraGeometry", "KiraImage", "CKiraLanes", "CKiraProjection"]

let targets: [Target] = [
    // The umbrella module.
    .target(
        name: "Kira", dependencies: ["KiraShader", "KiraGeometry", "KiraFiles", "KiraImage", "KiraFormats", "KiraRender", "KiraCompare", "KiraAnimation", "KiraSamples", "KiraVideo", "KiraRequest", "KiraOutput", "KiraPNG", "KiraPipeline"],
        swiftSettings: nativeCPU),

    // WHAT a pixel computes: the kira shader, scalar reference and SIMD lanes. No I/O, no threads.
    .target(name: "KiraShader", dependencies: ["CKiraLanes"], swiftSettings: nativeCPU),
    // Rotation matrices and face normals (`normalFromTilt`), rotation3DEffect homographies.
    .target(name: "KiraGeometry", swiftSettings: nativeCPU),
    // Files read and written safely: whole-file reads with limits, atomic replacement, the output
    // rules, file identity, cleanup at termination, and the memory budget that inputs count against.
    .target(name: "KiraFiles", dependencies: ["CKiraFiles"], swiftSettings: nativeCPU),
    // RGBA image buffers of 8- or 16-bit channels and the largest sizes Kira takes: part of the
    // portable pixel core, which also builds for WebAssembly (scripts/build-web).
    .target(name: "KiraImage", swiftSettings: nativeCPU),
    // PNG and animated PNG files: decoding through libpng, encoding through libdeflate or igzip.
    .target(name: "KiraPNG", dependencies: ["KiraImage", "KiraFiles", "CKiraPNG", "CLibDeflate"], swiftSettings: nativeCPU),
    // Still images beyond PNG and colour: WebP and JPEG files, an art's colour profile converted to
    // sRGB, Lanczos downscaling. KiraPNG holds the PNG side (and its files); this module the
    // four libraries below, so that a user who only needs PNG decoding does not link them.
    .target(
        name: "KiraFormats", dependencies: ["KiraImage", "KiraPNG", "KiraFiles", "CKiraFormats"],
        swiftSettings: nativeCPU),
    // HOW the shader runs over an image: tiles, threads, per-frame tables, reusable scratch. Part
    // of the portable core: on WebAssembly its tiles run on the calling thread, in one level's kernels.
    .target(
        name: "KiraRender",
        dependencies: ["KiraShader", "KiraGeometry", "KiraImage", "KiraLaneJobs", "KiraKernelsV2", "KiraKernelsV3", "KiraKernelsV4", "CKiraLanes", "CKiraProjection", "CKiraCPU"],
        swiftSettings: nativeCPU),
    // Kira in a browser: a card file's faces, the renderer the browser's module drives, and the
    // functions it calls. Portable: scripts/build-web builds it with the core for WebAssembly.
    .target(name: "KiraWeb", dependencies: ["KiraRender", "KiraSamples", "KiraAnimation", "KiraImage", "KiraShader", "KiraGeometry"], swiftSettings: nativeCPU),
    // Frames rendered in batches and handed to sinks (files, encoders) on other threads while the
    // next batch renders: the one path from scenes to outputs of animations and catalogues.
    .target(name: "KiraPipeline", dependencies: ["KiraRender", "KiraImage", "KiraFiles", "KiraLaneJobs"], swiftSettings: nativeCPU),
    // What the pixel loops take: raw views of the images, per-worker scratch, faces to project,
    // the channel types. Shared by KiraRender and every level's kernels.
    .target(name: "KiraLaneJobs", dependencies: ["KiraShader", "KiraGeometry", "KiraImage", "CKiraProjection"], swiftSettings: nativeCPU),
    // The pixel loops, one module per x86-64 level (see `kernelLevel`); the folders link to Sources/KiraKernels.
    .target(name: "KiraKernelsV2", dependencies: kernelDependencies, swiftSettings: kernelLevel("v2")),
    .target(name: "KiraKernelsV3", dependencies: kernelDependencies, swiftSettings: kernelLevel("v3")),
    .target(name: "KiraKernelsV4", dependencies: kernelDependencies, swiftSettings: kernelLevel("v4")),
    // Time: SwiftUI's timing curves and springs, and the card animations Kira reproduces as presets of poses.
    .target(name: "KiraAnimation", dependencies: ["KiraGeometry"], swiftSettings: nativeCPU),
    // Videos (MP4, WebM, WebP, GIF) through the ffmpeg program, fed raw frames on a pipe.
    .target(name: "KiraVideo", dependencies: ["KiraImage", "KiraFiles", "CKiraFiles", "CKiraCPU"], swiftSettings: nativeCPU),
    // Image comparison: the files read (PNG, WebP, JPEG), PSNR, SSIM, LDR-ꟻLIP, error statistics,
    // diff heat maps and ꟻLIP maps, the report.
    .target(name: "KiraCompare", dependencies: ["KiraImage", "KiraFiles", "KiraPNG", "KiraFormats"], swiftSettings: nativeCPU),
    // The procedural sample card (front, back, holo mask): the tools' default card, also committed under textures/.
    // Optimised in debug builds too: unoptimised, its SIMD2/SIMD4 drawing is about 19× slower (5.6 s
    // against 0.3 s CPU for CommittedTexturesTests), and every CLI test on the built-in card draws it.
    // Same pixels at either level (Swift never contracts float operations; CommittedTexturesTests).
    .target(
        name: "KiraSamples", dependencies: ["KiraImage", "KiraRender"],
        swiftSettings: nativeCPU + [.unsafeFlags(["-O"], .when(configuration: .debug))]),

    // WHAT a front end asks for: a frame, a shaded face or an animation as one value, with one
    // table of named parameters that the command line, manifests and HTTP queries all parse.
    .target(
        name: "KiraRequest",
        dependencies: ["KiraWeb", "CLibDeflate", "KiraPipeline", "KiraPNG", "KiraRender", "KiraAnimation", "KiraSamples", "KiraImage", "KiraFiles", "KiraFormats", "KiraGeometry", "KiraShader", "KiraArguments"],
        swiftSettings: nativeCPU),

    // Textures decoded once per file within a memory budget, and SHA-256 content hashes, shared by
    // `kira batch` and `kira serve`. Not in the umbrella: a package that only renders never links
    // libcrypto.
    .target(
        name: "KiraTextureCache", dependencies: ["KiraPNG", "KiraRequest", "KiraImage", "KiraFiles", "CLibCrypto"],
        swiftSettings: nativeCPU),

    // Where frames go: numbered PNG files, an animated PNG, a contact sheet, videos through ffmpeg,
    // as sinks of the one frame pipeline (KiraRender's FramePipeline); and the animation job that
    // checks an AnimationRequest and renders it into those sinks.
    .target(name: "KiraOutput", dependencies: ["KiraPipeline", "KiraPNG", "KiraRender", "KiraImage", "KiraFiles", "KiraFormats", "KiraVideo", "KiraRequest", "KiraAnimation", "KiraGeometry", "KiraShader"], swiftSettings: nativeCPU),

    // The benchmark engine behind `kira bench`: each path timed several times, the best run kept.
    .target(name: "KiraBench", dependencies: ["KiraSamples", "KiraPipeline", "KiraPNG", "KiraRequest", "KiraRender", "KiraImage", "KiraFiles", "KiraFormats", "KiraArguments", "KiraGeometry", "KiraShader"], swiftSettings: nativeCPU),

    // Catalogues for `kira batch`: manifests (CSV, JSON Lines), shards, up-to-date records, a bounded
    // texture cache and the render-and-encode pipeline. Not in the umbrella: a package that only
    // renders never builds the CSV reader or links libcrypto.
    .target(
        name: "KiraCatalogue",
        dependencies: ["KiraPipeline", "KiraFormats", "KiraRequest", "KiraTextureCache", "KiraRender", "KiraImage", "KiraFiles", .product(name: "CSV", package: "CSV.swift")],
        swiftSettings: nativeCPU),

    // What `kira serve` is started with and what its URLs mean: its configuration, the render
    // query, signed URLs, the live preview's encodings. No SwiftNIO: `kira sign` and the options of
    // `kira serve` use it from the lean `kira`.
    .target(
        name: "KiraServerAPI",
        dependencies: ["KiraRequest", "KiraRender", "KiraImage", "KiraFiles", "KiraFormats", "CLibCrypto", .product(name: "Logging", package: "swift-log")],
        swiftSettings: nativeCPU),

    // `kira serve`: the render API over HTTP (Hummingbird), its limits, cache, signatures and
    // metrics. Not in the umbrella: a package that only renders never builds the server.
    .target(
        name: "KiraServer",
        dependencies: [
            "KiraServerAPI", "KiraRequest", "KiraTextureCache", "KiraRender", "KiraImage", "KiraPNG", "KiraFiles", "KiraFormats", "KiraAnimation", "KiraGeometry",
            server("Hummingbird", "hummingbird"),
            server("ServiceLifecycle", "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
            server("Metrics", "swift-metrics"),
            server("Prometheus", "swift-prometheus"),
            server("OrderedCollections", "swift-collections"),
            server("DequeModule", "swift-collections"),
            server("NIOCore", "swift-nio"),
            server("NIOPosix", "swift-nio"),
            server("HTTPTypes", "swift-http-types"),
            server("HummingbirdWebSocket", "hummingbird-websocket"),
            server("HummingbirdCore", "hummingbird"),
            server("NIOWebSocket", "swift-nio"),
        ],
        swiftSettings: nativeCPU),

    // Parsing of command-line values, as pure functions the fuzzer can reach.
    .target(name: "KiraArguments", swiftSettings: nativeCPU),
    // The `kira` command-line tool, one file per subcommand. `kira serve` runs `kira-serve`.
    .executableTarget(name: "KiraCLI", dependencies: commandLineDependencies, swiftSettings: nativeCPU),
    // `kira-serve`: the same sources (Sources/KiraServeCLI is a link to Sources/KiraCLI) with the
    // server built in (KIRA_SERVE_TOOL).
    .executableTarget(
        name: "KiraServeCLI",
        dependencies: commandLineDependencies + [.target(name: "KiraServer", condition: .when(traits: ["Server"]))],
        swiftSettings: nativeCPU + [.define("KIRA_SERVE_TOOL")]),

    // C shims. Underscore-free names, but no stable API: they exist for the Swift modules above.
    // libpng, the system library, found through pkg-config (Debian: libpng-dev).
    .systemLibrary(
        name: "CLibPNG",
        pkgConfig: "libpng",
        providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
    ),
    // OpenSSL's libcrypto, the system library, for SHA-256 content hashes (Debian: libssl-dev).
    .systemLibrary(
        name: "CLibCrypto",
        pkgConfig: "libcrypto",
        providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
    ),
    // libdeflate, the system library: standard 8-bit PNGs compress with it (faster than zlib,
    // smaller), and it sums the CRC-32 of the chunks Kira writes itself.
    .systemLibrary(
        name: "CLibDeflate",
        pkgConfig: "libdeflate",
        providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]
    ),
    // Intel's ISA-L, the system library: its igzip deflater compresses APNG frames and fast PNGs
    // (several times faster than libdeflate's fastest level, as small with the Paeth filter).
    .systemLibrary(
        name: "CLibISAL",
        pkgConfig: "libisal",
        providers: [.apt(["libisal-dev"]), .brew(["isa-l"])]
    ),
    // libwebp with its muxer, the system library (Debian: libwebp-dev): Google's reference
    // encoder, the one every browser's decoder is tested against; the muxer adds the ICC profile.
    .systemLibrary(
        name: "CLibWebP",
        pkgConfig: "libwebpmux",
        providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
    ),
    // libjpeg-turbo, the system library (Debian: libjpeg62-turbo-dev): the libjpeg API with SIMD
    // kernels, the JPEG codec of every Linux distribution, of Chrome and Firefox.
    .systemLibrary(
        name: "CLibJPEG",
        pkgConfig: "libjpeg",
        providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]
    ),
    // LittleCMS 2, the system library (Debian: liblcms2-dev): the colour engine of GIMP, Krita,
    // Inkscape, Ghostscript and Pillow; it reads any ICC profile and converts between them.
    .systemLibrary(
        name: "CLibLCMS2",
        pkgConfig: "lcms2",
        providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]
    ),
    // FFmpeg's libswscale, the system library (Debian: libswscale-dev): the scaler behind
    // ffmpeg's scale filter, so stills and APNGs are downscaled with the Lanczos filter videos use.
    .systemLibrary(
        name: "CLibSwscale",
        pkgConfig: "libswscale",
        providers: [.apt(["libswscale-dev"]), .brew(["ffmpeg"])]
    ),
    // libpng's classic API behind a setjmp that never leaves C; igzip behind a libdeflate-like API.
    .target(name: "CKiraPNG", dependencies: ["CLibPNG", "CLibISAL"]),
    // libjpeg behind a setjmp that never leaves C; libwebp, LittleCMS and libswscale calls whose
    // structures and macros Swift does not import (WebPConfig's presets, lcms2's TYPE_* formats).
    .target(name: "CKiraFormats", dependencies: ["CLibWebP", "CLibJPEG", "CLibLCMS2", "CLibSwscale"]),
    // Unnamed files (O_TMPFILE) for output that appears whole or not at all, and the one cleanup
    // registry (temporary files, ffmpeg children) that a signal handler empties.
    .target(name: "CKiraFiles"),
    // The CLI's malloc setting (a fixed mmap threshold: large buffers go back to the system).
    .target(name: "CKiraMemory"),
    // The lane layer: lane types and polyfills (floor, sqrt, min/max, conversions, stored pixels
    // to lanes and back, the quantiser) as clang vector builtins, for the shader and the projection.
    .target(name: "CKiraLanes"),
    // Which x86-64 levels this CPU runs (CPUID), for the choice of kernels.
    .target(name: "CKiraCPU"),
    // The projection's per-run kernels (inverse map, bilinear fetch, composite, store), for KiraRender.
    .target(name: "CKiraProjection", dependencies: ["CKiraLanes"]),

    // MARK: - Tests
    .testTarget(name: "KiraShaderTests", dependencies: ["KiraShader"], swiftSettings: nativeCPU),
    .testTarget(name: "KiraGeometryTests", dependencies: ["KiraGeometry"], swiftSettings: nativeCPU),
    // Helpers shared by the test targets (hand-built PNG files).
    .target(name: "KiraTestSupport", dependencies: ["KiraPNG"], path: "Tests/KiraTestSupport", swiftSettings: nativeCPU),
    .testTarget(name: "KiraFilesTests", dependencies: ["KiraFiles", "CKiraFiles", "KiraTestSupport"], swiftSettings: nativeCPU),
    .testTarget(name: "KiraImageTests", dependencies: ["KiraPNG", "KiraImage", "KiraFiles", "KiraArguments", "KiraTestSupport"], swiftSettings: nativeCPU),
    .testTarget(name: "KiraFormatsTests", dependencies: ["KiraPNG", "KiraFormats", "KiraImage", "KiraFiles", "KiraTestSupport"], swiftSettings: nativeCPU),
    .testTarget(name: "KiraRenderTests", dependencies: ["KiraPipeline", "KiraPNG", "KiraRender", "KiraFiles", "KiraSamples", "KiraTestSupport"], swiftSettings: nativeCPU),
    .testTarget(name: "KiraAnimationTests", dependencies: ["KiraRequest", "KiraAnimation", "KiraImage"], swiftSettings: nativeCPU),
    .testTarget(
        name: "KiraCompareTests", dependencies: ["KiraPNG", "KiraCompare", "KiraRender", "KiraSamples", "KiraRequest", "KiraFormats"],
        exclude: ["ssim_reference.py", "flip_reference.py", "Golden"], swiftSettings: nativeCPU),
    .testTarget(name: "KiraVideoTests", dependencies: ["KiraVideo", "KiraTestSupport"], swiftSettings: nativeCPU),
    .testTarget(name: "KiraRequestTests", dependencies: ["KiraSamples", "KiraPNG", "KiraRequest", "KiraTestSupport"], swiftSettings: nativeCPU),
    .testTarget(name: "KiraOutputTests", dependencies: ["KiraOutput", "KiraRequest", "KiraFiles"], swiftSettings: nativeCPU),
    .testTarget(name: "KiraWebTests", dependencies: ["KiraWeb", "KiraRequest", "KiraRender", "KiraSamples", "KiraImage", "KiraShader", "KiraGeometry"], swiftSettings: nativeCPU),
    .testTarget(name: "KiraSamplesTests", dependencies: ["KiraPNG", "KiraSamples"], swiftSettings: nativeCPU),
    .testTarget(name: "KiraTextureCacheTests", dependencies: ["KiraPNG", "KiraTextureCache", "KiraFiles", "KiraImage", "KiraRender", "KiraTestSupport"], swiftSettings: nativeCPU),
    .testTarget(name: "KiraCatalogueTests", dependencies: ["KiraPNG", "KiraCatalogue", "KiraFiles", "KiraTextureCache", "KiraTestSupport"], swiftSettings: nativeCPU),
    .testTarget(
        name: "KiraCLITests", dependencies: ["KiraCLI", "Kira", "KiraCatalogue", "KiraServerAPI", "KiraWeb", "KiraTestSupport"],
        exclude: ["HelpSnapshots"], swiftSettings: nativeCPU),
    .testTarget(
        name: "KiraServerTests",
        dependencies: ["KiraWeb", "KiraPNG", 
            "KiraServer", "KiraRequest", "KiraRender", "KiraImage", "KiraFiles", "KiraAnimation", "KiraGeometry", "KiraTestSupport",
            // The parity test sends each request through every front end: the command line's
            // option groups and a manifest's row besides the server's query and live controls.
            "KiraCLI", "KiraCatalogue",
            // The tests' HTTP and WebSocket clients are their own, on what the server already
            // builds: the frameworks' test clients would add TLS (BoringSSL) to every test build.
            server("Hummingbird", "hummingbird"),
            server("HummingbirdCore", "hummingbird"),
            server("HTTPTypes", "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
            server("NIOCore", "swift-nio"),
            server("NIOPosix", "swift-nio"),
            server("NIOEmbedded", "swift-nio"),
            server("NIOHTTP1", "swift-nio"),
            server("NIOWebSocket", "swift-nio"),
            server("ServiceLifecycle", "swift-service-lifecycle"),
        ],
        swiftSettings: nativeCPU),
]

let package = Package(
    name: "Kira",
    products: products,
    traits: [
        .default(enabledTraits: ["Server"]),
        .trait(
            name: "NativeCPU",
            description: "Compile everything for the build machine's CPU (-target-cpu native). Binaries then need a CPU like it; the default build chooses its kernels by CPU at start instead."
        ),
        .trait(
            name: "Server",
            description: "Build kira serve's HTTP server (kira-serve, KiraServer) on SwiftNIO and Hummingbird. Without it they are not built, and kira-serve says how to get the server."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // RFC 4180 CSV (quoted fields, embedded newlines and quotes, CRLF), for `kira batch` manifests.
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        // `kira serve` (KiraServer): HTTP on SwiftNIO, graceful shutdown, logs and Prometheus metrics.
        // Hummingbird without its default traits: swift-configuration would only add build time.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // The live preview's WebSocket (`GET /live` of `kira serve`): RFC 6455 on the same Hummingbird
        // router and port as the HTTP API.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // `swift package generate-documentation`: the DocC catalogues under Sources/*/*.docc (CI builds them).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: targets,
    swiftLanguageModes: [.v6]
)

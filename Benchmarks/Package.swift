// swift-tools-version: 6.2
import PackageDescription

// Kira's benchmark suite, a package of its own so that neither `swift test` nor the packages that
// depend on Kira ever build ordo-one/benchmark. Run from this folder: `swift package benchmark`.
// The parent package is named here ("Kira"), so the manifest does not depend on the folder name of
// the checkout (a path dependency's identity is its folder's name: "main" in one clone, anything
// in another).
let package = Package(
    name: "KiraBenchmarks",
    dependencies: [
        .package(name: "Kira", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "KiraBenchmarks",
            dependencies: [
                .product(name: "Kira", package: "Kira"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/KiraBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.2
import PackageDescription

// Kira's benchmark suite, a package of its own so that neither `swift test` nor the packages that
// depend on Kira ever build ordo-one/benchmark. Run from this folder: `swift package benchmark`.
let package = Package(
    name: "KiraBenchmarks",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "KiraBenchmarks",
            dependencies: [
                .product(name: "Kira", package: "main"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/KiraBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.1
// libFuzzer targets for Vicinity, a package of its own so that fuzzer builds never share the main
// package's build folder. Build and run with scripts/fuzz-decoder.sh.
import PackageDescription

let package = Package(
    name: "VicinityFuzz",
    dependencies: [
        .package(name: "Vicinity", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "DecoderFuzzer",
            dependencies: [
                .product(name: "LineProtocol", package: "Vicinity"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            // GNU gold crashes (an internal error while reporting a location) linking a libFuzzer
            // program; LLVM's lld, shipped with the Swift toolchain, links it.
            linkerSettings: [.unsafeFlags(["-use-ld=lld"])]
        )
    ]
)

// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Vicinity",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "vicinity", targets: ["vicinity"]),
        .library(name: "Geo", targets: ["Geo"]),
        .library(name: "Places", targets: ["Places"]),
        .library(name: "TextMap", targets: ["TextMap"]),
        .library(name: "LineProtocol", targets: ["LineProtocol"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CProj",
            pkgConfig: "proj",
            providers: [.apt(["libproj-dev"])]
        ),
        .target(name: "Geo", dependencies: ["CProj"]),
        .target(name: "CHeapStats"),
        .target(name: "Places", dependencies: ["Geo", .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "TextMap", dependencies: ["Geo"]),
        .target(name: "PlacesSQLite", dependencies: ["Places", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(
            name: "LineProtocol",
            dependencies: [
                "Geo", "Places", "TextMap",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "VicinityCLI",
            dependencies: [
                "Geo", "Places", "PlacesSQLite", "TextMap", "CHeapStats", "LineProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "vicinity", dependencies: ["VicinityCLI"]),
        .testTarget(name: "GeoTests", dependencies: ["Geo"], resources: [.copy("Fixtures")]),
        .testTarget(name: "PlacesTests", dependencies: ["Places"]),
        .testTarget(name: "PlacesSQLiteTests", dependencies: ["PlacesSQLite"]),
        .testTarget(name: "TextMapTests", dependencies: ["TextMap"], resources: [.copy("Golden")]),
        .testTarget(name: "VicinityCLITests", dependencies: ["VicinityCLI"]),
        .testTarget(
            name: "LineProtocolTests",
            dependencies: [
                "LineProtocol",
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ]
        ),
    ]
)

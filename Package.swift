// swift-tools-version:6.1
import PackageDescription

/// The geodesy, the directory and its stores are optimized in debug builds too: the tests and the
/// acceptance scripts run the debug build, and their searches, loads and followed change logs
/// would otherwise run several times slower than what anyone deploys.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "Vicinity",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "vicinity", targets: ["vicinity"]),
        .library(name: "Geo", targets: ["Geo"]),
        .library(name: "RedisGeo", targets: ["RedisGeo"]),
        .library(name: "Places", targets: ["Places"]),
        .library(name: "OpeningHours", targets: ["OpeningHours"]),
        .library(name: "TextMap", targets: ["TextMap"]),
        .library(name: "LineProtocol", targets: ["LineProtocol"]),
        .library(name: "HTTPAPI", targets: ["HTTPAPI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The HTTP API: code generated from openapi.yaml by Tools/openapi (`make generate`) and
        // committed, so neither the generator nor its build plugin is compiled here.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", exact: "2.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        // The transport of the generated Swift client that HTTPAPIClientTests drive the server with.
        .package(url: "https://github.com/apple/swift-openapi-urlsession", exact: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        // The store many nodes share: PostgreSQL through its wire protocol, no libpq.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CProj",
            pkgConfig: "proj",
            providers: [.apt(["libproj-dev"])]
        ),
        .target(name: "Geo", dependencies: ["CProj"], swiftSettings: optimizedInDebug),
        // Redis 7.0's GEO commands reproduced reply for reply; only the line protocol uses them.
        .target(name: "RedisGeo", dependencies: ["Geo", "CDistanceKernels"]),
        // Redis distance estimates in batches, compiled for the processor's vector unit (C, for
        // per-function targets and a choice made when run, which Swift cannot spell).
        .target(
            name: "CDistanceKernels",
            cSettings: [.unsafeFlags(["-O2", "-fno-math-errno", "-ffp-contract=off"])]),
        // glibc's heap counters, for `vicinity-bench bench` and `INFO`'s `used_memory`.
        .target(name: "CHeapStats"),
        // A cache prefetch hint (`__builtin_prefetch`), which Swift cannot spell.
        .target(name: "CPrefetch"),
        .target(
            name: "Places",
            dependencies: [
                "Geo", "OpeningHours", "CPrefetch", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: optimizedInDebug),
        .target(name: "TextMap", dependencies: ["Geo"]),
        // OSM `opening_hours`: parsing and evaluation in local wall-clock time, no I/O (issue 19).
        .target(name: "OpeningHours", swiftSettings: optimizedInDebug),
        // The one query layer: a query in, ranked hits and the map's view model out.
        .target(name: "PlaceQueries", dependencies: ["Geo", "OpeningHours", "Places", "TextMap"]),
        .target(
            name: "PlacesSQLite", dependencies: ["Places", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: optimizedInDebug),
        .target(
            name: "PlacesPostgres",
            dependencies: [
                "Places", "Geo",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "LineProtocol",
            dependencies: [
                "Geo", "RedisGeo", "Places", "PlaceQueries", "TextMap", "CHeapStats",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "HTTPAPI",
            dependencies: [
                "Geo", "Places", "PlaceQueries", "TextMap",
                .product(name: "Hummingbird", package: "hummingbird"),
                // `HTTPConnectionStateHandler`, which `HotRouteHandler` is put after.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        .target(
            name: "VicinityCLI",
            dependencies: [
                "Geo", "Places", "PlaceQueries", "PlacesSQLite", "PlacesPostgres", "TextMap", "LineProtocol", "HTTPAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "vicinity",
            dependencies: [
                "VicinityCLI", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        // The benchmarks and the crash test's writer: built with everything else (so `swift build
        // --build-tests` puts `vicinity-bench` next to the tests) but not part of `vicinity`.
        .target(
            name: "VicinityBench",
            dependencies: [
                "VicinityCLI", "Geo", "Places", "PlaceQueries", "PlacesSQLite", "CHeapStats", "OpeningHours",
                "LineProtocol", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(name: "vicinity-bench", dependencies: ["VicinityBench"]),
        // Test doubles, clients and temporary folders shared by the test targets (never by a product).
        .target(
            name: "TestSupport",
            dependencies: ["Places", .product(name: "Logging", package: "swift-log")], path: "Tests/TestSupport"),
        .testTarget(name: "GeoTests", dependencies: ["Geo"], resources: [.copy("Fixtures")]),
        .testTarget(name: "OpeningHoursTests", dependencies: ["OpeningHours"], exclude: ["Reference"]),
        .testTarget(name: "RedisGeoTests", dependencies: ["RedisGeo", "Geo"], resources: [.copy("Fixtures")]),
        .testTarget(name: "PlacesTests", dependencies: ["Places", "PlaceQueries", "TestSupport"]),
        .testTarget(
            name: "PlacesSQLiteTests",
            dependencies: ["PlacesSQLite", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // Runs against a real server only when $VICINITY_TEST_POSTGRES holds its URL
        // (scripts/postgres-tests.sh starts a throwaway cluster and sets it).
        .testTarget(
            name: "PlacesPostgresTests",
            dependencies: [
                "PlacesPostgres", "PlacesSQLite", "Places", "Geo", "TestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(name: "TextMapTests", dependencies: ["TextMap"], resources: [.copy("Golden")]),
        .testTarget(name: "VicinityCLITests", dependencies: ["VicinityCLI", "TestSupport"]),
        .testTarget(
            name: "VicinityBenchTests",
            dependencies: ["VicinityBench", "VicinityCLI", "PlacesSQLite", "TestSupport"]
        ),
        .testTarget(
            name: "HTTPAPITests",
            dependencies: [
                "HTTPAPI", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The app developer's scenario through a client generated from openapi.yaml (client mode,
        // committed under Generated/ by `make generate`) against a server on a loopback port.
        .testTarget(
            name: "HTTPAPIClientTests",
            dependencies: [
                "HTTPAPI", "Places", "Geo", "TestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml"]
        ),
        // The same questions through the CLI, the line protocol and HTTP: one answer, one message.
        .testTarget(
            name: "CrossSurfaceTests",
            dependencies: [
                "VicinityCLI", "LineProtocol", "HTTPAPI", "Places", "PlacesSQLite", "Geo", "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "LineProtocolTests",
            dependencies: [
                "LineProtocol", "RedisGeo", "TestSupport",
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)

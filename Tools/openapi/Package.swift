// swift-tools-version:6.1
// The OpenAPI generator as a separate package, so that the main package never compiles it
// (the build plugin roughly doubles a clean release build on 2 cores). `make generate` runs
// its CLI on the root openapi.yaml and the output is committed under Sources/HTTPAPI/Generated.
import PackageDescription

let package = Package(
    name: "VicinityOpenAPITools",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")
    ]
)

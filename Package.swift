// swift-tools-version:6.0
import PackageDescription

let settings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "storyrun",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StoryKit", targets: ["StoryKit"]),
        .library(name: "StoryKitTesting", targets: ["StoryKitTesting"]),
        .executable(name: "storyrun", targets: ["storyrun"]),
        .library(name: "StoryKitProcess", targets: ["StoryKitProcess"]),
        .library(name: "StoryKitHTTP", targets: ["StoryKitHTTP"]),
    ],
    targets: [
        .target(
            name: "StoryKit", exclude: ["Parsing/Gherkin/generate-languages.py"],
            swiftSettings: settings),
        .target(name: "StoryKitTesting", dependencies: ["StoryKit"], swiftSettings: settings),
        .target(name: "StoryrunSteps", dependencies: ["StoryKit", "StoryKitProcess", "StoryKitHTTP"], swiftSettings: settings),
        // Step libraries: command-line programs, HTTP services, stub servers.
        .target(name: "StepLibrarySupport", dependencies: ["StoryKit"], swiftSettings: settings),
        .target(name: "StoryKitProcess", dependencies: ["StoryKit", "StepLibrarySupport"], swiftSettings: settings),
        .target(name: "StoryKitHTTP", dependencies: ["StoryKit", "StepLibrarySupport"], swiftSettings: settings),
        .testTarget(
            name: "StepLibraryTests", dependencies: ["StoryKit", "StoryKitProcess", "StoryKitHTTP", "StepLibrarySupport"],
            swiftSettings: settings),
        .executableTarget(
            name: "storyrun", dependencies: ["StoryKit", "StoryrunSteps"], swiftSettings: settings),
        // A user's executable for `make bench`, which times it against peers.
        .executableTarget(
            name: "storyrun-bench", dependencies: ["StoryKit"], path: "Benchmarks/Sources/storyrun-bench",
            swiftSettings: settings),
        .testTarget(
            name: "StoryKitTests", dependencies: ["StoryKit", "StoryKitTesting", "StoryrunSteps"],
            swiftSettings: settings),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.0
import PackageDescription

let settings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "storyrun",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "StoryKit", targets: ["StoryKit"]),
        .executable(name: "storyrun", targets: ["storyrun"]),
    ],
    targets: [
        .target(
            name: "StoryKit", exclude: ["Parsing/Gherkin/generate-languages.py"],
            swiftSettings: settings),
        .target(name: "StoryrunSteps", dependencies: ["StoryKit"], swiftSettings: settings),
        .executableTarget(
            name: "storyrun", dependencies: ["StoryKit", "StoryrunSteps"], swiftSettings: settings),
        .testTarget(
            name: "StoryKitTests", dependencies: ["StoryKit", "StoryrunSteps"],
            swiftSettings: settings),
    ],
    swiftLanguageModes: [.v6]
)

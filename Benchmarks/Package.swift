// swift-tools-version:6.0
import PackageDescription

// A user's executable, built in release mode, that `make bench` times
// against behave and cucumber-ruby on generated corpora.
let package = Package(
    name: "storyrun-bench",
    dependencies: [.package(name: "storyrun", path: "..")],
    targets: [
        .executableTarget(
            name: "storyrun-bench",
            dependencies: [.product(name: "StoryKit", package: "storyrun")])
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "WebApp",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "webapp-stories", targets: ["WebAppStories"]),  // serves Site/ and runs the stories
    ],
    dependencies: [
        .package(name: "storyrun", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "WebAppStories",
            dependencies: [
                .product(name: "StoryKit", package: "storyrun"),
                .product(name: "StoryKitBrowser", package: "storyrun"),
                .product(name: "StoryKitHTTP", package: "storyrun"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

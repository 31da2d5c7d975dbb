// swift-tools-version:6.0
import PackageDescription

let settings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "TicTacToe",
    platforms: [.macOS(.v15)],
    products: [
        // The executable is named `tictactoe`; its target has another name so
        // that it does not clash with `TicTacToe` on case-insensitive disks.
        .executable(name: "tictactoe", targets: ["TicTacToeStories"]),
    ],
    dependencies: [
        .package(name: "storyrun", path: "../.."),
    ],
    targets: [
        // The game, which knows nothing of stories.
        .target(name: "TicTacToe", swiftSettings: settings),
        // The step classes and the one-line main that runs the stories.
        .executableTarget(
            name: "TicTacToeStories",
            dependencies: ["TicTacToe", .product(name: "StoryKit", package: "storyrun")],
            swiftSettings: settings),
        // The same stories inside `swift test`: the StoryTests plugin writes
        // one Swift Testing test per story (a suite per story file).
        .testTarget(
            name: "TicTacToeStoryTests",
            dependencies: ["TicTacToeStories", .product(name: "StoryKitTesting", package: "storyrun")],
            swiftSettings: settings,
            plugins: [.plugin(name: "StoryTests", package: "storyrun")]),
    ],
    swiftLanguageModes: [.v6]
)

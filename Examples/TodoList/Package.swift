// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TodoList",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "todo", targets: ["TodoCLI"]),  // the program under test
        .executable(name: "todo-stories", targets: ["TodoStories"]),  // its stories' runner
    ],
    dependencies: [
        .package(name: "storyrun", path: "../.."),
    ],
    targets: [
        .target(name: "TodoCore"),
        .executableTarget(name: "TodoCLI", dependencies: ["TodoCore"]),
        .executableTarget(
            name: "TodoStories",
            dependencies: [
                .product(name: "StoryKit", package: "storyrun"),
                .product(name: "StoryKitProcess", package: "storyrun"),
                .product(name: "StoryKitHTTP", package: "storyrun"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

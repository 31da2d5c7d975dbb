import Foundation
import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct WatchedTreeTests {
    @Test("Story files under a story path and Swift files under the sources are watched; nothing else", arguments: [
        ("stories/a.stories", WatchedTree.Kind.story),
        ("stories/deep/b.feature", .story),
        ("stories/notes.txt", nil),
        ("stories/a.stories.swp", nil),
        ("storiesX/a.stories", nil),
        ("one.stories", .story),
        ("two.stories", nil),
        ("Sources/App/Steps.swift", .swiftSource),
        ("stories/Steps.swift", nil),
    ])
    func kind(path: String, expected: WatchedTree.Kind?) {
        let tree = WatchedTree(storyPaths: ["stories/", "./one.stories:3"], sourcesFolder: "Sources")
        #expect(tree.kind(of: path) == expected)
    }

    @Test("The current folder as a story path watches every relative story file")
    func currentFolder() {
        let tree = WatchedTree(storyPaths: ["."], sourcesFolder: nil)
        #expect(tree.kind(of: "a.stories") == .story)
        #expect(tree.kind(of: "x/y/b.feature") == .story)
        #expect(tree.kind(of: "x/Steps.swift") == nil)
    }

    @Test("Folders are listed recursively without hidden ones; a file root gives its folder")
    func folders() throws {
        let folder = try WatchTestFolder()
        try folder.write("stories/a.stories")
        try folder.write("stories/deep/er/b.feature")
        try folder.write("stories/.git/c.stories")
        try folder.write("single/one.stories")
        try folder.write("Sources/App/Steps.swift", "")
        let tree = WatchedTree(
            storyPaths: [folder.path + "/stories", folder.path + "/single/one.stories"], sourcesFolder: folder.path + "/Sources")
        let relative = Set(tree.folders().map { String($0.dropFirst(folder.path.count)) })
        #expect(relative == ["/stories", "/stories/deep", "/stories/deep/er", "/single", "/Sources", "/Sources/App"])
        let files = Set(tree.scan().keys.map { String($0.dropFirst(folder.path.count)) })
        #expect(files == ["/stories/a.stories", "/stories/deep/er/b.feature", "/single/one.stories", "/Sources/App/Steps.swift"])
    }

    @Test("Symlinked folders, hidden files and hidden folders are watched as the run runs them; a symlink loop ends")
    func symlinksAndHidden() throws {
        let folder = try WatchTestFolder()
        try folder.write("stories/a.stories")
        try folder.write("stories/d/.h.stories")
        try folder.write("stories/d/.hid/x.stories")
        try folder.write("elsewhere/l.stories")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/stories/link", withDestinationPath: "../elsewhere")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/stories/d/loop", withDestinationPath: "..")
        let tree = WatchedTree(storyPaths: [folder.path + "/stories"], sourcesFolder: nil)
        let files = Set(tree.scan().keys.map { String($0.dropFirst(folder.path.count)) })
        #expect(files == ["/stories/a.stories", "/stories/d/.h.stories", "/stories/d/.hid/x.stories", "/stories/link/l.stories"])
        let folders = Set(tree.folders().map { String($0.dropFirst(folder.path.count)) })
        #expect(folders == ["/stories", "/stories/d", "/stories/d/.hid", "/stories/link"])
    }
}

import Foundation
import Testing
@testable import StoryKit

/// Both watchers against real files, each wait bounded by a deadline.
@Suite(.timeLimit(.minutes(10))) struct ChangeWatcherTests {
    /// Each watcher is made when its turn comes, after the changes the one
    /// before it saw.
    static func watchers(_ tree: WatchedTree) -> [() -> any ChangeWatcher] {
        var watchers: [() -> any ChangeWatcher] = [{ PollingWatcher(tree: tree, interval: 50) }]
        #if os(Linux)
        watchers.append {
            guard case .success(let watcher) = InotifyWatcher.make(tree: tree) else {
                Issue.record("inotify is not available here")
                return PollingWatcher(tree: tree, interval: 50)
            }
            return watcher
        }
        #endif
        return watchers
    }

    @Test("A story file written in place is one change, its temporary files none")
    func writeInPlace() throws {
        let folder = try WatchTestFolder()
        let story = try folder.write("stories/a.stories")
        let tree = WatchedTree(storyPaths: [folder.path + "/stories"], sourcesFolder: nil)
        for make in Self.watchers(tree) {
            let watcher = make()
            let method = watcher.method
            WatchTestFolder.later(120) {
                _ = try? folder.write("stories/.a.stories.swp", "x")
                _ = try? folder.write("stories/a.stories", "Story: changed \(method)\n")
            }
            let changes = watcher.nextChanges(isStopped: WatchTestFolder.deadline(5))
            #expect(changes == [story], "\(watcher.method)")
        }
    }

    @Test("A story file saved by renaming a temporary file over it is one change")
    func renameOver() throws {
        let folder = try WatchTestFolder()
        let story = try folder.write("stories/a.stories")
        let tree = WatchedTree(storyPaths: [folder.path + "/stories"], sourcesFolder: nil)
        for make in Self.watchers(tree) {
            let watcher = make()
            let method = watcher.method
            WatchTestFolder.later(120) {
                // Not `.atomic`: Foundation would leave an empty folder in /tmp each time.
                let temporary = story + ".swp"
                try? Data("Story: renamed \(method) with more text\n".utf8).write(to: URL(fileURLWithPath: temporary))
                rename(temporary, story)
            }
            let changes = watcher.nextChanges(isStopped: WatchTestFolder.deadline(5))
            #expect(changes == [story], "\(watcher.method)")
        }
    }

    @Test("A new folder's story files and a Swift source are changes")
    func newFolderAndSources() throws {
        let folder = try WatchTestFolder()
        try folder.write("stories/a.stories")
        let source = try folder.write("Sources/App/Steps.swift", "")
        let tree = WatchedTree(storyPaths: [folder.path + "/stories"], sourcesFolder: folder.path + "/Sources")
        for make in Self.watchers(tree) {
            let watcher = make()
            let name = watcher.method.hasPrefix("inotify") ? "i" : "p"
            let written = WatchTestFolder.later(120) { _ = try? folder.write("stories/new-\(name)/b.stories") }
            let changes = watcher.nextChanges(isStopped: WatchTestFolder.deadline(5))
            #expect(changes == [folder.path + "/stories/new-\(name)/b.stories"], "\(watcher.method)")
            written.wait()
            let rewritten = WatchTestFolder.later(120) { _ = try? folder.write("Sources/App/Steps.swift", "// \(name)\n") }
            #expect(watcher.nextChanges(isStopped: WatchTestFolder.deadline(5)) == [source], "\(watcher.method)")
            // The next watcher starts after this write has ended: a poll can
            // see it begin (the file emptied) and return before it ends.
            rewritten.wait()
        }
    }

    @Test("A root folder removed (or moved away) and made again is watched again", arguments: ["removed", "moved"])
    func rootMadeAgain(how: String) throws {
        let folder = try WatchTestFolder()
        let story = try folder.write("stories/a.stories")
        let root = folder.path + "/stories"
        let tree = WatchedTree(storyPaths: [root], sourcesFolder: nil)
        for make in Self.watchers(tree) {
            let watcher = make()
            let gone = WatchTestFolder.later(120) {
                if how == "removed" {
                    try? FileManager.default.removeItem(atPath: root)
                } else {
                    rename(root, folder.path + "/moved-\(UUID().uuidString)")
                }
            }
            // The root gone is a change (watch mode redraws its status).
            let first = watcher.nextChanges(isStopped: WatchTestFolder.deadline(5))
            #expect(first != nil, "\(watcher.method)")
            gone.wait()
            #expect(tree.missingRoots() == [root])
            let back = WatchTestFolder.later(120) {
                try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
                usleep(200_000)
                _ = try? folder.write("stories/a.stories", "Story: back\n")
            }
            var seen: Set<String> = []
            let end = WatchTestFolder.deadline(5)
            while !seen.contains(story), let changes = watcher.nextChanges(isStopped: end) { seen.formUnion(changes) }
            #expect(seen.contains(story), "\(watcher.method): \(seen)")
            back.wait()
            #expect(tree.missingRoots().isEmpty)
        }
    }

    @Test("A story file under a symlinked folder, a hidden story file and one in a hidden folder are changes when saved")
    func symlinksAndHidden() throws {
        let folder = try WatchTestFolder()
        try folder.write("stories/a.stories")
        try folder.write("elsewhere/l.stories")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/stories/link", withDestinationPath: "../elsewhere")
        let tree = WatchedTree(storyPaths: [folder.path + "/stories"], sourcesFolder: nil)
        for (index, relative) in ["link/l.stories", "d/.h.stories", "d/.hid/x.stories"].enumerated() {
            try folder.write("stories/" + relative)
            for make in Self.watchers(tree) {
                let watcher = make()
                let method = watcher.method
                let written = WatchTestFolder.later(120) {
                    _ = try? folder.write("stories/" + relative, "Story: saved \(index) \(method) with more\n")
                }
                let changes = watcher.nextChanges(isStopped: WatchTestFolder.deadline(5))
                #expect(changes == [folder.path + "/stories/" + relative], "\(method)")
                written.wait()
            }
        }
    }

    @Test("Waiting ends as soon as it is told to stop")
    func stops() throws {
        let folder = try WatchTestFolder()
        try folder.write("stories/a.stories")
        let tree = WatchedTree(storyPaths: [folder.path + "/stories"], sourcesFolder: nil)
        for make in Self.watchers(tree) {
            let watcher = make()
            let start = Date()
            #expect(watcher.nextChanges(isStopped: WatchTestFolder.deadline(0.2)) == nil)
            #expect(Date().timeIntervalSince(start) < 2)
        }
    }
}

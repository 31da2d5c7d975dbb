import Foundation
import Testing
@testable import StoryKit

/// How folders are searched for story files.
@Suite struct FolderWalkTests {
    @Test("Folders named *.stories are searched, symlinked folders followed once, loops and broken links reported")
    func walk() throws {
        let root = NSTemporaryDirectory() + "storyrun-walk-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/suite/old.stories", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: root + "/elsewhere", withIntermediateDirectories: true)
        for file in ["/suite/old.stories/a.stories", "/elsewhere/b.feature", "/suite/c.stories", "/suite/notes.txt"] {
            try Data().write(to: URL(fileURLWithPath: root + file))
        }
        try manager.createSymbolicLink(atPath: root + "/suite/linked", withDestinationPath: "../elsewhere")
        try manager.createSymbolicLink(atPath: root + "/suite/old.stories/loop", withDestinationPath: "..")
        try manager.createSymbolicLink(atPath: root + "/suite/broken.stories", withDestinationPath: "nowhere")

        let (files, diagnostics) = StoryLoader.files(at: [root + "/suite"])
        #expect(files.map { String($0.dropFirst(root.count)) } == ["/suite/c.stories", "/suite/linked/b.feature", "/suite/old.stories/a.stories"])
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
        #expect(diagnostics.contains { $0.problem.contains("broken.stories leads nowhere") })
        #expect(diagnostics.contains { $0.problem.contains("old.stories/loop is a folder already searched") })
        #expect(diagnostics.count == 2)
    }
}

import Foundation
import Testing
@testable import StoryKit

/// How folders are searched for story files.
@Suite(.timeLimit(.minutes(10))) struct FolderWalkTests {
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

    @Test("Two story files whose names differ only in Unicode form are an error, not one file")
    func unicodeForms() throws {
        let root = NSTemporaryDirectory() + "storyrun-forms-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        // "é" composed (U+00E9) and decomposed (e, U+0301): equal as Swift Strings.
        let composed = root + "/caf\u{E9}.feature"
        let decomposed = root + "/cafe\u{301}.feature"
        #expect(composed == decomposed && !composed.utf8.elementsEqual(decomposed.utf8))
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for path in [composed, decomposed] { try Data("Feature: f\n".utf8).write(to: URL(fileURLWithPath: path)) }
        let (files, diagnostics) = StoryLoader.files(at: [root])
        #expect(files.count == 2)
        #expect(diagnostics.count == 1 && diagnostics.first?.severity == .error)
        #expect(diagnostics.first?.problem.contains("the same name in two Unicode forms") == true)
        // Named one by one too: not taken for one argument.
        #expect(StoryFilter.splitLines([composed, decomposed]).paths.count == 2)
    }
}

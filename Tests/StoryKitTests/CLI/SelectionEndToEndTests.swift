import Foundation
import Testing
@testable import StoryKit

/// Which stories a run chooses, through the built executable: each story
/// once however its file is named, a rerun of a shard, repeated filters.
@Suite struct SelectionEndToEndTests {
    /// A passing story at line 1 and a failing one at line 4.
    static let twoStories = """
        Story: one passes
          Given an empty basket

        Story: two fails
          Given an empty basket
          When I add 1 apples to the basket
          Then the basket is empty

        """

    /// What a run did: its exit status, the stories it ran (`PASSED  name
    /// path:line` lines, in order) and its output.
    struct Ran {
        var status: Int32
        var stories: [String]
        var output: String
    }

    static func run(_ arguments: [String], in folder: String) throws -> Ran {
        let outcome = try Binary.run(arguments, in: folder, timeout: 60, environment: ["STORYRUN_FIXTURE_STEPS": "1"])
        let stories = outcome.output.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("PASSED  ") || line.hasPrefix("FAILED  ") else { return nil }
            return String(line)
        }
        return Ran(status: outcome.status, stories: stories, output: outcome.output + outcome.errorOutput)
    }

    static func folder(_ files: [String: String]) throws -> String {
        let folder = try Binary.temporaryFolder("selection")
        for (path, text) in files {
            let full = folder + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        return folder
    }

    struct Mention: CustomTestStringConvertible, Sendable {
        var id: String
        var arguments: [String]
        var testDescription: String { id }
    }

    @Test(
        "A story file named more than once, however spelled, runs once, whole when any mention is whole",
        arguments: [
            Mention(id: "folder-then-file-line", arguments: ["feat", "feat/a.stories:1"]),
            Mention(id: "file-line-then-folder", arguments: ["feat/a.stories:1", "feat"]),
            Mention(id: "folder-and-dot-folder", arguments: ["feat", "./feat"]),
            Mention(id: "folder-and-file", arguments: ["feat", "feat/a.stories"]),
            Mention(id: "folder-and-absolute-subfolder", arguments: ["feat", "ABSOLUTE/feat/sub"]),
            Mention(id: "file-line-and-dot-file", arguments: ["feat/a.stories:4", "./feat/a.stories"]),
            Mention(id: "folder-with-trailing-slash-and-file-line", arguments: ["feat/", "./feat/a.stories:4"]),
        ])
    func eachStoryOnce(_ mention: Mention) throws {
        let folder = try Self.folder(["feat/a.stories": Self.twoStories, "feat/sub/b.stories": "Story: three passes\n  Given an empty basket\n"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = mention.arguments.map { $0.replacingOccurrences(of: "ABSOLUTE", with: folder) }
        let ran = try Self.run(arguments, in: folder)
        #expect(ran.status == 1, "\(ran.output)")
        let names = ran.stories.map { line in
            line.dropFirst("PASSED  ".count).components(separatedBy: "  ")[0]
        }
        let inFolder = mention.arguments.contains { !$0.contains("a.stories") }
        let expected = ["one passes", "two fails"] + (inFolder ? ["three passes"] : [])
        #expect(names.sorted() == expected.sorted(), "\(ran.output)")
        #expect(ran.output.contains("Stories: \(expected.count - 1) passed, 1 failed"), "\(ran.output)")
        // The display path is the first mention's spelling.
        #expect(ran.stories.allSatisfy { !$0.contains("./feat") && !$0.contains(folder) }, "\(ran.output)")
    }

    @Test("Two spellings of one file with lines run the lines of both, each story once")
    func linesOfTwoSpellings() throws {
        let folder = try Self.folder(["feat/a.stories": Self.twoStories])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ran = try Self.run(["feat/a.stories:1", "./feat/a.stories:4", "feat/a.stories:1"], in: folder)
        #expect(ran.status == 1)
        #expect(ran.stories == ["PASSED  one passes  feat/a.stories:1", "FAILED  two fails  feat/a.stories:4"], "\(ran.output)")
    }
}

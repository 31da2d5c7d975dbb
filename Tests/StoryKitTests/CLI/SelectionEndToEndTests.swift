import Foundation
import Testing
@testable import StoryKit

/// Which stories a run chooses, through the built executable: each story
/// once however its file is named, a rerun of a shard, repeated filters.
@Suite(.timeLimit(.minutes(10))) struct SelectionEndToEndTests {
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

    static func run(_ arguments: [String], in folder: String) async throws -> Ran {
        let outcome = try await Binary.run(arguments, in: folder, timeout: 60, environment: ["STORYRUN_FIXTURE_STEPS": "1"])
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
    func eachStoryOnce(_ mention: Mention) async throws {
        let folder = try Self.folder(["feat/a.stories": Self.twoStories, "feat/sub/b.stories": "Story: three passes\n  Given an empty basket\n"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = mention.arguments.map { $0.replacingOccurrences(of: "ABSOLUTE", with: folder) }
        let ran = try await Self.run(arguments, in: folder)
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

    @Test("A folder with a line is an error, not the whole folder run in silence")
    func folderWithLine() async throws {
        let folder = try Self.folder(["feat/a.stories": Self.twoStories])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ran = try await Self.run(["feat:1"], in: folder)
        #expect(ran.status == 2, "\(ran.output)")
        #expect(ran.output.contains("error: feat is a folder: feat:1 names no line of a story file"), "\(ran.output)")
    }

    @Test("Two spellings of one file with lines run the lines of both, each story once")
    func linesOfTwoSpellings() async throws {
        let folder = try Self.folder(["feat/a.stories": Self.twoStories])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ran = try await Self.run(["feat/a.stories:1", "./feat/a.stories:4", "feat/a.stories:1"], in: folder)
        #expect(ran.status == 1)
        #expect(ran.stories == ["PASSED  one passes  feat/a.stories:1", "FAILED  two fails  feat/a.stories:4"], "\(ran.output)")
    }
}

/// A shard's rerun file, run with the same `--shard` (and `--timings`).
@Suite(.timeLimit(.minutes(10))) struct ShardRerunEndToEndTests {
    /// Six files, each with a passing story (line 1) and a failing one (line 4).
    static func suite() throws -> String {
        var files: [String: String] = [:]
        for index in 1...6 {
            files["st/f\(index).stories"] = SelectionEndToEndTests.twoStories
                .replacingOccurrences(of: "one passes", with: "f\(index) passes")
                .replacingOccurrences(of: "two fails", with: "f\(index) fails")
        }
        return try SelectionEndToEndTests.folder(files)
    }

    static func failed(_ ran: SelectionEndToEndTests.Ran) -> [String] {
        ran.stories.filter { $0.hasPrefix("FAILED") }.map { String($0.split(separator: " ").last!) }
    }

    @Test(
        "A shard's rerun runs every story its rerun file names, by hash or balanced by timings",
        arguments: [["--shard", "2/2", "--timings", "all.json"], ["--shard", "2/2"], ["--shard", "1/3", "--timings", "all.json"]])
    func shardRerun(_ shard: [String]) async throws {
        let folder = try Self.suite()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try await SelectionEndToEndTests.run(["st", "--json", "all.json"], in: folder)
        // Every story the same time: the shards balanced by timings do not
        // depend on how loaded the machine was (a shard of passing stories
        // only has no rerun to test).
        let timings = try String(contentsOfFile: folder + "/all.json", encoding: .utf8)
        try timings.replacingOccurrences(of: #""duration":[0-9]+"#, with: #""duration":1000000"#, options: .regularExpression)
            .write(toFile: folder + "/all.json", atomically: true, encoding: .utf8)
        let first = try await SelectionEndToEndTests.run(shard + ["st", "--rerun", "r.txt"], in: folder)
        #expect(first.status == 1, "\(first.output)")
        let listed = try String(contentsOfFile: folder + "/r.txt", encoding: .utf8).split(separator: "\n").map(String.init)
        try #require(listed == Self.failed(first) && !listed.isEmpty, "\(first.output)")

        let rerun = try await SelectionEndToEndTests.run(shard + ["@r.txt"], in: folder)
        #expect(rerun.status == 1, "\(rerun.output)")
        #expect(Self.failed(rerun) == listed, "\(rerun.output)")
        #expect(rerun.output.contains("storyrun: --shard \(shard[1]) does not split a rerun: running every story @r.txt names"))

        // One story of the shard: it runs, and fails.
        try (listed[0] + "\n").write(toFile: folder + "/one.txt", atomically: true, encoding: .utf8)
        let one = try await SelectionEndToEndTests.run(shard + ["@one.txt"], in: folder)
        #expect(one.status == 1, "\(one.output)")
        #expect(Self.failed(one) == [listed[0]], "\(one.output)")
    }

    @Test("CI_NODE_INDEX and CI_NODE_TOTAL do not split a rerun either")
    func shardFromEnvironment() async throws {
        let folder = try Self.suite()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "st/f2.stories:4\nst/f5.stories:4\n".write(toFile: folder + "/r.txt", atomically: true, encoding: .utf8)
        let outcome = try await Binary.run(
            ["@r.txt"], in: folder, timeout: 60,
            environment: ["STORYRUN_FIXTURE_STEPS": "1", "CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "4"])
        #expect(outcome.status == 1, "\(outcome.output)")
        #expect(outcome.output.contains("Stories: 0 passed, 2 failed"), "\(outcome.output)")
        #expect(outcome.output.contains("--shard 3/4 (from CI_NODE_INDEX and CI_NODE_TOTAL) does not split a rerun"), "\(outcome.output)")
    }

    @Test("Buildkite's 0-based job runs its shard, and a bad value is a usage error naming the variable")
    func shardFromBuildkite() async throws {
        let folder = try Self.suite()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let buildkite = ["STORYRUN_FIXTURE_STEPS": "1", "BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "2"]
        let first = try await Binary.run(["st"], in: folder, timeout: 60, environment: buildkite)
        #expect(first.output.contains("shard 1/2 (from BUILDKITE_PARALLEL_JOB and BUILDKITE_PARALLEL_JOB_COUNT)"), "\(first.output)")
        let explicit = try await Binary.run(["--shard", "1/2", "st"], in: folder, timeout: 60, environment: ["STORYRUN_FIXTURE_STEPS": "1"])
        let summary = { (output: String) in output.split(separator: "\n").filter { $0.hasPrefix("Stories:") } }
        #expect(!summary(first.output).isEmpty && summary(first.output) == summary(explicit.output), "\(first.output)")
        var bad = buildkite
        bad["BUILDKITE_PARALLEL_JOB"] = "2"
        let rejected = try await Binary.run(["st"], in: folder, timeout: 60, environment: bad)
        #expect(rejected.status == 2, "\(rejected.output)")
        #expect(rejected.output.contains("BUILDKITE_PARALLEL_JOB=2 and BUILDKITE_PARALLEL_JOB_COUNT=2 do not name a shard"), "\(rejected.output)")
    }

    @Test("A rerun whose --tags or --name leave out every story it names is an error, not a pass")
    func rerunFilteredToNothing() async throws {
        let folder = try Self.suite()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "st/f2.stories:4\n".write(toFile: folder + "/r.txt", atomically: true, encoding: .utf8)
        for filter in [["--tags", "@smoke"], ["--name", "nothing like it"]] {
            let ran = try await SelectionEndToEndTests.run(filter + ["@r.txt"], in: folder)
            #expect(ran.status == 2, "\(ran.output)")
            #expect(ran.output.contains("error: @r.txt names stories to run again, and this run ran none of them"), "\(ran.output)")
        }
    }
}

/// Repeated `--tags` and `--name`, as Cucumber reads them.
@Suite(.timeLimit(.minutes(10))) struct RepeatedFiltersEndToEndTests {
    static let tagged = """
        @smoke
        Story: one passes
          Given an empty basket

        @smoke @slow
        Story: two passes
          Given an empty basket

        @other
        Story: three passes
          Given an empty basket

        """

    @Test(
        "Repeated --tags all must match; repeated --name any may match",
        arguments: [
            (["--tags", "@smoke", "--tags", "not @slow"], ["one passes"]),
            (["-t", "@smoke", "-t", "@slow"], ["two passes"]),
            (["--name", "one", "--name", "three"], ["one passes", "three passes"]),
            (["--name", "one", "--name", "two", "--tags", "not @slow"], ["one passes"]),
        ])
    func repeated(_ filters: [String], expected: [String]) async throws {
        let folder = try SelectionEndToEndTests.folder(["a.stories": Self.tagged])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ran = try await SelectionEndToEndTests.run(filters + ["a.stories"], in: folder)
        #expect(ran.status == 0, "\(ran.output)")
        #expect(ran.stories.map { $0.dropFirst("PASSED  ".count).components(separatedBy: "  ")[0] } == expected, "\(ran.output)")
    }

    @Test("Repeated --tags that choose no story name every expression")
    func noneChosen() async throws {
        let folder = try SelectionEndToEndTests.folder(["a.stories": Self.tagged])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ran = try await SelectionEndToEndTests.run(["--tags", "@other", "--tags", "@smoke", "a.stories"], in: folder)
        #expect(ran.stories.isEmpty)
        #expect(ran.output.contains("storyrun: no story matches --tags \"@other\" and --tags \"@smoke\""), "\(ran.output)")
    }
}

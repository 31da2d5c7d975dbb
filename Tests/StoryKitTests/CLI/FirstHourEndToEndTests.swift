import Foundation
import Testing

/// What a newcomer met in their first hour (issue 28): a summary that hid a
/// failed hook, messages that named `storyrun` in a package whose executable
/// is another, files with no story that passed under `--strict`, a rerun
/// whose failing story `--tags` dropped in silence, a time-limit message
/// that spoke of `--in-process` to a supervised run.
@Suite(.timeLimit(.minutes(10))) struct FirstHourEndToEndTests {
    static let faults = ["STORYRUN_FIXTURE_STEPS": "faults"]

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test("The summary counts a failed story hook")
    func summaryCountsHooks() async throws {
        let folder = try Binary.temporaryFolder("first-hour")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("Story: a\n  Given a step that passes\n  And a step that passes\n", to: folder + "/h.stories")
        var environment = Self.faults
        environment["STORYRUN_FAULT_BEFORE_STORY"] = "throw"
        let outcome = try await Binary.run(["h.stories"], in: folder, timeout: 60, environment: environment)
        #expect(outcome.status == 1)
        #expect(outcome.output.contains("Stories: 0 passed, 1 failed\nSteps: 0 passed, 0 failed, 2 skipped\nHooks: 1 failed"), "\(outcome.output)")
    }

    @Test("Usage errors and hints name the executable the user ran")
    func executableName() async throws {
        let folder = try Binary.temporaryFolder("first-hour")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let copy = folder + "/bank-stories"
        try FileManager.default.copyItem(atPath: try #require(Binary.path), toPath: copy)
        let unknown = try await Binary.run(["--bogus"], in: folder, executable: copy)
        #expect(unknown.status == 2)
        #expect(unknown.output.contains("see `bank-stories --help`"), "\(unknown.output)")
        #expect(!unknown.output.contains("storyrun"), "\(unknown.output)")
        let none = try await Binary.run([], in: folder, executable: copy)
        #expect(none.output.contains("run `bank-stories Stories/`"), "\(none.output)")
    }

    @Test("Files with no story in them fail under --strict, with a message", arguments: [
        ("empty.stories", ""), ("blank.stories", "\n  \n"), ("comments.stories", "# nothing yet\n"), ("only.feature", "Feature: f\n"),
    ])
    func noStory(file: String, text: String) async throws {
        let folder = try Binary.temporaryFolder("first-hour")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(text, to: folder + "/" + file)
        let strict = try await Binary.run([file, "--strict"], in: folder, environment: Self.faults)
        #expect(strict.status == 1, "\(strict.output)")
        #expect(strict.output.contains("no story in \(file)"), "\(strict.output)")
        let plain = try await Binary.run([file], in: folder, environment: Self.faults)
        #expect(plain.status == 0)
        #expect(plain.output.contains("no story in \(file)"), "\(plain.output)")
    }

    @Test("A rerun whose stories --tags leaves out says so, and fails when it left out every one")
    func rerunLeftOut() async throws {
        let folder = try Binary.temporaryFolder("first-hour")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(
            "@smoke\nStory: a\n  Given the step calls exit(3)\n\nStory: b\n  Given the step calls exit(3)\n\n@smoke\nStory: c\n  Given a step that passes\n",
            to: folder + "/t.stories")
        let first = try await Binary.run(["t.stories", "--rerun", "rerun.txt"], in: folder, timeout: 60, environment: Self.faults)
        #expect(first.status == 1)
        // a (tagged) and b (not) failed: --tags @smoke leaves b out.
        let some = try await Binary.run(["@rerun.txt", "--tags", "@smoke"], in: folder, timeout: 60, environment: Self.faults)
        #expect(some.output.contains("--tags \"@smoke\" left out 1 of the 2 stories @rerun.txt names to run again"), "\(some.output)")
        // With another story given, the run passes, but ran none of the rerun's.
        try Self.write("t.stories:5\n", to: folder + "/rerun.txt")
        let none = try await Binary.run(["@rerun.txt", "t.stories:9", "--tags", "@smoke"], in: folder, timeout: 60, environment: Self.faults)
        #expect(none.output.contains("Stories: 1 passed, 0 failed"), "\(none.output)")
        #expect(none.output.contains("error: --tags \"@smoke\" left out 1 of the 1 story @rerun.txt names"), "\(none.output)")
        #expect(none.status == 2)
    }

    @Test("A supervised hook past its time limit is not told to run without --in-process")
    func hookTimeoutMessage() async throws {
        let folder = try Binary.temporaryFolder("first-hour")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("@hanging-hook\nStory: a\n  Given a step that passes\n", to: folder + "/h.stories")
        let outcome = try await Binary.run(["h.stories", "--step-timeout", "1"], in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 1)
        #expect(outcome.output.contains("ran past its 1 s limit"), "\(outcome.output)")
        #expect(!outcome.output.contains("run without --in-process"), "\(outcome.output)")
    }
}

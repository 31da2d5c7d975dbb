import Foundation
import Testing
@testable import StoryKit

/// `--retry` counts a crash like any other failure: the story runs again in
/// a new worker, up to the limit, and a story that crashed once and then
/// passed is flaky, not failed.
@Suite(.timeLimit(.minutes(10))) struct RetryCrashEndToEndTests {
    @Test("A story whose step crashes once passes on its retry, reported flaky")
    func crashOnceThenPass() async throws {
        let folder = try Binary.temporaryFolder("retry-crash")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SupervisionEndToEndTests.write(
            "Story: crashes once\n  Given the step crashes once, marking \"marker\"\n\nStory: after\n  Given a step that passes\n",
            to: folder + "/flaky.stories")
        let outcome = try await Binary.run(
            ["flaky.stories", "--retry", "2", "--junit", "out.xml"], in: folder, timeout: 60, environment: SupervisionEndToEndTests.faults)
        #expect(!outcome.isTimedOut)
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("Stories: 2 passed, 0 failed (1 flaky)"), "\(outcome.output)")
        #expect(try String(contentsOfFile: folder + "/out.xml", encoding: .utf8).contains("crashes once"))
    }

    @Test("A story that always exits is tried 1 + N times, then fails; the run ends")
    func alwaysExits() async throws {
        let folder = try Binary.temporaryFolder("retry-crash")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SupervisionEndToEndTests.write(
            "Story: always exits\n  Given the step calls exit(3)\n\nStory: after\n  Given a step that passes\n", to: folder + "/exit.stories")
        let outcome = try await Binary.run(
            ["exit.stories", "--retry", "2", "--messages", "out.ndjson"], in: folder, timeout: 60,
            environment: SupervisionEndToEndTests.faults)
        #expect(!outcome.isTimedOut)
        #expect(outcome.status == 1, "\(outcome.output)")
        #expect(outcome.output.contains("Stories: 1 passed, 1 failed"), "\(outcome.output)")
        let messages = try String(contentsOfFile: folder + "/out.ndjson", encoding: .utf8)
        let attempts = messages.split(separator: "\n").filter { $0.contains("\"testCaseStarted\"") }.count
        #expect(attempts == 4, "3 attempts at the failing story and 1 at the other, not \(attempts)")
    }
}

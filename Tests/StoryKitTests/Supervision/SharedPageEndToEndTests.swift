import Foundation
import Testing
@testable import StoryKit

/// What a step can do to the page a worker shares with its parent, and to
/// the outbox of answers in it: the parent survives, every story has one
/// verdict, and the exit status tells the truth.
@Suite(.timeLimit(.minutes(10))) struct SharedPageEndToEndTests {
    static let faults = SupervisionEndToEndTests.faults

    @Test("A step that truncates the shared page (descriptor 5) cannot end the parent with SIGBUS")
    func truncatedPage() async throws {
        let folder = try Binary.temporaryFolder("shared-page")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SupervisionEndToEndTests.write(
            "Story: before\n  Given a step that passes\n\nStory: truncates\n  Given the step truncates descriptor 5\n  Then a step that passes\n\n"
                + "Story: unmaps\n  Given the step unmaps its shared page\n\nStory: after\n  Given a step that passes\n",
            to: folder + "/page.stories")
        let outcome = try await Binary.run(["page.stories", "--junit", "out.xml"], in: folder, timeout: 60, environment: Self.faults)
        #expect(!outcome.isTimedOut)
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("Stories: 3 passed, 1 failed"), "\(outcome.output)\(outcome.errorOutput)")
        let junit = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        #expect(junit.contains("tests=\"4\""))
    }

    @Test("A passing story's line longer than the outbox never goes into a file a step opened onto descriptor 4")
    func longLineToReplacedChannel() async throws {
        let folder = try Binary.temporaryFolder("shared-page")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let long = String(repeating: "z", count: 70_000)
        try SupervisionEndToEndTests.write(
            "Story: replaces\n  Given the step closes descriptor 4 and opens the file \"\(folder)/user.log\", closed on exec\n"
                + "  Then a step that passes with \"\(long)\"\n",
            to: folder + "/long.stories")
        let outcome = try await Binary.run(["long.stories"], in: folder, timeout: 60, environment: Self.faults)
        #expect(!outcome.isTimedOut)
        #expect(outcome.status == 1, "\(outcome.output)")
        #expect(outcome.output.contains("never reached storyrun"), "\(outcome.output)")
        let written = try Data(contentsOf: URL(fileURLWithPath: folder + "/user.log"))
        #expect(written.isEmpty, "the worker wrote \(written.count) bytes of its answers into the step's file")
    }

    @Test("A step that opens a file onto descriptor 4 with close-on-exec: its own story fails, never one after it; the rest pass")
    func replacedChannelBlamesItsStory() async throws {
        let folder = try Binary.temporaryFolder("shared-page")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SupervisionEndToEndTests.write(
            "Story: replaces\n  Given the step closes descriptor 4 and opens the file \"\(folder)/user.log\", closed on exec\n\n"
                + "Story: after one\n  Given a step that passes\n\nStory: after two\n  Given a step that passes\n",
            to: folder + "/replaces.stories")
        // The old check (close-on-exec only) let the story's line through and
        // lost the next one's, or none: it varied from run to run.
        for _ in 0..<5 {
            let outcome = try await Binary.run(["replaces.stories"], in: folder, timeout: 60, environment: Self.faults)
            #expect(!outcome.isTimedOut)
            #expect(outcome.status == 1, "\(outcome.output)")
            #expect(outcome.output.contains("FAILED  replaces"), "\(outcome.output)")
            #expect(outcome.output.contains("PASSED  after one") && outcome.output.contains("PASSED  after two"), "\(outcome.output)")
            #expect(outcome.output.contains("Stories: 2 passed, 1 failed"), "\(outcome.output)")
        }
    }

    @Test("A step that replaces descriptor 4 in the only story: the worker's after-run hooks are never silently skipped (exit 1, said why)")
    func replacedChannelAfterRunHooks() async throws {
        let folder = try Binary.temporaryFolder("shared-page")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SupervisionEndToEndTests.write(
            "Story: replaces\n  Given the step closes descriptor 4 and opens the file \"\(folder)/user.log\", closed on exec\n",
            to: folder + "/only.stories")
        // Whichever comes first, storyrun stopping the worker or the
        // crashing after-run hook, the run fails and says so.
        for _ in 0..<5 {
            let outcome = try await Binary.run(
                ["only.stories"], in: folder, timeout: 60,
                environment: Self.faults.merging(["STORYRUN_FAULT_AFTER_RUN": "crash"]) { $1 })
            #expect(!outcome.isTimedOut)
            #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
            #expect(outcome.output.contains("after-run hooks of a worker process did not run") || outcome.output.contains("after run hook at"),
                "\(outcome.output)")
            #expect(!outcome.output.contains("did the code call exit()"), "\(outcome.output)")
        }
    }

    @Test("A worker killed at any moment among quick passing stories: every story once, in the summary and the reports", arguments: [0, 400, 1_500])
    func killedAmongPasses(microseconds: Int) async throws {
        let folder = try Binary.temporaryFolder("shared-page")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var text = "Story: killer\n  Given the step kills its worker with SIGKILL in \(microseconds) microseconds\n\n"
        for index in 0..<300 { text += "Story: pass \(index)\n  Given a step that passes with \"\(String(repeating: "y", count: 150))\(index)\"\n\n" }
        try SupervisionEndToEndTests.write(text, to: folder + "/many.stories")
        let outcome = try await Binary.run(["many.stories", "--jobs", "2", "--json", "out.json"], in: folder, timeout: 120, environment: Self.faults)
        #expect(!outcome.isTimedOut)
        let json = try String(contentsOfFile: folder + "/out.json", encoding: .utf8)
        for index in [0, 1, 2, 150, 299] {
            #expect(json.components(separatedBy: "\"name\":\"pass \(index)\"").count - 1 == 1, "pass \(index)")
        }
        let failed = outcome.output.contains("Stories: 300 passed, 1 failed")
        #expect(failed || outcome.output.contains("Stories: 301 passed, 0 failed"), "\(outcome.output)")
        #expect(outcome.status == (failed ? 1 : 0))
        #expect(!outcome.output.contains("not run"))
    }
}

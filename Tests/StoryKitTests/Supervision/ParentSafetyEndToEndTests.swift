#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import StoryKit

/// The parent never crashes, hangs or takes a worker's word for what it can
/// check (issue 28, "The verdict and its parent"): stray lines on the
/// worker's channel, stray writes on the page it shares, hooks that end
/// their worker, and signals sent to the run. Each case failed on the build
/// before (a trap, a hang, an exit 0, or an exit with no report).
@Suite(.timeLimit(.minutes(10))) struct ParentSafetyEndToEndTests {
    static let faults = SupervisionEndToEndTests.faults

    static func run(_ stories: String, _ arguments: [String] = [], environment: [String: String] = [:], timeout: Double = 60)
        async throws -> (outcome: Binary.Outcome, junit: String) {
        let folder = try Binary.temporaryFolder("parent-safety")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SupervisionEndToEndTests.write(stories, to: folder + "/a.stories")
        let outcome = try await Binary.run(
            ["a.stories", "--junit", "out.xml"] + arguments, in: folder, timeout: timeout,
            environment: faults.merging(environment) { $1 })
        return (outcome, (try? String(contentsOfFile: folder + "/out.xml", encoding: .utf8)) ?? "")
    }

    @Test("A line of definitions used that names definition -1 ends its worker, never the parent: every story reported, exit 1")
    func negativeDefinition() async throws {
        let (outcome, junit) = try await Self.run(
            "Story: writes\n  Given the step writes \"U -1\" and a line end to descriptor 4\n  And the step waits 300 ms\n\n"
                + "Story: after\n  Given a step that passes\n")
        #expect(!outcome.isSignaled && !outcome.isTimedOut, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("naming definition -1"), "\(outcome.output)")
        #expect(outcome.output.contains("PASSED  after"), "\(outcome.output)")
        #expect(junit.contains("tests=\"2\""), "\(junit)")
    }

    @Test("A line that is no message ends its worker: the story it is in fails saying why, the next passes in a new worker")
    func invalidLine() async throws {
        let (outcome, _) = try await Self.run(
            "Story: writes\n  Given the step writes \"hello there\" and a line end to descriptor 4\n  And the step waits 300 ms\n\n"
                + "Story: after\n  Given a step that passes\n")
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("FAILED  writes"), "\(outcome.output)")
        #expect(outcome.output.contains("a line that is no message of a worker's (\"hello there\")"), "\(outcome.output)")
        #expect(outcome.output.contains("Stories: 1 passed, 1 failed"), "\(outcome.output)")
    }

    @Test("A step that keeps writing 0 into the deadline slot of the shared page is still stopped at --step-timeout")
    func deadlineOverwritten() async throws {
        let (outcome, _) = try await Self.run(
            "Story: escapes\n  Given the step keeps writing 0 into slot 5 of its shared page for 30 s\n\nStory: after\n  Given a step that passes\n",
            ["--step-timeout", "1"])
        #expect(outcome.seconds < 15, "ran \(outcome.seconds) s")
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("ran past its 1 s limit"), "\(outcome.output)")
        #expect(outcome.output.contains("PASSED  after"), "\(outcome.output)")
    }

    @Test("A before-run hook that marks its worker done and hangs fails the hook at --step-timeout; the run ends (exit 1), not hangs")
    func beforeRunHookMarksDone() async throws {
        let (outcome, junit) = try await Self.run(
            "Story: one\n  Given a step that passes\n", ["--step-timeout", "1"],
            environment: ["STORYRUN_FAULT_BEFORE_RUN": "mark-done-hang"], timeout: 40)
        #expect(!outcome.isTimedOut, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("before run hook at"), "\(outcome.output)")
        #expect(outcome.output.contains("1 not run"), "\(outcome.output)")
        #expect(!junit.isEmpty)
    }

    @Test("An after-run hook that marks its worker done and exits 0 fails the hook: exit 1")
    func afterRunHookMarksDoneAndExits() async throws {
        let (outcome, _) = try await Self.run(
            "Story: one\n  Given a step that passes\n", environment: ["STORYRUN_FAULT_AFTER_RUN": "mark-done-exit"])
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("after run hook at"), "\(outcome.output)")
        #expect(outcome.output.contains("exited with status 0 in this hook"), "\(outcome.output)")
    }

    /// Signals whose default action ends a process, sent to a run in its
    /// first story: the run stops as for SIGTERM, writes its reports, and
    /// exits 128 + the signal's number (before, it died at once with none).
    @Test("SIGUSR1, SIGALRM, SIGSYS or a real-time signal stop the run as SIGTERM does: reports written, exit 128+n",
        arguments: [("USR1", 10), ("ALRM", 14), ("SYS", 31), ("PROF", 27), ("40", 40)], ["", "--in-process"])
    func stoppingSignal(signal: (name: String, number: Int), mode: String) async throws {
        let folder = try Binary.temporaryFolder("parent-safety")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = try #require(Binary.path)
        try SupervisionEndToEndTests.write(
            "Story: slow\n  Given the step waits 3000 ms\n\nStory: next\n  Given a step that passes\n", to: folder + "/a.stories")
        let script = "'\(binary)' a.stories \(mode) --junit out.xml > out.txt 2>&1 & pid=$!; sleep 1; kill -\(signal.name) $pid; wait $pid; echo $? > status"
        let outcome = try await Binary.run(["-c", script], in: folder, executable: "/bin/bash", timeout: 60, environment: Self.faults)
        #expect(!outcome.isTimedOut)
        let status = try String(contentsOfFile: folder + "/status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let output = (try? String(contentsOfFile: folder + "/out.txt", encoding: .utf8)) ?? ""
        #expect(status == "\(128 + signal.number)", "\(output)")
        #expect(output.contains("not run"), "\(output)")
        let junit = (try? String(contentsOfFile: folder + "/out.xml", encoding: .utf8)) ?? ""
        #expect(junit.contains("<testsuites"), "no JUnit report")
    }

    /// With no terminal, nothing would ever continue a stopped run.
    @Test("SIGTTIN and SIGTTOU sent to a run with no terminal do not stop it", arguments: ["TTIN", "TTOU"])
    func stopSignalsWithoutTerminal(stop: String) async throws {
        let terminal = open("/dev/tty", O_RDONLY | O_NOCTTY)
        if terminal >= 0 {
            close(terminal)
            return  // Under a terminal, job control applies: not this case.
        }
        let folder = try Binary.temporaryFolder("parent-safety")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = try #require(Binary.path)
        try SupervisionEndToEndTests.write("Story: slow\n  Given the step waits 1500 ms\n", to: folder + "/a.stories")
        let script = "'\(binary)' a.stories > out.txt 2>&1 & pid=$!; sleep 0.5; kill -\(stop) $pid; sleep 2.5; "
            + "ps -o stat= -p $pid > state; kill -CONT $pid 2>/dev/null; wait $pid; echo $? > status"
        let outcome = try await Binary.run(["-c", script], in: folder, executable: "/bin/bash", timeout: 60, environment: Self.faults)
        #expect(!outcome.isTimedOut)
        let state = (try? String(contentsOfFile: folder + "/state", encoding: .utf8)) ?? ""
        #expect(!state.contains("T"), "the run was stopped: \(state)")
        let status = try String(contentsOfFile: folder + "/status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(status == "0")
    }
}

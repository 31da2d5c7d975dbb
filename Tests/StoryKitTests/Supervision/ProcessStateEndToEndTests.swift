import Foundation
import Testing
@testable import StoryKit

/// What a step does to its process (its working directory, its file mode
/// mask, a signal it raises on its own thread) neither leaks into the rest of
/// the run nor turns into a false green, supervised or in process.
@Suite(.timeLimit(.minutes(10))) struct ProcessStateEndToEndTests {
    static let faults = SupervisionEndToEndTests.faults

    @Test("A step that changes directory and umask in process: the reports land where asked, readable", arguments: [true, false])
    func directoryAndMask(inProcess: Bool) async throws {
        let folder = try Binary.temporaryFolder("process-state")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let elsewhere = folder + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        var text = "Story: wanders off\n  Given the step changes directory to \"\(elsewhere)\"\n  And the step sets the umask to 511\n\n"
        for index in 0..<12 { text += "Story: after \(index)\n  Given a step that passes\n\n" }
        try SupervisionEndToEndTests.write(text, to: folder + "/wander.stories")
        // Files of their own, so a worker reads some of them after the step.
        for index in 0..<12 {
            try SupervisionEndToEndTests.write("Story: file \(index)\n  Given a step that passes\n", to: folder + "/more-\(index).stories")
        }
        let outcome = try await Binary.run(
            ["."] + (inProcess ? ["--in-process"] : []) + ["--junit", "out.xml"], in: folder, timeout: 60, environment: Self.faults)
        #expect(!outcome.isTimedOut)
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("Stories: 25 passed, 0 failed"), "\(outcome.output)")
        #expect(!FileManager.default.fileExists(atPath: elsewhere + "/out.xml"))
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/out.xml")
        let permissions = (attributes[.posixPermissions] as? Int) ?? 0
        #expect(permissions & 0o600 == 0o600, "the report's mode is \(String(permissions, radix: 8))")
    }

    @Test("A program a step starts has a plain signal mask: an after hook that terminates it and waits ends at once", arguments: [true, false])
    func childSignalMask(inProcess: Bool) async throws {
        let folder = try Binary.temporaryFolder("process-state")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SupervisionEndToEndTests.write(
            "@stops-its-child\nStory: starts a server\n  Given the step starts `sleep 60` and writes the signals it blocks to \"mask.txt\"\n",
            to: folder + "/child.stories")
        let outcome = try await Binary.run(
            ["child.stories", "--step-timeout", "20"] + (inProcess ? ["--in-process"] : []), in: folder, timeout: 15, environment: Self.faults)
        #expect(!outcome.isTimedOut, "the after hook's wait did not return: \(outcome.output)")
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.seconds < 10)
        let line = try String(contentsOfFile: folder + "/mask.txt", encoding: .utf8)
        let mask = try #require(UInt64(line.split(separator: "\t").last ?? "", radix: 16), "\(line)")
        // Supervised, none at all; in process, a signal that would end the
        // run with no report stays blocked (a raise of it fails the step),
        // but not SIGHUP, SIGINT, SIGTERM.
        #expect(inProcess ? mask & 0b100_0000_0000_0011 == 0 : mask == 0, "the child blocks signals: \(line)")
    }

    @Test("A signal raised on the step's own thread fails the step in process (it passed)", arguments: [6, 15, 34])
    func raisedSignalInProcess(signal: Int) async throws {
        let folder = try Binary.temporaryFolder("process-state")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SupervisionEndToEndTests.write(
            "Story: raises\n  Given the step raises signal \(signal)\n\nStory: after\n  Given a step that passes\n", to: folder + "/raise.stories")
        for mode in [["--in-process"], []] {
            let outcome = try await Binary.run(["raise.stories", "--junit", "out.xml"] + mode, in: folder, timeout: 60, environment: Self.faults)
            #expect(outcome.status == 1, "\(mode): \(outcome.output)")
            #expect(outcome.output.contains("Stories: 1 passed, 1 failed"), "\(mode): \(outcome.output)")
            #expect(outcome.output.contains("signal \(signal)"), "\(mode): \(outcome.output)")
        }
    }

    @Test("A signal a step blocks on its thread and raises fails its story, supervised or in process", arguments: [15, 10])
    func blockedSignal(signal: Int) async throws {
        let folder = try Binary.temporaryFolder("process-state")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SupervisionEndToEndTests.write(
            // Steps that await after it: the story may end on another thread.
            "Story: blocks\n  Given the step blocks signal \(signal) and raises it\n  And a step that passes\n"
                + "  And the step sleeps 0 s honouring cancellation\n  And the step sleeps 0 s honouring cancellation\n\n"
                + "Story: after\n  Given a step that passes\n", to: folder + "/blocked.stories")
        for mode in [["--in-process"], []] {
            let outcome = try await Binary.run(["blocked.stories", "--junit", "out.xml"] + mode, in: folder, timeout: 60, environment: Self.faults)
            #expect(outcome.status == 1, "\(mode): \(outcome.output)")
            #expect(outcome.output.contains("Stories: 1 passed, 1 failed"), "\(mode): \(outcome.output)")
            #expect(outcome.output.contains("signal \(signal)"), "\(mode): \(outcome.output)")
        }
        // Supervised, the step that raised it fails, not a later one.
        let outcome = try await Binary.run(["blocked.stories"], in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.output.contains("failed: Given the step blocks signal \(signal) and raises it"), "\(outcome.output)")
    }

    @Test("A signal a step leaves blocked on its thread does not let a later story's raise pass")
    func signalLeftBlocked() async throws {
        let folder = try Binary.temporaryFolder("process-state")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SupervisionEndToEndTests.write(
            "Story: blocker\n  Given the step blocks signal 15\n\n"
                + "Story: raiser\n  Given the step raises signal 15\n  And a step that passes\n", to: folder + "/left.stories")
        let outcome = try await Binary.run(["left.stories"], in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 1, "\(outcome.output)")
        #expect(outcome.output.contains("Stories: 1 passed, 1 failed"), "\(outcome.output)")
        #expect(outcome.output.contains("failed: Given the step raises signal 15"), "\(outcome.output)")
    }

    @Test(
        "A signal a hook blocks and raises fails that hook, not a step",
        arguments: [("STORYRUN_FAULT_BEFORE_STORY", "before story"), ("STORYRUN_FAULT_AFTER_STEP", "after step")])
    func hookBlocksAndRaises(variable: String, kind: String) async throws {
        let folder = try Binary.temporaryFolder("process-state")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SupervisionEndToEndTests.write("Story: hooked\n  Given a step that passes\n  And a step that passes\n", to: folder + "/hook.stories")
        var environment = Self.faults
        environment[variable] = "blockraise15"
        let outcome = try await Binary.run(["hook.stories"], in: folder, timeout: 60, environment: environment)
        #expect(outcome.status == 1, "\(outcome.output)")
        #expect(outcome.output.contains("failed: the \(kind) hook at"), "\(outcome.output)")
        #expect(outcome.output.contains("signal 15 (SIGTERM) in this test step"), "\(outcome.output)")
    }

    @Test("In process, exit(0) in a step or a hook ends the run with status 1 and names the step or hook, never 0")
    func exitInProcess() async throws {
        let folder = try Binary.temporaryFolder("process-state")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SupervisionEndToEndTests.write(
            "Story: exits\n  Given the step prints \"printed last\" and \"said last\" to its error output\n  And the step calls exit(0)\n\n"
                + "Story: after\n  Given a step that passes\n", to: folder + "/exit.stories")
        try SupervisionEndToEndTests.write("Story: hooked\n  Given a step that passes\n", to: folder + "/hook.stories")
        let inStep = try await Binary.run(["exit.stories", "--in-process"], in: folder, timeout: 60, environment: Self.faults)
        #expect(inStep.status == 1, "\(inStep.output)\(inStep.errorOutput)")
        #expect(inStep.errorOutput.contains("did the code call exit()?), in the step at exit.stories:3 (story \"exits\")"), "\(inStep.errorOutput)")
        // What the step printed before it exited is not lost.
        #expect(inStep.output.contains("printed last"), "\(inStep.output)")
        var environment = Self.faults
        environment["STORYRUN_FAULT_BEFORE_STORY"] = "exit"
        let inHook = try await Binary.run(["hook.stories", "--in-process"], in: folder, timeout: 60, environment: environment)
        #expect(inHook.status == 1, "\(inHook.output)\(inHook.errorOutput)")
        #expect(inHook.errorOutput.contains("the process exited before the run's end"), "\(inHook.errorOutput)")
        // The hook is named, with its story.
        #expect(inHook.errorOutput.contains(", in the before story hook at "), "\(inHook.errorOutput)")
        #expect(inHook.errorOutput.contains("FaultSteps.swift:52 (story \"hooked\")"), "\(inHook.errorOutput)")
        // A run hook has no story.
        environment = Self.faults
        environment["STORYRUN_FAULT_AFTER_RUN"] = "exit"
        let inRunHook = try await Binary.run(["hook.stories", "--in-process"], in: folder, timeout: 60, environment: environment)
        #expect(inRunHook.status == 1, "\(inRunHook.output)\(inRunHook.errorOutput)")
        #expect(inRunHook.errorOutput.contains(", in the after run hook at "), "\(inRunHook.errorOutput)")
        #expect(inRunHook.errorOutput.contains("FaultSteps.swift:51;"), "\(inRunHook.errorOutput)")
        // A crash in a step's hook names the hook and the story.
        environment = Self.faults
        environment["STORYRUN_FAULT_AFTER_STEP"] = "crash"
        let crash = try await Binary.run(["hook.stories", "--in-process"], in: folder, timeout: 60, environment: environment)
        #expect(crash.status != 0, "\(crash.output)\(crash.errorOutput)")
        #expect(crash.errorOutput.contains("the process crashed in the after step hook at "), "\(crash.errorOutput)")
        #expect(crash.errorOutput.contains("FaultSteps.swift:55 (story \"hooked\")"), "\(crash.errorOutput)")
        // A run that reaches its end keeps its own status.
        let passing = try await Binary.run(["hook.stories", "--in-process"], in: folder, timeout: 60, environment: Self.faults)
        #expect(passing.status == 0, "\(passing.output)\(passing.errorOutput)")
    }
}

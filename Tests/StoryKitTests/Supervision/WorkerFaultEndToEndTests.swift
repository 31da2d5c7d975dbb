import Foundation
import Testing
@testable import StoryKit

/// Faults of step code that reach past its story: a worker left unable to
/// open files, and the processes a run ends when a worker dies. Shown
/// through the built executable with the fault steps
/// (`Sources/StoryrunSteps/FaultSteps.swift`).
@Suite(.timeLimit(.minutes(10))) struct WorkerFaultEndToEndTests {
    static let faults = ["STORYRUN_FIXTURE_STEPS": "faults"]

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Before, a step that opened descriptors until none was left passed,
    /// and then from 43 to 174 later stories failed, in every report, with
    /// "no story starts at st/n258.stories:1 any more: was the file changed
    /// during the run?": their worker could not open their files, and took
    /// that for a file that had changed. Workers no longer read story files
    /// (the parent sends each story whole), but the stories after a leak
    /// still need descriptors of their own: before, those the worker had
    /// read ahead of the leak ran in it, and a step that wrote a file
    /// failed. Now the worker checks before each story that it can open
    /// one, and when it cannot, starts no more: every later story runs in a
    /// new worker and passes, and the run fails naming the leaking story.
    @Test("A step that leaks every descriptor fails no other story: they run in a new worker, and the run fails naming the cause",
        arguments: [[], ["--jobs", "2"]])
    func descriptorLeak(options: [String]) async throws {
        let folder = try Binary.temporaryFolder("worker-fault")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/st", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/w", withIntermediateDirectories: true)
        try Self.write("Story: leaks\n  Given the step leaks descriptors until none is left\n", to: folder + "/st/a-leak.stories")
        for number in 0..<300 {
            // The first ones after the leak open a file each.
            let step = number < 20 ? "the step writes the file \"w/\(number).txt\"" : "a step that passes"
            try Self.write("Story: n\(number)\n  Given \(step)\n", to: folder + "/st/n" + String(format: "%03d", number) + ".stories")
        }
        let outcome = try await Binary.run(["st", "--junit", "out.xml"] + options, in: folder, timeout: 120, environment: Self.faults)
        let said = outcome.output + outcome.errorOutput
        #expect(outcome.output.contains("Stories: 301 passed, 0 failed"), "\(said)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/w").count == 20, "\(said)")
        // With two workers, the leaking one may be sent no story after the
        // leak: then nothing shows it, and the run passes. With one, it
        // always has stories left.
        let isSeen = said.contains("a worker process had no descriptor left to open (Too many open files), ")
        #expect(isSeen || !options.isEmpty, "\(said)")
        #expect(outcome.status == (isSeen ? 1 : 0), "\(said)")
        if isSeen {
            // What its descriptors are open on, and the story it ran last:
            // the leaking one.
            #expect(said.contains("open descriptors on /dev/null"), "\(said)")
            #expect(said.contains("a step in \"leaks\" (st/a-leak.stories:1), the story it ran last, may leak descriptors"), "\(said)")
            #expect(said.contains("; the run went on with a new worker"), "\(said)")
        }
        let junit = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        #expect(junit.contains("failures=\"0\""), "\(junit)")
    }

    /// Before, a before-run hook that used up the descriptors made each
    /// story cost a new worker (started again, its hooks run), which
    /// failed the same way: one worker a story. Then every story failed:
    /// its worker could not read its file. Workers read no story file now:
    /// the stories run, in that one worker, and only one whose own step
    /// needs a descriptor fails, at that step.
    @Test("A before-run hook that uses up the descriptors costs no worker a story: the stories run in one worker, and only one that opens a file fails")
    func descriptorsGoneBeforeAnyStory() async throws {
        let folder = try Binary.temporaryFolder("worker-fault")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/st", withIntermediateDirectories: true)
        for number in 0..<20 {
            try Self.write("Story: n\(number)\n  Given a step that passes\n", to: folder + "/st/n" + String(format: "%03d", number) + ".stories")
        }
        try Self.write("Story: writes\n  Given the step writes the file \"w.txt\"\n", to: folder + "/st/w.stories")
        var environment = Self.faults
        environment["STORYRUN_FAULT_BEFORE_RUN"] = "leak"
        environment["STORYRUN_DEFINE_LOG"] = folder + "/defined.txt"
        let outcome = try await Binary.run(["st"], in: folder, timeout: 120, environment: environment)
        let said = outcome.output + outcome.errorOutput
        #expect(outcome.status == 1, "\(said)")
        #expect(outcome.output.contains("Stories: 20 passed, 1 failed"), "\(said)")
        #expect(outcome.output.contains("FAILED  writes  st/w.stories:1"), "\(said)")
        #expect(outcome.output.contains("failed: Given the step writes the file \"w.txt\"  st/w.stories:2"), "\(said)")
        #expect(!said.contains("no descriptor left"), "\(said)")
        // The parent registers; the forked worker does not; no worker is
        // started again for each story.
        let registrations = (try? String(contentsOfFile: folder + "/defined.txt", encoding: .utf8))?.split(separator: "\n").count ?? 0
        #expect(registrations <= 2, "\(registrations) processes registered: \(said)")
    }

    /// Before, a "stopped" line a step wrote to its worker's channel was
    /// taken for the worker's own: the parent closed that worker's
    /// requests and said it could not open story files.
    @Test("A \"stopped\" line a step writes to descriptor 4 is not taken for its worker's")
    func forgedStop() async throws {
        let folder = try Binary.temporaryFolder("worker-fault")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(
            "Story: forges\n  Given the step writes \"X 1 \"forged\"\" and a line end to descriptor 4\n\nStory: next\n  Given a step that passes\n",
            to: folder + "/f.stories")
        let outcome = try await Binary.run(["f.stories"], in: folder, timeout: 60, environment: Self.faults)
        let said = outcome.output + outcome.errorOutput
        #expect(!said.contains("forged"), "\(said)")
        #expect(outcome.output.contains("Stories: 2 passed, 0 failed"), "\(said)")
    }
}

extension WorkerFaultEndToEndTests {
    /// The pids in the file the fixture's main writes, one a line: the
    /// parent's helper first (the parent runs `main` before any worker).
    static func helpers(in path: String) -> [pid_t] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    /// Whether `pid` is a `sleep` that still runs.
    static func isSleeping(_ pid: pid_t) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), !stat.contains(") Z ")
        else { return false }
        return String(decoding: data, as: UTF8.self).contains("sleep")
    }

    /// Before, when a worker crashed, the parent ended every child of its
    /// own that was not a worker: a process the executable's `main` started
    /// before the run (a shared test server) was killed, and the stories
    /// after the crash that needed it failed.
    @Test("A process the executable started before the run outlives a worker's crash; what the workers started does not",
        arguments: [[], ["--jobs", "2"]])
    func processStartedBeforeTheRun(options: [String]) async throws {
        let folder = try Binary.temporaryFolder("worker-fault")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/helpers"
        defer { for pid in Self.helpers(in: log) { kill(pid, SIGKILL) } }
        try Self.write(
            "Story: crashes\n  Given the step calls exit(3)\n\n"
                + "Story: leaves processes\n  Given the step starts a process that outlives it\n"
                + "  And the step starts a process in a session of its own\n  And the step raises SIGKILL\n\n"
                + "Story: after\n  Given a step that passes\n",
            to: folder + "/a.stories")
        let outcome = try await Binary.run(
            ["a.stories"] + options, in: folder, timeout: 60,
            environment: Self.faults.merging(["STORYRUN_FIXTURE_HELPER": log]) { $1 })
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("Stories: 1 passed, 2 failed"), "\(outcome.output)\(outcome.errorOutput)")
        let helpers = Self.helpers(in: log)
        // The parent's, and one for each worker started again (a forked
        // worker does not run `main` again).
        #expect(helpers.count >= 2, "\(helpers)")
        #expect(helpers.first.map(Self.isSleeping) == true, "the parent's helper was ended: \(helpers)")
        usleep(300_000)
        let left = SupervisionEndToEndTests.commandLines(in: folder).filter { $0.contains("sleep 299.5") || $0.contains("sleep 298.25") }
        #expect(left.isEmpty, "left running: \(left)")
        for pid in helpers.dropFirst() {
            #expect(!Self.isSleeping(pid), "a worker's helper \(pid) was left running")
        }
    }
}

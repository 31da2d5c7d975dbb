import Foundation
import Testing
@testable import StoryKit

/// A supervised run through the built executable, with steps that misbehave
/// on purpose (`Sources/StoryrunSteps/FaultSteps.swift`): the verdict, the
/// reports and the processes left, whatever the steps and the outside world do.
@Suite(.timeLimit(.minutes(10))) struct SupervisionEndToEndTests {
    static let faults = ["STORYRUN_FIXTURE_STEPS": "faults"]

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Stories named `name N` that each note their worker's process in
    /// `file`, then wait.
    static func waitingStories(_ name: String, _ count: Int, milliseconds: Int, noting file: String) -> String {
        (0..<count).map {
            "Story: \(name) \($0)\n  Given the step notes its process in \"\(file)\"\n  And the step waits \(milliseconds) ms\n\n"
        }.joined()
    }

    /// Stories that pass at once: enough of them make each worker's window
    /// hundreds of stories long.
    static func quickStories(_ count: Int) -> String {
        (0..<count).map { "Story: quick \($0)\n  Given a step that passes\n\n" }.joined()
    }

    /// The command lines of the processes running now in `folder` (their
    /// working directory): a test's own, not those of the same test run at
    /// once from another checkout.
    static func commandLines(in folder: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let folder = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        return entries.compactMap { name in
            guard Int(name) != nil, let directory = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(name)/cwd"),
                directory == folder,
                let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline")
            else { return nil }
            return String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
        }
    }

    @Test("The first worker is the run forked, a replacement after a crash is started again, and both give the same verdicts")
    func forkedFirstWorker() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(
            "Story: first\n  Given the step notes its command line in \"lines.txt\"\n  And the step raises SIGSEGV\n\n"
                + "Story: second\n  Given the step notes its command line in \"lines.txt\"\n  And a step that passes\n",
            to: folder + "/w.stories")
        func run(_ environment: [String: String]) async throws -> (lines: [String], output: String, registrations: Int) {
            try Self.write("", to: folder + "/lines.txt")
            try Self.write("", to: folder + "/defined.txt")
            var environment = environment
            environment["STORYRUN_DEFINE_LOG"] = folder + "/defined.txt"
            let outcome = try await Binary.run(["w.stories"], in: folder, timeout: 60, environment: environment)
            #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
            #expect(outcome.output.contains("1 passed, 1 failed"), "\(outcome.output)")
            #expect(outcome.output.contains("SIGSEGV"), "\(outcome.output)")
            let lines = try String(contentsOfFile: folder + "/lines.txt", encoding: .utf8).split(separator: "\n").map(String.init)
            let registrations = try String(contentsOfFile: folder + "/defined.txt", encoding: .utf8).split(separator: "\n").count
            return (lines, outcome.output, registrations)
        }
        // Forked: the worker's command line is the run's own, and it has
        // the parent's step definitions: only the parent and the worker
        // started again after the crash register them.
        let forked = try await run(Self.faults)
        try #require(forked.lines.count == 2, "\(forked)")
        #expect(!forked.lines[0].contains("--worker") && forked.lines[0].contains("w.stories"), "\(forked.lines)")
        #expect(forked.lines[1].contains("--worker"), "\(forked.lines)")
        #expect(forked.registrations == 2, "\(forked)")
        // Another executable for workers: started, never forked; each
        // registers.
        var other = Self.faults
        other["STORYRUN_WORKER_EXECUTABLE"] = try #require(Binary.path)
        let started = try await run(other)
        try #require(started.lines.count == 2, "\(started)")
        #expect(started.lines.allSatisfy { $0.contains("--worker") }, "\(started.lines)")
        #expect(started.registrations == 3, "\(started)")
        #expect(Self.verdicts(forked.output) == Self.verdicts(started.output))
    }

    @Test("A run started with its standard descriptors closed runs every story and replaces a crashed worker, forked or started again")
    func closedStandardDescriptors() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(
            "Story: crash\n  Given the step raises SIGSEGV\n\nStory: fine\n  Given a step that passes\n", to: folder + "/c.stories")
        let binary = try #require(Binary.path)
        for workers in ["", binary] {
            // Before, the run's first pipe took descriptor 1, and the worker
            // that replaced the crashed one read its requests from the
            // capture file: the run waited for ever (here, 20 s).
            let script = "timeout -s KILL 20 '\(binary)' c.stories --junit out.xml <&- >&- 2>&-; echo $? > status"
            var environment = Self.faults
            if !workers.isEmpty { environment["STORYRUN_WORKER_EXECUTABLE"] = workers }
            let outcome = try await Binary.run(["-c", script], in: folder, executable: "/bin/bash", timeout: 30, environment: environment)
            #expect(!outcome.isTimedOut)
            let status = try String(contentsOfFile: folder + "/status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(status == "1", "workers: \(workers.isEmpty ? "forked" : "started again")")
            let junit = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
            #expect(junit.components(separatedBy: "<testcase ").count - 1 == 2, "\(junit)")
            #expect(junit.contains("SIGSEGV"))
        }
    }

    @Test("A step's fatalError shows the stack under its message, the step's frame named with its file:line, in the forked worker as in one started again")
    func stackTraceOfATrap() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("Story: traps\n  Given the step crashes once, marking \"crashed\"\n", to: folder + "/t.stories")
        let binary = try #require(Binary.path)
        for workers in ["", binary] {
            try? FileManager.default.removeItem(atPath: folder + "/crashed")
            var environment = Self.faults
            if !workers.isEmpty { environment["STORYRUN_WORKER_EXECUTABLE"] = workers }
            let outcome = try await Binary.run(["t.stories", "--format", "pretty", "--no-color"], in: folder, timeout: 60, environment: environment)
            #expect(outcome.status == 1, "\(outcome.output)")
            #expect(outcome.output.contains("Fatal error: a step crashed once on purpose"), "\(outcome.output)")
            // Under the message, where a user looks for their own code's line.
            let how = "workers: \(workers.isEmpty ? "forked" : "started again")\n\(outcome.output)"
            #expect(outcome.output.contains("output │ Current stack trace:"), "\(how)")
            // The step's frame names its function and line; the message names them too.
            let trap = try Self.faultStepsLine(containing: "fatalError(\"a step crashed once on purpose\")")
            let frame = outcome.output.split(separator: "\n").first { $0.hasSuffix(" Sources/StoryrunSteps/FaultSteps.swift:\(trap)") }
            #expect(frame?.contains(" in static FaultSteps.define(_:)") == true, "\(how)")
            #expect(outcome.output.contains("in this test step, at Sources/StoryrunSteps/FaultSteps.swift:\(trap) (in closure #"), "\(how)")
        }
    }

    @Test("An index out of range in a step names the step's file:line in the crash message, forked or started again")
    func indexOutOfRange() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("Story: out of range\n  Given the step indexes an array out of range\n", to: folder + "/t.stories")
        let binary = try #require(Binary.path)
        let trap = try Self.faultStepsLine(containing: "numbers[numbers.count]")
        for workers in ["", binary] {
            var environment = Self.faults
            if !workers.isEmpty { environment["STORYRUN_WORKER_EXECUTABLE"] = workers }
            let outcome = try await Binary.run(["t.stories", "--format", "pretty", "--no-color"], in: folder, timeout: 60, environment: environment)
            let how = "workers: \(workers.isEmpty ? "forked" : "started again")\n\(outcome.output)"
            #expect(outcome.status == 1, "\(how)")
            // The runtime's own message names only the standard library's line.
            #expect(outcome.output.contains("Fatal error: Index out of range"), "\(how)")
            #expect(
                outcome.output.contains(
                    "crashed with signal 4 (SIGILL, a trap such as fatalError or a failed precondition) in this test step, "
                        + "at Sources/StoryrunSteps/FaultSteps.swift:\(trap) (in closure #"),
                "\(how)")
        }
    }

    /// The line of `Sources/StoryrunSteps/FaultSteps.swift` that holds `text`.
    static func faultStepsLine(containing text: String) throws -> Int {
        let source = try String(contentsOfFile: Golden.root + "/Sources/StoryrunSteps/FaultSteps.swift", encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.contains(text) }) + 1
    }

    /// The lines of terminal output that give a story's or the run's verdict.
    static func verdicts(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("PASSED") || $0.hasPrefix("FAILED") || $0.hasPrefix("Stories:") }
    }

    @Test("A story file whose path holds a tab and a line break runs whole, every story reported")
    func oddPath() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let name = "odd\tname\nhere%41.stories"
        try Self.write("Story: first\n  Given a step that passes\n\nStory: second\n  Given the step calls exit(3)\n\nStory: third\n  Given a step that passes\n", to: folder + "/" + name)
        let outcome = try await Binary.run([name, "--junit", "out.xml"], in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("Stories: 2 passed, 1 failed"), "\(outcome.output)")
        #expect(outcome.output.contains("exited with status 3"))
        let junit = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        #expect(junit.contains("tests=\"3\""))
    }

    @Test("With --jobs 2, a few slow stories are shared: the first worker ready does not take them all", arguments: [2, 4, 24])
    func slowStoriesShared(count: Int) async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(Self.waitingStories("slow", count, milliseconds: 200, noting: folder + "/workers.txt"), to: folder + "/slow.stories")
        let outcome = try await Binary.run(["slow.stories", "--jobs", "2"], in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errorOutput)")
        let workers = Set(try String(contentsOfFile: folder + "/workers.txt", encoding: .utf8).split(separator: "\n"))
        #expect(workers.count == 2, "the stories ran in \(workers.count) worker(s)")
    }

    @Test(
        "Under a process limit that leaves no thread to start, the run says so and exits 2: it never waits for ever",
        .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/su") && FileManager.default.isExecutableFile(atPath: "/bin/bash")),
        .enabled(
            if: Binary.path.map(SupervisionEndToEndTests.othersCanRun) ?? false,
            "the built storyrun is in a folder only its owner may enter (a clone in mktemp -d's folder): nobody cannot run it"))
    func processLimit() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The limit binds only a user other than root: nobody, in a folder it may use.
        chmod(folder, 0o777)
        try Self.write("Story: basket\n  Given an empty basket\n", to: folder + "/limit.stories")
        let storyrun = try #require(Binary.path)
        for limit in [3, 4] {
            let outcome = try await Binary.run(
                ["nobody", "-s", "/bin/bash", "-c", "ulimit -u \(limit) && STORYRUN_FIXTURE_STEPS=1 exec '\(storyrun)' limit.stories"],
                in: folder, executable: "/bin/su", timeout: 30)
            #expect(!outcome.isTimedOut, "ulimit -u \(limit): the run waited for ever")
            #expect(outcome.status == 2, "ulimit -u \(limit): \(outcome.output)\(outcome.errorOutput)")
            #expect((outcome.output + outcome.errorOutput).contains("cannot start a thread"), "\(outcome.output)\(outcome.errorOutput)")
        }
    }

    /// Whether a user other than the owner may run the file: every folder
    /// above it may be entered by others.
    static func othersCanRun(_ path: String) -> Bool {
        var folder = (path as NSString).deletingLastPathComponent
        while folder != "/" && !folder.isEmpty {
            var info = stat()
            guard stat(folder, &info) == 0, info.st_mode & 0o001 != 0 else { return false }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return true
    }

    @Test("With --jobs 2 and no before-run hook, the second worker starts once stories prove slow, and only then: two in all, no story lost")
    func secondWorkerStartsWhenNeeded() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The basket fixtures register no before-run hook. Quick stories,
        // then slow ones (the second worker starts for them), then quick
        // ones again.
        let quick = (0..<1000).map { "Story: quick \($0)\n  Given an empty basket\n  Then the basket is empty\n\n" }.joined()
        let slow = (0..<16).map { "Story: slow \($0)\n  Given a step that sleeps for 30 ms\n\n" }.joined()
        try Self.write(quick + slow + quick, to: folder + "/mixed.stories")
        // Each process of the run notes where it is (`STORYRUN_PHASES`):
        // every worker that starts writes a `worker main` line.
        let outcome = try await Binary.run(
            ["mixed.stories", "--jobs", "2"], in: folder, timeout: 60,
            environment: ["STORYRUN_FIXTURE_STEPS": "1", "STORYRUN_PHASES": folder + "/phases.txt"])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("2016 passed"), "\(outcome.output)")
        let phases = try String(contentsOfFile: folder + "/phases.txt", encoding: .utf8).split(separator: "\n")
        func times(_ phase: String) -> [UInt64] {
            phases.filter { $0.contains(" worker \(phase) ") }.compactMap { $0.split(separator: " ").last.flatMap { UInt64($0) } }.sorted()
        }
        let starts = times("main")
        #expect(starts.count == 2, "\(starts.count) workers started:\n\(phases.joined(separator: "\n"))")
        // Not at once: the second only after the first was running stories.
        if starts.count == 2, let firstReady = times("ready").first {
            #expect(starts[1] > firstReady, "the second worker started before the first was ready")
        }
    }

    @Test("A request larger than the pipe goes as fast as the worker reads it: the parent waits for room in the pipe, not for a word")
    func largeRequestsDoNotStall() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Six stories of 1.5 MB each (a doc string): 9 MB of requests
        // through a pipe of 1 MB. Waiting on words alone, the parent wrote
        // a pipeful per 50 ms wait, each wait a stall.
        let text = String(repeating: "      a line the customer wrote for the basket\n", count: 30_000)
        let scenarios = (0..<6).map { "  Scenario: long note \($0)\n    Given the customer writes:\n      \"\"\"\n\(text)      \"\"\"\n\n" }.joined()
        try Self.write("Feature: long notes\n\n" + scenarios, to: folder + "/notes.feature")
        let outcome = try await Binary.run(
            ["notes.feature"], in: folder, timeout: 120,
            environment: ["STORYRUN_FIXTURE_STEPS": "1", "STORYRUN_PHASES": folder + "/phases.txt"])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("6 passed"), "\(outcome.output)")
        let phases = try String(contentsOfFile: folder + "/phases.txt", encoding: .utf8).split(separator: "\n")
        // One stall may be a worker the machine did not schedule for 50 ms.
        let stalls = phases.filter { $0.contains(" parent request-stall ") }.count
        #expect(stalls <= 1, "the parent waited 50 ms with requests unsent \(stalls) times")
    }

    @Test("With --jobs 2, slow stories after many quick ones are shared: a worker left idle takes back another's unstarted stories")
    func slowStoriesAfterQuickOnes() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The slow ones at the end are all sent to one worker.
        try Self.write(
            Self.quickStories(600) + Self.waitingStories("slow", 4, milliseconds: 300, noting: folder + "/workers.txt"),
            to: folder + "/mixed.stories")
        let outcome = try await Binary.run(["mixed.stories", "--jobs", "2", "--junit", "out.xml"], in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("604 passed"), "\(outcome.output)")
        let workers = try String(contentsOfFile: folder + "/workers.txt", encoding: .utf8).split(separator: "\n")
        // Each slow story ran once, and not all in one worker.
        #expect(workers.count == 4, "\(workers)")
        #expect(Set(workers).count == 2, "the slow stories ran in \(Set(workers).count) worker(s)")
        let junit = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        #expect(junit.components(separatedBy: "<testcase ").count - 1 == 604, "every story once in the report")
    }

    @Test("Output that begins with many zero bytes is not lost: it goes with the story's last step that ran, with a note")
    func outputBeginningWithZeros() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(
            "Story: zeros\n  Given the step prints 100 zero bytes and \"after the zeros\"\n  And a step that passes\n\n"
                + "Story: few zeros\n  Given the step prints 3 zero bytes and \"after three\"\n  And a step that passes\n",
            to: folder + "/zeros.stories")
        let outcome = try await Binary.run(["zeros.stories", "--format", "pretty", "--no-color"], in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errorOutput)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        // Past the check's glance: under the next step, with the note.
        let passes = try #require(lines.firstIndex { $0.contains("And a step that passes") })
        // Output lines (not the step's own text).
        let after = try #require(lines.firstIndex { $0.contains("│") && $0.contains("after the zeros") })
        #expect(after > passes, "\(outcome.output)")
        #expect(outcome.output.contains("it began with zero bytes, so it was found only at the story's end"), "\(outcome.output)")
        // Within it: under the step that printed it.
        let three = try #require(lines.firstIndex { $0.contains("│") && $0.contains("after three") })
        let printing = try #require(lines.firstIndex { $0.contains("prints 3 zero bytes") })
        let nextStep = try #require(lines.lastIndex { $0.contains("And a step that passes") })
        #expect(three > printing && three < nextStep, "\(outcome.output)")
    }

    @Test("A 'given back' line a step writes for its own story neither runs it again nor hides its crash")
    func strayGivenBackLine() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Sequence 0 is the first story sent: this one, running.
        try Self.write(
            "Story: stray\n  Given the step notes its process in \"\(folder)/runs.txt\"\n"
                + "  And the step writes \"G 0\" and a line end to descriptor 4\n"
                + "  And the step crashes once, marking \"\(folder)/crashed\"\n\n"
                + "Story: other\n  Given a step that passes\n",
            to: folder + "/stray.stories")
        let outcome = try await Binary.run(["stray.stories", "--jobs", "2"], in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("1 passed, 1 failed"), "\(outcome.output)")
        let runs = try String(contentsOfFile: folder + "/runs.txt", encoding: .utf8).split(separator: "\n")
        #expect(runs.count == 1, "the story ran \(runs.count) times")
    }

    @Test("With --jobs 2, stories queued behind a long one are given back while it runs, not after")
    func givenBackBehindLongStory() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(
            Self.quickStories(600) + Self.waitingStories("long", 1, milliseconds: 1500, noting: folder + "/long.txt")
                + Self.waitingStories("medium", 4, milliseconds: 200, noting: folder + "/medium.txt"),
            to: folder + "/long.stories")
        let outcome = try await Binary.run(["long.stories", "--jobs", "2"], in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("605 passed"), "\(outcome.output)")
        let long = try String(contentsOfFile: folder + "/long.txt", encoding: .utf8).split(separator: "\n")
        let mediums = try String(contentsOfFile: folder + "/medium.txt", encoding: .utf8).split(separator: "\n")
        #expect(long.count == 1 && mediums.count == 4, "each story ran once: \(long) \(mediums)")
        // Sent with the long story to one worker, they waited for it (2-3
        // of the 4 ran after it there); now the other worker takes them.
        let afterLong = mediums.filter { $0 == long.first }.count
        #expect(afterLong <= 1, "\(afterLong) of the 4 stories behind the long one ran in its worker")
    }

    @Test("A step that truncates its own output does not crash its worker; a SIGBUS it raises still does")
    func truncatedOutput() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Enough printed first that the output ends past the file's first
        // page: read through the mapping, it was a SIGBUS once truncated.
        try Self.write(
            "Story: truncates\n  Given the step prints 8000 bytes without a line end\n  And the step truncates descriptor 1\n"
                + "  And the step prints \"after the truncation\" and \"said\" to its error output\n\n"
                + "Story: raises\n  Given the step raises signal 7\n",
            to: folder + "/truncate.stories")
        let outcome = try await Binary.run(["truncate.stories", "--format", "pretty", "--no-color"], in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("1 passed, 1 failed"), "\(outcome.output)")
        #expect(outcome.output.contains("after the truncation"), "\(outcome.output)")
        #expect(outcome.output.contains("signal 7 (SIGBUS"), "\(outcome.output)")
    }

    @Test("A story whose worker crashes is timed from its own start, not from when it was sent behind others")
    func crashedStoryDuration() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // One worker holds hundreds of stories at once: the crashing one
        // waits about 2 s behind the others before it starts.
        var text = ""
        for index in 0..<100 { text += "Story: wait \(index)\n  Given the step waits 20 ms\n\n" }
        text += "Story: crash\n  Given the step calls exit(3)\n"
        try Self.write(text, to: folder + "/queue.stories")
        let outcome = try await Binary.run(["queue.stories", "--junit", "out.xml"], in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        let junit = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        let crash = try #require(junit.range(of: "name=\"crash\""))
        let rest = junit[crash.upperBound...]
        let time = try #require(rest.range(of: "time=\"")).upperBound
        let seconds = Double(rest[time...].prefix { $0 != "\"" }) ?? -1
        #expect(seconds >= 0 && seconds < 1, "the crashed story took \(seconds) s")
    }

    @Test("Standard output a pipe that does not block, read slowly: no line is lost", arguments: [false, true])
    func nonBlockingOutput(inProcess: Bool) throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Long names: the pipe fills long before the run ends.
        let long = String(repeating: "a story with a long name ", count: 8)
        var text = ""
        for index in 0..<3000 { text += "Story: \(long)\(index)\n  Given a step that passes\n\n" }
        try Self.write(text, to: folder + "/many.stories")
        // As a Node.js parent makes it: the write end does not block, so a
        // full pipe answers EAGAIN instead of waiting.
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Binary.path))
        process.arguments = ["many.stories"] + (inProcess ? ["--in-process"] : [])
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = ProcessInfo.processInfo.environment.merging(Self.faults) { $1 }
        process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
        process.standardError = FileHandle.nullDevice
        try process.run()
        close(ends[1])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Let the pipe fill before reading anything.
        usleep(300_000)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let start = Date()
        while Date().timeIntervalSince(start) < 60 {
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, 4096) }
            if count <= 0 { break }
            output += buffer[..<count]
            usleep(200)
        }
        close(ends[0])
        // Bounded: killed (by the deferred kill) if still running after 60 s.
        let end = Date()
        while process.isRunning && Date().timeIntervalSince(end) < 60 { usleep(10_000) }
        try #require(!process.isRunning, "storyrun many.stories did not end within 60 s")
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(process.terminationStatus == 0)
        #expect(lines.filter { $0.hasPrefix("PASSED") }.count == 3000)
        #expect(lines.contains("Stories: 3000 passed, 0 failed"), "\(lines.suffix(3))")
    }

    @Test("A closed standard output (| head -1) neither stops the run nor its file reports")
    func closedOutput() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var text = ""
        for index in 0..<200 { text += "Story: story \(index)\n  Given a step that passes\n\n" }
        text += "Story: the last one fails\n  Given the step calls exit(1)\n"
        try Self.write(text, to: folder + "/many.stories")
        let binary = try #require(Binary.path)
        let script = "'\(binary)' many.stories --junit out.xml | head -1; echo ${PIPESTATUS[0]} > status"
        let outcome = try await Binary.run(["-c", script], in: folder, executable: "/bin/bash", timeout: 60, environment: Self.faults)
        #expect(!outcome.isTimedOut)
        let status = try String(contentsOfFile: folder + "/status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(status == "1", "storyrun ended with \(status), not 1 (141 is SIGPIPE)")
        let junit = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        #expect(junit.contains("tests=\"201\""))
        #expect(junit.contains("the last one fails"))
    }

    @Test("Workers that cannot start: the run says why, counts what did not run, exits 1, never hangs")
    func workersCannotStart() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("Story: one\n  Given a step that passes\n\nStory: two\n  Given a step that passes\n", to: folder + "/a.stories")
        let outcome = try await Binary.run(
            ["a.stories", "--json", "out.json"], in: folder, timeout: 30,
            environment: Self.faults.merging(["STORYRUN_WORKER_EXECUTABLE": folder + "/removed"]) { $1 })
        #expect(!outcome.isTimedOut)
        #expect(outcome.status == 1, "\(outcome.output)")
        #expect(outcome.output.contains("cannot start a worker process"), "\(outcome.output)")
        #expect(outcome.output.contains("2 stories were not run"), "\(outcome.output)")
        #expect(FileManager.default.fileExists(atPath: folder + "/out.json"))
    }

    @Test("Every worker ends in a crash: the after-run hooks still run, in one more worker, and their failure is reported", arguments: [[], ["--jobs", "2"], ["--retry", "1"]])
    func afterRunHooksWhenEveryWorkerCrashed(options: [String]) async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("Story: the only one\n  Given the step calls exit(3)\n", to: folder + "/crash.stories")
        // Before: the one worker died in the story and no after-run hook ran
        // (nor said so); the run's verdict left it out.
        let outcome = try await Binary.run(
            ["crash.stories", "--messages", "out.ndjson"] + options, in: folder, timeout: 60,
            environment: Self.faults.merging(["STORYRUN_FAULT_AFTER_RUN": "throw"]) { $1 })
        #expect(!outcome.isTimedOut)
        #expect(outcome.status == 1, "\(outcome.output)")
        #expect(outcome.output.contains("FAILED  the only one"), "\(outcome.output)")
        #expect(outcome.output.contains("after run hook"), "\(outcome.output)")
        let messages = try String(contentsOfFile: folder + "/out.ndjson", encoding: .utf8)
        #expect(messages.contains("\"testRunHookFinished\"") && messages.contains("\"FAILED\""))
    }

    @Test("An after-run hook that crashes the last worker is named, and no new worker is claimed to take over")
    func afterRunHookCrashMessage() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("Story: passes\n  Given a step that passes\n", to: folder + "/a.stories")
        let outcome = try await Binary.run(
            ["a.stories"], in: folder, timeout: 60, environment: Self.faults.merging(["STORYRUN_FAULT_AFTER_RUN": "crash"]) { $1 })
        #expect(!outcome.isTimedOut)
        #expect(outcome.status == 1, "\(outcome.output)")
        #expect(outcome.output.contains("after run hook at") && outcome.output.contains("in this hook"), "\(outcome.output)")
        #expect(!outcome.output.contains("went on with a new worker"), "\(outcome.output)")
    }

    @Test("A crash in a story with an undefined step: not run again under --retry, as a failing one is not (its crash is the verdict)")
    func noRetryOfUndefinedStoryAfterCrash() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(
            "Story: crashes once\n  Given the step crashes once, marking \"\(folder)/marked\"\n  And a step nobody defined\n",
            to: folder + "/once.stories")
        let outcome = try await Binary.run(["once.stories", "--retry", "2", "--strict"], in: folder, timeout: 60, environment: Self.faults)
        #expect(!outcome.isTimedOut)
        #expect(outcome.status == 1, "\(outcome.output)")
        // Run again, it would have passed the crash and ended undefined.
        #expect(outcome.output.contains("FAILED  crashes once"), "\(outcome.output)")
        #expect(outcome.output.contains("Stories: 0 passed, 1 failed"), "\(outcome.output)")
    }

    @Test("SIGINT while the worker starts: the run says it was interrupted, not that a worker could not start; exit 130")
    func interruptedWhileWorkerStarts() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("Story: one\n  Given a step that passes\n\nStory: two\n  Given a step that passes\n", to: folder + "/a.stories")
        let binary = try #require(Binary.path)
        // A worker that takes 5 s to start: the interrupt lands before it is ready.
        try Self.write("#!/bin/sh\nsleep 5\nexec '\(binary)' \"$@\"\n", to: folder + "/slow-worker")
        chmod(folder + "/slow-worker", 0o755)
        // Job control on: a script's background job starts with SIGINT
        // ignored, and the run keeps it so.
        let script = "set -m; '\(binary)' a.stories --junit out.xml > out.txt 2>&1 & pid=$!; sleep 1; kill -INT $pid; wait $pid; echo $? > status"
        let outcome = try await Binary.run(
            ["-c", script], in: folder, executable: "/bin/bash", timeout: 60,
            environment: Self.faults.merging(["STORYRUN_WORKER_EXECUTABLE": folder + "/slow-worker"]) { $1 })
        #expect(!outcome.isTimedOut)
        let status = try String(contentsOfFile: folder + "/status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let output = (try? String(contentsOfFile: folder + "/out.txt", encoding: .utf8)) ?? ""
        #expect(status == "130", "\(output)")
        #expect(output.contains("2 stories were not run (the run was interrupted)"), "\(output)")
        #expect(!output.contains("before it was ready"), "\(output)")
        #expect(FileManager.default.fileExists(atPath: folder + "/out.xml"))
    }

    @Test("SIGTERM: the running story fails as interrupted, every report is written, exit 143, nothing left running")
    func terminated() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(
            "Story: quick\n  Given a step that passes\n\nStory: slow\n  Given a step that blocks for 20 s\n\nStory: never\n  Given a step that passes\n",
            to: folder + "/slow.stories")
        let binary = try #require(Binary.path)
        // A limit no other run uses marks this run's workers in the process list.
        let script = "'\(binary)' slow.stories --step-timeout 61.25 --junit out.xml --messages out.ndjson > out.txt 2>&1 & pid=$!; sleep 2; kill -TERM $pid; wait $pid; echo $? > status"
        let outcome = try await Binary.run(["-c", script], in: folder, executable: "/bin/bash", timeout: 60, environment: Self.faults)
        #expect(!outcome.isTimedOut)
        let status = try String(contentsOfFile: folder + "/status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let output = (try? String(contentsOfFile: folder + "/out.txt", encoding: .utf8)) ?? ""
        #expect(status == "143", "\(output)")
        #expect(output.contains("PASSED  quick"))
        #expect(output.contains("interrupted (SIGTERM)"))
        #expect(output.contains("1 story was not run (the run was interrupted)"))
        let junit = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        #expect(junit.contains("quick") && junit.contains("slow"))
        #expect(FileManager.default.fileExists(atPath: folder + "/out.ndjson"))
        usleep(300_000)
        #expect(!Self.commandLines(in: folder).contains { $0.contains("61.25") })
    }

    @Test("A parent killed while a step blocks leaves no worker and no process of a step running")
    func parentKilled() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(
            "Story: leaves a server and blocks\n  Given the step starts a process that outlives it\n  And a step that blocks for 20 s\n",
            to: folder + "/block.stories")
        let binary = try #require(Binary.path)
        let script = "'\(binary)' block.stories --step-timeout 62.75 > out.txt 2>&1 & pid=$!; sleep 2; kill -KILL $pid; wait $pid; sleep 1"
        let outcome = try await Binary.run(["-c", script], in: folder, executable: "/bin/bash", timeout: 60, environment: Self.faults)
        #expect(!outcome.isTimedOut)
        let left = Self.commandLines(in: folder).filter { $0.contains("62.75") || $0.contains("sleep 299.5") }
        #expect(left.isEmpty, "left running: \(left)")
    }
}

extension SupervisionEndToEndTests {
    /// A worker started from a path whose executable was rebuilt during the
    /// run (watch mode rebuilding storyrun) speaks another build's wire.
    /// Its ready line names its build (the linker's GNU build id); the
    /// parent compares it with its own. Here the "other build" is a script
    /// that says build 00ff and waits; before, the parent took it as a
    /// worker and waited for answers that never came.
    @Test("A worker of another build is stopped: the stories are not run, the message names both builds, the run fails")
    func workerOfAnotherBuild() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("Story: a\n  Given a step that passes\n\nStory: b\n  Given a step that passes\n", to: folder + "/a.stories")
        try Self.write("#!/bin/sh\nprintf 'R 00ff\\n' >&4\nexec cat <&3 >/dev/null\n", to: folder + "/other-build")
        chmod(folder + "/other-build", 0o755)
        var environment = Self.faults
        environment["STORYRUN_WORKER_EXECUTABLE"] = folder + "/other-build"
        let outcome = try await Binary.run(["a.stories", "--junit", "r.xml"], in: folder, timeout: 60, environment: environment)
        #expect(!outcome.isTimedOut)
        #expect(outcome.status == StoryKit.ExitStatus.storyFailed.rawValue, "\(outcome.output)\(outcome.errorOutput)")
        let said = outcome.output + outcome.errorOutput
        #expect(said.contains("is build 00ff, not this run's build "), "\(said)")
        #expect(said.contains("rebuilt or replaced while storyrun ran"), "\(said)")
        #expect(said.contains("2 not run"), "\(said)")
        let junit = try String(contentsOfFile: folder + "/r.xml", encoding: .utf8)
        #expect(junit.components(separatedBy: "<skipped>not run: the worker process started from").count - 1 == 2, "\(junit)")
        // The same build started again (a copy's path, not forked) is taken.
        environment["STORYRUN_WORKER_EXECUTABLE"] = Binary.path
        let same = try await Binary.run(["a.stories"], in: folder, timeout: 60, environment: environment)
        #expect(same.status == 0, "\(same.output)\(same.errorOutput)")
    }

    /// A worker of this build that says it is ready and ends before it
    /// runs a story: before, the parent started another about 3,500 times
    /// in 20 s, until the test's limit; now it stops after three.
    @Test
    func workersThatEndBeforeAnyStory() async throws {
        let folder = try Binary.temporaryFolder("supervision")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = try #require(Binary.path, "build storyrun first: swift build")
        let notes = try await Binary.run(["-n", binary], in: folder, executable: "/usr/bin/readelf", timeout: 60)
        let id = try #require(notes.output.components(separatedBy: "Build ID: ").dropFirst().first?.prefix { $0.isHexDigit })
        try Self.write("Story: a\n  Given a step that passes\n\nStory: b\n  Given a step that passes\n", to: folder + "/a.stories")
        try Self.write("#!/bin/sh\necho started >> \"\(folder)/starts\"\nprintf 'R \(id)\\n' >&4\nexit 0\n", to: folder + "/quitter")
        chmod(folder + "/quitter", 0o755)
        var environment = Self.faults
        environment["STORYRUN_WORKER_EXECUTABLE"] = folder + "/quitter"
        let outcome = try await Binary.run(["a.stories", "--junit", "r.xml"], in: folder, timeout: 60, environment: environment)
        #expect(!outcome.isTimedOut)
        #expect(outcome.status == StoryKit.ExitStatus.storyFailed.rawValue, "\(outcome.output)\(outcome.errorOutput)")
        let said = outcome.output + outcome.errorOutput
        #expect(said.contains("3 worker processes in a row ended by themselves (the last: exit(0))"), "\(said)")
        #expect(said.contains("2 not run"), "\(said)")
        let starts = try String(contentsOfFile: folder + "/starts", encoding: .utf8)
        #expect(starts.split(separator: "\n").count == 3, "\(starts)")
        let junit = try String(contentsOfFile: folder + "/r.xml", encoding: .utf8)
        #expect(junit.components(separatedBy: "<skipped>not run: 3 worker processes in a row").count - 1 == 2, "\(junit)")
    }
}

import Foundation
import Testing
@testable import StoryKit

/// Findings of an adversarial round, each shown through the built
/// executable with the fault steps (`Sources/StoryrunSteps/FaultSteps.swift`).
@Suite(.timeLimit(.minutes(10))) struct AdversaryEndToEndTests {
    static let faults = ["STORYRUN_FIXTURE_STEPS": "faults"]

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Before, a worker read a story's file again, and when the file
    /// changed after the parent read it (here a step edits it, then its
    /// worker exits, so a new worker would read the new text), the parent
    /// reported its own steps with the results of others: the failing step
    /// it planned "passed", never run. Then a fingerprint failed such a
    /// story as changed. Now the worker receives the planned story itself:
    /// it runs the steps the run read and reports, whatever the file says.
    @Test("A story whose file changed during the run runs and is reported as the run read it", arguments: [false, true])
    func storyFileChangedDuringRun(retry: Bool) async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = retry
            // Its first attempt edits its own failing step, then crashes; the
            // retry, in a new worker, runs the step as planned, not as edited.
            ? "Story: edits itself\n  Given the step replaces line 3 of \"edit.stories\" with \"  And a step that passes\"\n  And the step calls exit(7)\n"
            : "Story: edits the file\n  Given the step replaces line 6 of \"edit.stories\" with \"  Given a step that passes\"\n  And the step calls exit(1)\n\nStory: should fail\n  Given the step calls exit(7)\n"
        try Self.write(text, to: folder + "/edit.stories")
        var arguments = ["edit.stories", "--junit", "out.xml"]
        if retry { arguments += ["--retry", "1"] }
        let outcome = try await Binary.run(arguments, in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains(retry ? "Stories: 0 passed, 1 failed" : "Stories: 0 passed, 2 failed"), "\(outcome.output)")
        // The step planned ran (the edited one would have passed).
        let line = retry ? 3 : 6
        #expect(outcome.output.contains("the step calls exit(7)  edit.stories:\(line)\n      the worker process exited with status 7"), "\(outcome.output)")
        #expect(!outcome.output.contains("a step that passes  edit.stories"), "\(outcome.output)")
        let junit = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        #expect(junit.contains(retry ? "failures=\"1\"" : "failures=\"2\""), "\(junit)")
        #expect(junit.contains("exited with status 7"), "\(junit)")
    }
}

extension AdversaryEndToEndTests {
    /// Before, `--junit a.stories` (or a link to it, or another spelling)
    /// ran the stories and then replaced the story file with the report;
    /// `--json storyrun.json` replaced the config file the run read.
    @Test("A report that would replace a story file the run reads is rejected before anything runs: exit 2, the file kept", arguments: [
        ["a.stories", "--junit", "a.stories"],
        [".", "--json", "./sub/../a.stories"],
        ["a.stories", "--html", "link.xml"],
        ["check", "a.stories", "--json", "a.stories"],
        ["a.stories", "--config", "storyrun.json", "--json", "./storyrun.json"],
    ])
    func reportOverStoryFile(arguments: [String]) async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let story = "Story: kept\n  Given a step that passes\n"
        try Self.write(story, to: folder + "/a.stories")
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        symlink("a.stories", folder + "/link.xml")
        let config = "{\"retry\": 0}\n"
        try Self.write(config, to: folder + "/storyrun.json")
        let outcome = try await Binary.run(arguments, in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 2, "\(outcome.output)\(outcome.errorOutput)")
        let kind = arguments.contains("--config") ? "config file" : "story file"
        #expect((outcome.output + outcome.errorOutput).contains("would replace the \(kind)"), "\(outcome.output)\(outcome.errorOutput)")
        #expect(try String(contentsOfFile: folder + "/a.stories", encoding: .utf8) == story)
        #expect(try String(contentsOfFile: folder + "/storyrun.json", encoding: .utf8) == config)
        // A report beside the stories, not one of them, is written.
        let fine = try await Binary.run(["a.stories", "--junit", "sub/out.xml"], in: folder, timeout: 60, environment: Self.faults)
        #expect(fine.status == 0, "\(fine.output)\(fine.errorOutput)")
    }
}

extension AdversaryEndToEndTests {
    /// Before, a story whose worker crashed, waiting to run again
    /// (`--retry`) when `--fail-fast` stopped the run for another story, was
    /// counted "not run": its crash was in no report.
    @Test("--retry, --jobs 2, --fail-fast: a story that crashed and waits for its retry when the run stops is reported failed, not 'not run'")
    func crashedStoryWaitingForRetryWhenStopped() async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let storyrun = try #require(Binary.path)
        // Workers after the first two start slowly: the crashed story's
        // retry waits for one while the other story fails.
        try Self.write(
            "#!/bin/sh\nn=$(cat '\(folder)/count' 2>/dev/null || echo 0)\necho $((n+1)) > '\(folder)/count'\n"
                + "[ \"$n\" -ge 2 ] && sleep 3\nexec '\(storyrun)' \"$@\"\n",
            to: folder + "/worker")
        chmod(folder + "/worker", 0o755)
        try Self.write(
            "Story: crashes\n  Given the step waits 300 ms\n  And the step calls exit(3)\n\n"
                + "Story: fails\n  Given the step waits 400 ms\n  And the step changes directory to \"/nonexistent-adversary\"\n\n"
                + "Story: never runs\n  Given a step that passes\n",
            to: folder + "/stop.stories")
        let outcome = try await Binary.run(
            ["stop.stories", "--jobs", "2", "--retry", "1", "--fail-fast", "--junit", "out.xml", "--rerun", "rerun.txt"],
            in: folder, timeout: 60,
            environment: Self.faults.merging(["STORYRUN_WORKER_EXECUTABLE": folder + "/worker"]) { $1 })
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("Stories: 0 passed, 2 failed, 1 not run"), "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("exited with status 3"), "\(outcome.output)")
        let junit = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        #expect(junit.contains("name=\"crashes\"") && junit.contains("failures=\"2\""), "\(junit)")
        let rerun = try String(contentsOfFile: folder + "/rerun.txt", encoding: .utf8)
        #expect(rerun.contains(":1") && rerun.contains(":5"), "\(rerun)")
    }
}

extension AdversaryEndToEndTests {
    /// A passing story's compact answer, as a worker writes it, for the
    /// fault steps' hooks (two before the story, two around each step, two
    /// after it) and `steps` steps run by definition 42.
    static func forgedPass(sequence: Int, steps: Int) -> String {
        "P \(sequence) 1000 h0:1 h10:1" + String(repeating: " h1:1 h12:1 s:1:42: h13:1 h2:1", count: steps) + " h11:1 h3:1"
    }

    /// Before, an answer line a step wrote to descriptor 4 for a story not
    /// yet run (the second: "P 1 …") was taken for that story's answer: a
    /// failing story passed and the run exited 0. For its own story, the
    /// forged answer is taken only when storyrun reads it after the story
    /// finished (before that, it is not the worker's: the story fails as it
    /// ran); either way the real one then comes out of turn, and the run
    /// fails with a diagnostic instead of exiting 0.
    @Test("An answer a step writes to descriptor 4 neither passes a failing story nor lets the run exit 0", arguments: [false, true])
    func forgedAnswer(ownStory: Bool) async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = ownStory
            ? "Story: forges its own pass\n  Given the step writes \"\(Self.forgedPass(sequence: 0, steps: 2))\" and a line end to descriptor 4\n"
                + "  And the step changes directory to \"/nonexistent-adversary\"\n\nStory: after\n  Given a step that passes\n"
            : "Story: forges\n  Given the step writes \"\(Self.forgedPass(sequence: 1, steps: 1))\" and a line end to descriptor 4\n\n"
                + "Story: must fail\n  Given the step changes directory to \"/nonexistent-adversary\"\n"
        try Self.write(text, to: folder + "/forge.stories")
        let outcome = try await Binary.run(["forge.stories", "--junit", "out.xml"], in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("carried an answer for a story out of turn"), "\(outcome.output)")
        if !ownStory {
            #expect(outcome.output.contains("Stories: 1 passed, 1 failed"), "\(outcome.output)")
            let junit = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
            #expect(junit.contains("failures=\"1\""), "\(junit)")
        }
    }

    /// Before, a pass a step wrote for its own story, followed by the
    /// worker's death (an exit, a crash, a step past its time limit), was
    /// the story's answer: the death came for a story already answered and
    /// was dropped, and the run exited 0 with the story passed in every
    /// report.
    @Test("A pass a step forges for its own story before its worker dies neither passes the story nor the run", arguments: ["calls _exit(1)", "raises SIGSEGV"])
    func forgedAnswerThenDeath(death: String) async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(
            "Story: forged\n  Given the step writes \"\(Self.forgedPass(sequence: 0, steps: 2))\" and a line end to descriptor 4\n  When the step \(death)\n",
            to: folder + "/forge.stories")
        let outcome = try await Binary.run(["forge.stories", "--junit", "out.xml"], in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("FAILED  forged"), "\(outcome.output)")
        #expect(outcome.output.contains("Stories: 0 passed, 1 failed"), "\(outcome.output)")
        let junit = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        #expect(junit.contains("failures=\"1\""), "\(junit)")
    }
}

extension AdversaryEndToEndTests {
    /// Before, a story whose worker crashed and that waited for its retry
    /// (its new worker still starting) when SIGINT came was counted "not
    /// run": the reports written for what ran left out a story that ran.
    @Test("SIGINT while a crashed story waits for its retry: it is reported failed with its crash, the rest not run; exit 130")
    func interruptedWhileCrashedStoryWaitsForRetry() async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = try #require(Binary.path)
        // The first worker starts at once, the next ones in 5 s.
        try Self.write(
            "#!/bin/sh\nif [ -e '\(folder)/started' ]; then sleep 5; fi\ntouch '\(folder)/started'\nexec '\(binary)' \"$@\"\n",
            to: folder + "/worker")
        chmod(folder + "/worker", 0o755)
        try Self.write("Story: crashes\n  Given the step waits 200 ms\n  And the step calls exit(3)\n\nStory: next\n  Given a step that passes\n", to: folder + "/a.stories")
        // Job control on: a script's background job starts with SIGINT
        // ignored, and the run keeps it so.
        let script = "set -m; '\(binary)' a.stories --retry 1 --junit out.xml > out.txt 2>&1 & pid=$!; sleep 1.5; kill -INT $pid; wait $pid; echo $? > status"
        let outcome = try await Binary.run(
            ["-c", script], in: folder, executable: "/bin/bash", timeout: 60,
            environment: Self.faults.merging(["STORYRUN_WORKER_EXECUTABLE": folder + "/worker"]) { $1 })
        #expect(!outcome.isTimedOut)
        let status = try String(contentsOfFile: folder + "/status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let output = (try? String(contentsOfFile: folder + "/out.txt", encoding: .utf8)) ?? ""
        #expect(status == "130", "\(output)")
        #expect(output.contains("Stories: 0 passed, 1 failed, 1 not run"), "\(output)")
        #expect(output.contains("exited with status 3"), "\(output)")
        let junit = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        #expect(junit.contains("name=\"crashes\""), "\(junit)")
    }
}

extension AdversaryEndToEndTests {
    /// Before, `merge s1.json ./s1.json` (or a glob that named a shard twice)
    /// counted every story of it twice, silently; shards that overlapped
    /// (each read a different --timings file) did the same.
    @Test("merge: the same file twice is exit 2; a story in two inputs is named in a warning")
    func mergeSameStoryTwice() async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("Story: one\n  Given a step that passes\n\nStory: two\n  Given the step calls exit(2)\n", to: folder + "/d.stories")
        let run = try await Binary.run(["d.stories", "--json", "s1.json"], in: folder, timeout: 60, environment: Self.faults)
        #expect(run.status == 1, "\(run.output)\(run.errorOutput)")
        let twice = try await Binary.run(["merge", "s1.json", "./s1.json", "--junit", "all.xml"], in: folder, timeout: 60)
        #expect(twice.status == 2, "\(twice.output)\(twice.errorOutput)")
        #expect(twice.output.contains("is given twice to merge"), "\(twice.output)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/all.xml"))
        try FileManager.default.copyItem(atPath: folder + "/s1.json", toPath: folder + "/copy.json")
        let overlap = try await Binary.run(["merge", "s1.json", "copy.json"], in: folder, timeout: 60)
        #expect(overlap.status == 1, "\(overlap.output)\(overlap.errorOutput)")
        #expect(overlap.output.contains("2 stories are in more than one of the merged reports"), "\(overlap.output)")
        #expect(overlap.output.contains("d.stories:4 (in s1.json and copy.json)"), "\(overlap.output)")
        let fine = try await Binary.run(["merge", "s1.json"], in: folder, timeout: 60)
        #expect(!fine.output.contains("warning"), "\(fine.output)")
    }
}

extension AdversaryEndToEndTests {
    /// Before, SIGHUP (a terminal or ssh session that closed under a long
    /// run) ended the parent at once: no report at all, status 129 from the
    /// signal.
    @Test("SIGHUP: the running story fails as interrupted, every report is written, exit 129")
    func hangUp() async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = try #require(Binary.path)
        try Self.write(
            "Story: first\n  Given a step that passes\n\nStory: slow\n  Given the step waits 4000 ms\n\nStory: third\n  Given a step that passes\n",
            to: folder + "/a.stories")
        let script = "'\(binary)' a.stories --junit out.xml --json out.json > out.txt 2>&1 & pid=$!; sleep 1; kill -HUP $pid; wait $pid; echo $? > status"
        let outcome = try await Binary.run(["-c", script], in: folder, executable: "/bin/bash", timeout: 60, environment: Self.faults)
        #expect(!outcome.isTimedOut)
        let status = try String(contentsOfFile: folder + "/status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let output = (try? String(contentsOfFile: folder + "/out.txt", encoding: .utf8)) ?? ""
        #expect(status == "129", "\(output)")
        #expect(output.contains("the run was interrupted (SIGHUP)"), "\(output)")
        #expect(output.contains("Stories: 1 passed, 1 failed, 1 not run"), "\(output)")
        let junit = try String(contentsOfFile: folder + "/out.xml", encoding: .utf8)
        #expect(junit.contains("tests=\"2\"") && junit.contains("failures=\"1\""), "\(junit)")
        #expect(FileManager.default.fileExists(atPath: folder + "/out.json"))
    }

    /// Before, a run started with SIGCHLD ignored (its children then leave
    /// no exit status) said a worker that crashed "exited with status -1".
    @Test("A run started with SIGCHLD ignored still says how a worker ended")
    func ignoredChildSignal() async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = try #require(Binary.path)
        try Self.write("Story: crashes\n  Given the step raises SIGSEGV\n", to: folder + "/a.stories")
        let outcome = try await Binary.run(["-c", "trap '' CHLD; exec '\(binary)' a.stories"], in: folder, executable: "/bin/bash", timeout: 60, environment: Self.faults)
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("crashed with signal 11"), "\(outcome.output)")
        #expect(!outcome.output.contains("status -1"), "\(outcome.output)")
    }

    /// Before, a temporary folder storyrun could not write to was "the
    /// temporary folder", named nowhere.
    @Test("A TMPDIR storyrun cannot write to is named, with what to do")
    func unwritableTemporaryFolder() async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("Story: passes\n  Given a step that passes\n", to: folder + "/a.stories")
        let outcome = try await Binary.run(["a.stories"], in: folder, timeout: 60, environment: Self.faults.merging(["TMPDIR": folder + "/missing"]) { $1 })
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect((outcome.output + outcome.errorOutput).contains("in the temporary folder \(folder)/missing (TMPDIR): No such file or directory; set TMPDIR"), "\(outcome.output)\(outcome.errorOutput)")
    }

    /// Before, `nohup storyrun …` was stopped by SIGHUP all the same: the
    /// run replaced the ignored action with its own handler.
    @Test("A signal the run was started with ignored (nohup's SIGHUP, a script's background SIGINT) stays ignored", arguments: ["HUP", "INT"])
    func ignoredSignal(name: String) async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = try #require(Binary.path)
        try Self.write("Story: slow\n  Given the step waits 1500 ms\n\nStory: next\n  Given a step that passes\n", to: folder + "/a.stories")
        let script = "trap '' \(name); '\(binary)' a.stories --junit out.xml > out.txt 2>&1 & pid=$!; sleep 0.7; kill -\(name) $pid; wait $pid; echo $? > status"
        let outcome = try await Binary.run(["-c", script], in: folder, executable: "/bin/bash", timeout: 60, environment: Self.faults)
        #expect(!outcome.isTimedOut)
        let status = try String(contentsOfFile: folder + "/status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let output = (try? String(contentsOfFile: folder + "/out.txt", encoding: .utf8)) ?? ""
        #expect(status == "0", "\(output)")
        #expect(output.contains("Stories: 2 passed, 0 failed"), "\(output)")
    }

    /// Before, a SIGTERM while the step classes registered (before the run
    /// installed its handler) ended it at once, and the reports of the run
    /// before stayed at their paths, to be taken for this one's.
    @Test("SIGTERM while the step classes register: exit 143, reports that say nothing ran, none of the run before left")
    func terminatedWhileRegistering() async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = try #require(Binary.path)
        try Self.write("Story: passes\n  Given a step that passes\n", to: folder + "/a.stories")
        try Self.write("<testsuites earlier=\"run\"/>\n", to: folder + "/out.xml")
        try Self.write("earlier.stories:1\n", to: folder + "/rerun.txt")
        let script = "'\(binary)' a.stories --junit out.xml --rerun rerun.txt > out.txt 2>&1 & pid=$!; sleep 0.5; kill -TERM $pid; wait $pid; echo $? > status"
        var environment = Self.faults
        environment["STORYRUN_DEFINE_DELAY_MS"] = "1500"
        let outcome = try await Binary.run(["-c", script], in: folder, executable: "/bin/bash", timeout: 60, environment: environment)
        #expect(!outcome.isTimedOut)
        let status = try String(contentsOfFile: folder + "/status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let output = (try? String(contentsOfFile: folder + "/out.txt", encoding: .utf8)) ?? ""
        #expect(status == "143", "\(output)")
        #expect(output.contains("1 not run"), "\(output)")
        let junit = (try? String(contentsOfFile: folder + "/out.xml", encoding: .utf8)) ?? ""
        #expect(!junit.contains("earlier"), "\(junit)")
        let rerun = (try? String(contentsOfFile: folder + "/rerun.txt", encoding: .utf8)) ?? ""
        #expect(!rerun.contains("earlier") && rerun.contains("a.stories"), "\(rerun)")
    }
}

extension AdversaryEndToEndTests {
    /// Before, `storyrun /dev/stdin < a.stories` failed every story with
    /// "no story starts at /dev/stdin:1 any more: was the file changed
    /// during the run?": a worker reads the file again, and its standard
    /// input is /dev/null.
    @Test("Stories named through /dev/stdin or /dev/fd/N run in workers as their file would", arguments: ["/dev/stdin", "/dev/fd/0", "/dev/stdin:4"])
    func storiesThroughStandardInput(path: String) async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binary = try #require(Binary.path)
        try Self.write("Story: passes\n  Given a step that passes\n\nStory: fails\n  Given the step calls exit(2)\n", to: folder + "/a.stories")
        let script = "'\(binary)' \(path) --junit out.xml < a.stories > out.txt 2>&1; echo $? > status"
        let outcome = try await Binary.run(["-c", script], in: folder, executable: "/bin/bash", timeout: 60, environment: Self.faults)
        #expect(!outcome.isTimedOut)
        let status = try String(contentsOfFile: folder + "/status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let output = (try? String(contentsOfFile: folder + "/out.txt", encoding: .utf8)) ?? ""
        #expect(status == "1", "\(output)")
        #expect(!output.contains("no story starts at"), "\(output)")
        #expect(output.contains("exited with status 2"), "\(output)")
        #expect(output.contains(path.hasSuffix(":4") ? "Stories: 0 passed, 1 failed" : "Stories: 1 passed, 1 failed"), "\(output)")
    }
}

extension AdversaryEndToEndTests {
    /// Before, a run that failed without a failed story (a before-run hook
    /// that crashed, so no story ran; an after-run hook that failed;
    /// --fail-fast's stories not run) wrote an empty rerun file, and
    /// `storyrun @rerun.txt` said "nothing to rerun … (the run that wrote it
    /// had no failures)" and exited 0: `storyrun … --rerun r.txt || storyrun
    /// @r.txt` went green.
    @Test("A failed run's rerun file is never empty: stories not run, and every story when a run hook failed", arguments: [
        ("STORYRUN_FAULT_BEFORE_RUN", "crash", [] as [String], "w.stories:1:4"),
        ("STORYRUN_FAULT_AFTER_RUN", "throw", [], "w.stories:1:4"),
        ("", "", ["--fail-fast"], "w.stories:4:7"),
    ])
    func rerunOfFailedRun(variable: String, value: String, options: [String], expected: String) async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(
            "Story: a\n  Given a step that passes\n\nStory: b\n  Given " + (options.isEmpty ? "a step that passes" : "the step calls exit(2)")
                + "\n\nStory: c\n  Given a step that passes\n",
            to: folder + "/w.stories")
        var environment = Self.faults
        if !variable.isEmpty { environment[variable] = value }
        let run = try await Binary.run(["w.stories", "--rerun", "rerun.txt"] + options, in: folder, timeout: 60, environment: environment)
        #expect(run.status == 1, "\(run.output)\(run.errorOutput)")
        let rerun = try String(contentsOfFile: folder + "/rerun.txt", encoding: .utf8)
        #expect(rerun.hasPrefix(expected), "\(rerun)")
        let again = try await Binary.run(["@rerun.txt"], in: folder, timeout: 60, environment: environment)
        #expect(!again.output.contains("nothing to rerun"), "\(again.output)")
        #expect(again.status == 1, "\(again.output)\(again.errorOutput)")
    }
}

extension AdversaryEndToEndTests {
    /// Before, a run that rejected a story file (exit 2) and passed the rest
    /// wrote an empty rerun file: `storyrun @rerun.txt` then said "nothing
    /// to rerun" and exited 0 with the file still broken.
    @Test("A story file the run rejected is in the rerun file whole: the rerun reads it again and exits 2 until it is fixed")
    func rerunOfRejectedFile() async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("Story: good\n  Given a step that passes\n", to: folder + "/good.stories")
        try Self.write("Story: bad\n  Gven a typo\n\nStory: fine\n  Given a step that passes\n", to: folder + "/bad.stories")
        let run = try await Binary.run(["good.stories", "bad.stories", "--rerun", "rerun.txt"], in: folder, timeout: 60, environment: Self.faults)
        #expect(run.status == 2, "\(run.output)")
        let rerun = try String(contentsOfFile: folder + "/rerun.txt", encoding: .utf8)
        #expect(rerun == "bad.stories\n", "\(rerun)")
        let again = try await Binary.run(["@rerun.txt"], in: folder, timeout: 60, environment: Self.faults)
        #expect(again.status == 2, "\(again.output)")
        try Self.write("Story: bad\n  Given a step that passes\n\nStory: fine\n  Given a step that passes\n", to: folder + "/bad.stories")
        let fixed = try await Binary.run(["@rerun.txt"], in: folder, timeout: 60, environment: Self.faults)
        #expect(fixed.status == 0, "\(fixed.output)")
        #expect(fixed.output.contains("Stories: 2 passed"), "\(fixed.output)")
    }

    /// Before, the reports read a `.feature` file again when they were
    /// written and took its new text: a file edited during the run gave
    /// Messages pickles (and source) of steps that never ran, beside the
    /// results of those that did.
    @Test("A .feature file edited during the run is reported with the steps that ran, not its new text")
    func featureFileChangedDuringRun() async throws {
        let folder = try Binary.temporaryFolder("adversary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(
            "Feature: edited\n  Scenario: edits the file\n    Given the step replaces line 6 of \"edit.feature\" with \"    Given a step that passes\"\n\n"
                + "  Scenario: should fail\n    Given the step calls exit(7)\n",
            to: folder + "/edit.feature")
        let outcome = try await Binary.run(["edit.feature", "--messages", "out.ndjson", "--json", "out.json"], in: folder, timeout: 60, environment: Self.faults)
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        let messages = try String(contentsOfFile: folder + "/out.ndjson", encoding: .utf8)
        let pickles = messages.split(separator: "\n").filter { $0.hasPrefix("{\"pickle\"") }
        #expect(pickles.count == 2)
        #expect(pickles.last?.contains("the step calls exit(7)") == true, "\(pickles)")
        #expect(!messages.contains("\"text\":\"a step that passes\""), "\(messages)")
        let json = try String(contentsOfFile: folder + "/out.json", encoding: .utf8)
        #expect(json.contains("\"name\":\"the step calls exit(7)\""), "\(json)")
    }
}

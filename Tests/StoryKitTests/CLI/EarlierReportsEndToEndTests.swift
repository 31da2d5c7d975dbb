import Foundation
import Testing

/// The reports an earlier run left at a run's report paths, through the
/// built executable: removed when the run goes ahead (so a killed run
/// never leaves one to be taken for its own), never before, never through
/// a symlink, and only once the run has read what it reads from them
/// (`@rerun.txt`, `--timings`, the inputs of `merge`).
@Suite(.timeLimit(.minutes(10))) struct EarlierReportsEndToEndTests {
    /// The five file reports, each at a name of its own.
    static let reportFlags = [
        "--junit", "r.xml", "--html", "r.html", "--json", "r.json", "--messages", "r.ndjson", "--rerun", "rerun.txt",
    ]
    static let reportNames = ["r.xml", "r.html", "r.json", "r.ndjson", "rerun.txt"]

    /// A story that sleeps (the run is under way for that long), then one
    /// whose step is undefined.
    static func writeStories(in folder: String, sleeping seconds: Int) throws {
        let text = """
            Story: sleeps
              Given the step sleeps \(seconds) s honouring cancellation

            Story: undefined
              Given nothing matches this step

            """
        try text.write(toFile: folder + "/a.stories", atomically: true, encoding: .utf8)
    }

    /// Writes "OLD" at each name, as an earlier run's reports.
    static func writeEarlier(_ names: [String], in folder: String) throws {
        for name in names { try "OLD\n".write(toFile: folder + "/" + name, atomically: false, encoding: .utf8) }
    }

    static func text(_ folder: String, _ name: String) -> String? {
        try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)
    }

    static func exists(_ folder: String, _ name: String) -> Bool {
        var status = stat()
        return lstat(folder + "/" + name, &status) == 0
    }

    /// Starts the executable in a folder without waiting for it; its output
    /// goes to /dev/null.
    static func start(_ arguments: [String], in folder: String) throws -> Process {
        let executable = try #require(Binary.path, "build storyrun first: swift build")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = ProcessInfo.processInfo.environment.merging(["STORYRUN_FIXTURE_STEPS": "faults"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits up to `seconds` for a condition; returns whether it held.
    static func wait(upTo seconds: Double, until condition: () -> Bool) -> Bool {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    /// Kills a process with SIGKILL and reaps it.
    static func kill9(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    @Test("A run killed with SIGKILL while its stories run leaves none of the earlier reports at its paths", .timeLimit(.minutes(10)))
    func killedRunLeavesNoEarlierReport() throws {
        let folder = try Binary.temporaryFolder("earlier-reports")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.writeStories(in: folder, sleeping: 30)
        try Self.writeEarlier(Self.reportNames, in: folder)
        // In process: SIGKILL ends the whole run at once, no worker left.
        let process = try Self.start(["a.stories", "--in-process"] + Self.reportFlags, in: folder)
        defer { Self.kill9(process) }
        let removed = Self.wait(upTo: 20) { Self.reportNames.allSatisfy { !Self.exists(folder, $0) } }
        #expect(process.isRunning, "the run ended before it was killed")
        Self.kill9(process)
        #expect(removed, "an earlier report was still there while the run ran")
        // Nothing at the paths, and no temporary file: only the story file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a.stories"])
    }

    @Test("A symlinked report path's target is not removed when the run starts; the link stays a link and its target gets the new report", .timeLimit(.minutes(10)))
    func symlinkTargetKept() throws {
        let folder = try Binary.temporaryFolder("earlier-reports")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.writeStories(in: folder, sleeping: 3)
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        try Self.writeEarlier(["out/real.xml", "r.json"], in: folder)
        symlink("out/real.xml", folder + "/link.xml")
        let process = try Self.start(["a.stories", "--junit", "link.xml", "--json", "r.json"], in: folder)
        defer { Self.kill9(process) }
        // The plain report's removal says the run has started removing.
        #expect(Self.wait(upTo: 20) { !Self.exists(folder, "r.json") })
        #expect(process.isRunning)
        #expect(Self.text(folder, "out/real.xml") == "OLD\n")
        #expect(Self.exists(folder, "link.xml"))
        // Bounded: killed (by the deferred kill9) if still running after 60 s.
        try #require(Self.wait(upTo: 60) { !process.isRunning }, "storyrun a.stories --junit link.xml did not end within 60 s")
        #expect(process.terminationStatus == 0)
        #expect(ReportPathsEndToEndTests.kind(folder + "/link.xml") == S_IFLNK)
        #expect(Self.text(folder, "out/real.xml")?.contains("<testsuites") == true)
        #expect(Self.text(folder, "r.json")?.hasPrefix("[") == true)
    }

    @Test("In process, a first step that changes folder does not make the run remove a file of the report's name there", .timeLimit(.minutes(10)))
    func folderChangedByAStep() async throws {
        let folder = try Binary.temporaryFolder("earlier-reports")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try "Story: moves\n  Given the step changes directory to \"sub\"\n  And the step sleeps 1 s honouring cancellation\n"
            .write(toFile: folder + "/a.stories", atomically: true, encoding: .utf8)
        try Self.writeEarlier(["r.xml"], in: folder)
        try "not a report\n".write(toFile: folder + "/sub/r.xml", atomically: false, encoding: .utf8)
        let outcome = try await Binary.run(
            ["a.stories", "--in-process", "--junit", "r.xml"], in: folder, timeout: 60, environment: ["STORYRUN_FIXTURE_STEPS": "faults"])
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(Self.text(folder, "sub/r.xml") == "not a report\n")
        #expect(Self.text(folder, "r.xml")?.contains("<testsuites") == true)
    }

    @Test("storyrun @rerun.txt --rerun rerun.txt reads the rerun file before the run removes it, and writes it anew")
    func rerunFileInAndOut() async throws {
        let folder = try Binary.temporaryFolder("earlier-reports")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.writeStories(in: folder, sleeping: 0)
        try "a.stories:4\n".write(toFile: folder + "/rerun.txt", atomically: false, encoding: .utf8)
        chmod(folder + "/rerun.txt", 0o600)
        let outcome = try await Binary.run(
            ["@rerun.txt", "--rerun", "rerun.txt"], in: folder, timeout: 60, environment: ["STORYRUN_FIXTURE_STEPS": "faults"])
        #expect(outcome.status == 0, "\(outcome.output)")
        // Only the story the file named ran.
        #expect(outcome.output.contains("Stories: 0 passed, 0 failed, 1 undefined"), "\(outcome.output)")
        #expect(Self.text(folder, "rerun.txt") == "a.stories:4\n")
        // The report removed at the start still keeps its mode.
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/rerun.txt")
        #expect(attributes[.posixPermissions] as? Int == 0o600)
    }

    @Test("--shard 1/2 --timings t.json --json t.json reads the timings before the run removes them, and writes them anew")
    func timingsInAndOut() async throws {
        let folder = try Binary.temporaryFolder("earlier-reports")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var text = ""
        for index in 0..<8 { text += "Story: story \(index)\n  Given a step that passes\n\n" }
        try text.write(toFile: folder + "/a.stories", atomically: true, encoding: .utf8)
        let environment = ["STORYRUN_FIXTURE_STEPS": "faults"]
        let first = try await Binary.run(["a.stories", "--json", "t.json"], in: folder, timeout: 60, environment: environment)
        #expect(first.status == 0, "\(first.output)")
        let second = try await Binary.run(
            ["a.stories", "--shard", "1/2", "--timings", "t.json", "--json", "t.json"], in: folder, timeout: 60, environment: environment)
        #expect(second.status == 0, "\(second.output)")
        #expect(!second.output.contains("timings"), "\(second.output)")
        let features = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/t.json"))) as? [[String: Any]]
        let stories = (features ?? []).reduce(0) { $0 + (($1["elements"] as? [Any])?.count ?? 0) }
        #expect(stories > 0 && stories < 8, "\(stories) stories in shard 1 of 2")
    }

    @Test("A run stopped by a usage error (exit 2) before anything runs removes no earlier report", arguments: [
        ["--junit", "a.xml", "--json", "./a.xml"],
        ["--junit", "a.stories"],
        ["--tags", "@a and"],
        ["--timings", "r.json"],
        ["--strikt"],
        ["@missing.txt"],
    ])
    func usageErrorRemovesNothing(_ extra: [String]) async throws {
        let folder = try Binary.temporaryFolder("earlier-reports")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.writeStories(in: folder, sleeping: 0)
        try Self.writeEarlier(Self.reportNames + ["a.xml"], in: folder)
        let flags = extra.first == "--junit" ? Self.reportFlags.filter { $0 != "--junit" && $0 != "r.xml" } : Self.reportFlags
        let outcome = try await Binary.run(
            ["a.stories"] + flags + extra, in: folder, timeout: 60, environment: ["STORYRUN_FIXTURE_STEPS": "faults"])
        #expect(outcome.status == 2, "\(outcome.output)")
        #expect(!outcome.output.contains("Stories:"), "\(outcome.output)")
        for name in Self.reportNames + ["a.xml"] { #expect(Self.text(folder, name) == "OLD\n", "\(name)") }
        #expect(Self.text(folder, "a.stories")?.hasPrefix("Story: sleeps") == true)
    }

    @Test("An empty rerun file (nothing to rerun, exit 0) runs nothing and removes no earlier report")
    func nothingToRerunRemovesNothing() async throws {
        let folder = try Binary.temporaryFolder("earlier-reports")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.writeEarlier(Self.reportNames, in: folder)
        try "".write(toFile: folder + "/empty.txt", atomically: false, encoding: .utf8)
        let outcome = try await Binary.run(["@empty.txt"] + Self.reportFlags, in: folder, timeout: 60)
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.contains("nothing to rerun"))
        for name in Self.reportNames { #expect(Self.text(folder, name) == "OLD\n", "\(name)") }
    }

    @Test("merge reads its inputs before it removes its earlier outputs: an output may be an input")
    func mergeOutputIsAnInput() async throws {
        let folder = try Binary.temporaryFolder("earlier-reports")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var text = ""
        for index in 0..<3 { text += "Story: story \(index)\n  Given a step that passes\n\n" }
        try text.write(toFile: folder + "/a.stories", atomically: true, encoding: .utf8)
        let environment = ["STORYRUN_FIXTURE_STEPS": "faults"]
        #expect(try await Binary.run(["a.stories", "--json", "a.json"], in: folder, timeout: 60, environment: environment).status == 0)
        try Self.writeEarlier(["m.xml"], in: folder)
        let outcome = try await Binary.run(["merge", "a.json", "--json", "a.json", "--junit", "m.xml"], in: folder, timeout: 60)
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.contains("Stories: 3 passed"), "\(outcome.output)")
        let features = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/a.json"))) as? [[String: Any]]
        #expect((features?.first?["elements"] as? [Any])?.count == 3)
        #expect(Self.text(folder, "m.xml")?.contains("<testsuites") == true)
    }
}

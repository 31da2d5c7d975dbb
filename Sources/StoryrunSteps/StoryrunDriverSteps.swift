import Foundation
import StoryKit

/// Steps that run storyrun on fixture files and read what it reports, as a
/// user at a terminal would.
final class StoryrunDriverSteps: StepDefinitions {
    var files: [String] = []
    var options: [String] = []
    var stepLines: [String] = []
    var output: [String] = []
    var status: ExitStatus?
    var processStatus: Int32?
    var processWasSignalled = false
    /// Whether the fixture run registers the steps that misbehave on purpose.
    var usesFaultSteps = false
    /// Whether the fixture run registers the steps that read user parameters.
    var usesParameterSteps = false
    var environment: [String: String] = [:]
    /// Whether the fixture run registers the step libraries instead.
    var usesStepLibraries = false
    var fixtureSteps: [any StepDefinitions.Type] {
        usesStepLibraries ? StoryrunSteps.stepLibraries
            : usesFaultSteps ? StoryrunSteps.faults : usesParameterSteps ? StoryrunSteps.parameters : StoryrunSteps.fixtures
    }
    var fixtureSetting: String {
        usesStepLibraries ? "steplibs" : usesFaultSteps ? "faults" : usesParameterSteps ? "parameters" : "1"
    }
    lazy var reportFolder: String = {
        let folder = NSTemporaryDirectory() + "storyrun-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }()

    required init() {}

    deinit { try? FileManager.default.removeItem(atPath: reportFolder) }

    var text: String { output.joined(separator: "\n") }

    static func define(_ step: StepMap<StoryrunDriverSteps>) {
        step("^As an? (.*)$") { (steps: StoryrunDriverSteps, role: String) in }
        step("^(?:the story file|a file named) (\\S+)$") { (steps: StoryrunDriverSteps, file: String) in
            steps.files.append(file.hasPrefix("Fixtures/") ? file : "Fixtures/stories/\(file)")
        }
        step("^the command line option (.+)$") { (steps: StoryrunDriverSteps, option: String) in
            steps.options += option.split(separator: " ").map {
                String($0).replacingOccurrences(of: "REPORTS", with: steps.reportFolder)
            }
        }
        step("^storyrun runs(?: (?:it|them))?$") { steps in
            // Worker processes (--jobs, --isolate) are this executable again:
            // tell them to register the fixture steps (see main.swift).
            setenv("STORYRUN_FIXTURE_STEPS", steps.fixtureSetting, 1)
            // A GitLab job's own shard must not shard the fixture runs.
            var saved: [String: String] = [:]
            for name in ["CI_NODE_INDEX", "CI_NODE_TOTAL"] where steps.environment[name] == nil {
                saved[name] = ProcessInfo.processInfo.environment[name]
                unsetenv(name)
            }
            for (name, value) in steps.environment { setenv(name, value, 1) }
            defer {
                for name in steps.environment.keys { unsetenv(name) }
                for (name, value) in saved { setenv(name, value, 1) }
            }
            var lines: [String] = []
            steps.status = await StoryRun.run(
                arguments: steps.options + steps.files, steps: steps.fixtureSteps,
                clock: { 0 }, output: { lines.append($0) })
            steps.output = lines
        }
        step("^storyrun merges (\\S+)$") { (steps: StoryrunDriverSteps, input: String) in
            var lines: [String] = []
            steps.status = await StoryRun.run(
                arguments: ["merge", input.replacingOccurrences(of: "REPORTS", with: steps.reportFolder)], steps: [],
                clock: { 0 }, output: { lines.append($0) })
            steps.output = lines
        }
        step("^the steps that misbehave on purpose$") { steps in steps.usesFaultSteps = true }
        step("^the step libraries storyrun ships$") { steps in steps.usesStepLibraries = true }
        step("^the steps that read user parameters$") { steps in steps.usesParameterSteps = true }
        step("^storyrun runs in the folder (\\S+) in a process of its own$") { (steps: StoryrunDriverSteps, folder: String) in
            // Where a config file is looked for: the current folder.
            try runInOwnProcess(
                steps, arguments: steps.options, folder: folder,
                environment: ["STORYRUN_FIXTURE_STEPS": steps.fixtureSetting], dropping: "CI_NODE_")
        }
        step("^the environment variable (\\w+) is \"(.*)\"$") { (steps: StoryrunDriverSteps, name: String, value: String) in
            steps.environment[name] = value
        }
        step("^storyrun runs it in a process of its own and is sent (SIGINT|SIGTERM) after (\\d+) ms$") {
            (steps: StoryrunDriverSteps, signal: String, milliseconds: Int) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            process.arguments = steps.options + steps.files
            process.environment = ProcessInfo.processInfo.environment.merging(["STORYRUN_FIXTURE_STEPS": steps.fixtureSetting]) { $1 }
            let output = steps.reportFolder + "/output.txt"
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: output)
            process.standardError = process.standardOutput
            try process.run()
            usleep(UInt32(milliseconds) * 1000)
            kill(process.processIdentifier, signal == "SIGINT" ? SIGINT : SIGTERM)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            steps.output = (try String(contentsOfFile: output, encoding: .utf8)).split(separator: "\n").map(String.init)
            steps.processStatus = process.terminationStatus
            steps.processWasSignalled = process.terminationReason == .uncaughtSignal
        }
        step("^the process exits with status (\\d+)$") { (steps: StoryrunDriverSteps, code: Int32) in
            try expect(!steps.processWasSignalled && steps.processStatus == code, "the process ended with status \(steps.processStatus ?? -1) (signal: \(steps.processWasSignalled)); output:\n\(steps.text)")
        }
        step("^no process of the run is left$") { _ in
            // A `sleep 299.5` a step started must be gone with its worker.
            let left = try runningCommands().filter { $0 == "/bin/sleep 299.5" }
            try expect(left.isEmpty, "left running: \(left)")
        }
        step("^no command of the run is left$") { _ in
            // The sleeps of Fixtures/stories/steplibs/command-faults.feature.
            let left = try runningCommands().filter { $0.hasPrefix("sleep 299.") || $0.contains("sh -c sleep 299.") }
            try expect(left.isEmpty, "left running: \(left)")
        }
        step("^the (regex|expression) \"(.*)\" and the text \"(.*)\"$") { (steps: StoryrunDriverSteps, syntax: String, pattern: String, text: String) in
            steps.options = ["match", "--\(syntax)", pattern, text]
        }
        step("^the step line \"(.*)\"$") { (steps: StoryrunDriverSteps, line: String) in
            steps.stepLines.append(line)
        }
        step("^storyrun explains it$") { steps in
            var lines: [String] = []
            steps.status = await StoryRun.run(
                arguments: ["explain"] + steps.stepLines, steps: StoryrunSteps.fixtures, clock: { 0 }, output: { lines.append($0) })
            steps.output = lines
        }
        step("^storyrun runs (?:it|them) in a process of its own$") { steps in
            // For what only a separate process shows: a step that crashes it.
            try runInOwnProcess(
                steps, arguments: steps.options + steps.files, folder: nil,
                environment: ["STORYRUN_FIXTURE_STEPS": "1", "SWIFT_BACKTRACE": "enable=no"])
        }
        step("^the process is stopped by a signal$") { steps in
            try expect(steps.processWasSignalled, "the process ended with status \(steps.processStatus ?? -1)")
        }
        step("^the exit status is (\\d)$") { (steps: StoryrunDriverSteps, code: Int32) in
            try expectEqual(steps.status?.rawValue, code, "exit status; output:\n\(steps.text)")
        }
        step("^the output (?:says|shows|lists) \"(.*)\"$") { (steps: StoryrunDriverSteps, expected: String) in
            try expect(steps.text.contains(expected), "\"\(expected)\" not found in:\n\(steps.text)")
        }
        step("^the output does not (?:say|show|list) \"(.*)\"$") { (steps: StoryrunDriverSteps, unexpected: String) in
            try expectFalse(steps.text.contains(unexpected), "\"\(unexpected)\" found in:\n\(steps.text)")
        }
        step("^story \"(.*)\" is reported as (passed|failed|undefined|skipped|pending)$") {
            (steps: StoryrunDriverSteps, name: String, status: String) in
            let line = steps.output.first { $0.hasPrefix(status.uppercased() + "  " + name + "  ") }
            try expectNotNil(line, "no line \"\(status.uppercased())  \(name)\" in:\n\(steps.text)")
        }
        step("^the report (\\S+) (?:says|shows) \"(.*)\"$") { (steps: StoryrunDriverSteps, name: String, expected: String) in
            let path = steps.reportFolder + "/" + name
            let report = try expectNotNil(FileManager.default.contents(atPath: path), "\(name) was not written")
            try expect(String(decoding: report, as: UTF8.self).contains(expected), "\"\(expected)\" not in \(name)")
        }
        step("^the stories reported are the same as in a run without workers$") { steps in
            var serial: [String] = []
            _ = await StoryRun.run(
                arguments: steps.files, steps: StoryrunSteps.fixtures, clock: { 0 }, output: { serial.append($0) })
            func verdicts(_ lines: [String]) -> [String] {
                lines.filter { $0.hasPrefix("PASSED") || $0.hasPrefix("FAILED") || $0.hasPrefix("UNDEFINED") }.sorted()
            }
            try expectEqual(verdicts(steps.output), verdicts(serial))
            try expectEqual(steps.output.last, serial.last)
        }
        step("^an earlier run left the report (\\S+)$") { (steps: StoryrunDriverSteps, name: String) in
            try "an earlier run's report\n".write(toFile: steps.reportFolder + "/" + name, atomically: false, encoding: .utf8)
        }
        step("^the report (\\S+) is (still|no longer) the earlier run's$") { (steps: StoryrunDriverSteps, name: String, still: String) in
            let report = FileManager.default.contents(atPath: steps.reportFolder + "/" + name).map { String(decoding: $0, as: UTF8.self) }
            try expectEqual(report == "an earlier run's report\n", still == "still", "\(name): \(report?.prefix(80) ?? "not there")")
        }
        step("^no temporary file is left beside the reports$") { steps in
            let left = try FileManager.default.contentsOfDirectory(atPath: steps.reportFolder)
            try expect(!left.contains { $0.contains(".tmp-") }, "left: \(left)")
        }
    }

    /// Runs this executable (storyrun) with `arguments` as a process of its
    /// own, in `folder` or this one, and keeps its output and how it ended.
    static func runInOwnProcess(
        _ steps: StoryrunDriverSteps, arguments: [String], folder: String?, environment: [String: String],
        dropping prefix: String? = nil
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            .filter { prefix == nil || !$0.key.hasPrefix(prefix!) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        steps.output = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        steps.processStatus = process.terminationStatus
        steps.processWasSignalled = process.terminationReason == .uncaughtSignal
    }

    /// The command lines of every process running now (`ps -eo args`).
    static func runningCommands() throws -> [Substring] {
        let ps = Process()
        ps.executableURL = URL(fileURLWithPath: "/bin/ps")
        ps.arguments = ["-eo", "args"]
        let pipe = Pipe()
        ps.standardOutput = pipe
        try ps.run()
        let listing = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ps.waitUntilExit()
        return listing.split(separator: "\n")
    }
}

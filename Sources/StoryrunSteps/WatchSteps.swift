import Foundation
import StoryKit

/// Steps that run storyrun in watch mode in a process of its own, save
/// files under it and read what it prints, as a user at a terminal would.
final class WatchSteps: StepDefinitions {
    /// A temporary folder: `stories/` holds the watched copies, `output.txt`
    /// what the watch process prints.
    let folder = NSTemporaryDirectory() + "storyrun-watch-\(UUID().uuidString)"
    /// Marks the watch process and its workers, which inherit it, to find
    /// any of them left running.
    let mark = UUID().uuidString
    var process: Process?
    /// Where in the output the last save was; "says" looks after it.
    var seenUpTo = 0

    required init() {}

    deinit {
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    var output: String {
        (try? String(contentsOfFile: folder + "/output.txt", encoding: .utf8)) ?? ""
    }

    /// The output since the last save.
    var recentOutput: String {
        String(decoding: Array(output.utf8.dropFirst(seenUpTo)), as: UTF8.self)
    }

    /// Waits up to `seconds` for `condition`; false when it never held.
    func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    static func define(_ step: StepMap<WatchSteps>) {
        step("^a folder with a copy of the story file (\\S+)$") { (steps: WatchSteps, file: String) in
            try FileManager.default.createDirectory(atPath: steps.folder + "/stories", withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: "Fixtures/stories/" + file, toPath: steps.folder + "/stories/" + (file as NSString).lastPathComponent)
        }
        step("^the folder has a Swift source (\\S+)$") { (steps: WatchSteps, file: String) in
            let path = steps.folder + "/" + file
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data("// a source\n".utf8).write(to: URL(fileURLWithPath: path))
        }
        step("^storyrun (with a step definition it rejects |with a swift whose builds fail )?watches the folder in a process of its own(?: with (.+))?$") {
            (steps: WatchSteps, variant: String?, options: String?) in
            let rejecting = variant?.contains("rejects") == true ? variant : nil
            var environment = ProcessInfo.processInfo.environment
            if variant?.contains("swift") == true {
                // A `swift` first on the PATH whose every build fails.
                let bin = steps.folder + "/bin"
                try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
                let script = "#!/bin/sh\necho \"src/Steps.swift:1:1: error: cannot find 'x' in scope\"\nexit 1\n"
                try Data(script.utf8).write(to: URL(fileURLWithPath: bin + "/swift"))
                chmod(bin + "/swift", 0o755)
                environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            process.arguments = ["--watch"] + (options.map { $0.split(separator: " ").map(String.init) } ?? []) + ["stories"]
            process.currentDirectoryURL = URL(fileURLWithPath: steps.folder)
            process.environment = environment.merging(
                ["STORYRUN_FIXTURE_STEPS": rejecting == nil ? "1" : "rejected", "STORYRUN_WATCH_MARK": steps.mark]) { $1 }
            let output = steps.folder + "/output.txt"
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: output)
            process.standardError = process.standardOutput
            process.standardInput = FileHandle.nullDevice
            try process.run()
            steps.process = process
        }
        step("^the watch output (?:says|shows) \"(.*)\"$") { (steps: WatchSteps, expected: String) in
            let found = steps.waitFor(15) { steps.recentOutput.contains(expected) }
            try expect(found, "\"\(expected)\" not printed within 15 s; the output since the last save:\n\(steps.recentOutput)")
        }
        step("^(\\S+) is saved( by renaming a temporary file over it)? with \"(.*)\" in place of \"(.*)\"$") {
            (steps: WatchSteps, file: String, renaming: String?, new: String, old: String) in
            let path = steps.folder + "/stories/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try expect(text.contains(old), "\(file) has no \"\(old)\"")
            steps.seenUpTo = steps.output.utf8.count
            let data = Data(text.replacingOccurrences(of: old, with: new).utf8)
            guard renaming != nil else { return try data.write(to: URL(fileURLWithPath: path)) }
            // As an editor saves: a temporary beside the file, renamed over it. (Foundation's
            // `.atomic` would leave an empty folder in /tmp for every save.)
            let temporary = path + ".swp"
            try data.write(to: URL(fileURLWithPath: temporary))
            try expect(rename(temporary, path) == 0, "renaming \(temporary) over \(path): errno \(errno)")
        }
        step("^a FIFO is made at (\\S+)$") { (steps: WatchSteps, file: String) in
            steps.seenUpTo = steps.output.utf8.count
            try expect(mkfifo(steps.folder + "/stories/" + file, 0o644) == 0, "mkfifo \(file): errno \(errno)")
        }
        step("^(\\S+) is deleted$") { (steps: WatchSteps, file: String) in
            steps.seenUpTo = steps.output.utf8.count
            try FileManager.default.removeItem(atPath: steps.folder + "/stories/" + file)
        }
        step("^(\\S+) and (\\S+) are saved together, the story with \"(.*)\" in place of \"(.*)\"$") {
            (steps: WatchSteps, source: String, file: String, new: String, old: String) in
            let path = steps.folder + "/stories/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try expect(text.contains(old), "\(file) has no \"\(old)\"")
            steps.seenUpTo = steps.output.utf8.count
            // One burst: both saved well within the 50 ms that gather one.
            try Data("// saved\n".utf8).write(to: URL(fileURLWithPath: steps.folder + "/" + source))
            try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: URL(fileURLWithPath: path))
        }
        step("^the report (\\S+) (holds|does not hold) \"(.*)\"$") {
            (steps: WatchSteps, report: String, holds: String, expected: String) in
            let path = steps.folder + "/" + report
            let wanted = holds == "holds"
            func current() -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
            let found = steps.waitFor(15) { current().contains(expected) == wanted }
            try expect(found, "\(report) \(wanted ? "lacks" : "still holds") \"\(expected)\" after 15 s:\n\(current())")
        }
        step("^the last run shows \"(.*)\" before \"(.*)\"$") { (steps: WatchSteps, first: String, second: String) in
            let text = steps.recentOutput
            guard let a = text.range(of: first), let b = text.range(of: second) else {
                try fail("\"\(first)\" or \"\(second)\" not in:\n\(text)")
            }
            try expect(a.lowerBound < b.lowerBound, "\"\(second)\" came before \"\(first)\" in:\n\(text)")
        }
        step("^SIGINT ends the watch process with status (\\d+)$") { (steps: WatchSteps, code: Int32) in
            let process = try expectNotNil(steps.process, "no watch process was started")
            kill(process.processIdentifier, SIGINT)
            let ended = steps.waitFor(10) { !process.isRunning }
            if !ended { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try expect(ended, "the watch process still ran 10 s after SIGINT")
            try expect(
                process.terminationReason == .exit && process.terminationStatus == code,
                "the watch process ended with status \(process.terminationStatus) (signal: \(process.terminationReason == .uncaughtSignal)); output:\n\(steps.output)")
        }
        step("^no process of the watch is left$") { steps in
            // Workers inherit the mark in their environment.
            let left = steps.waitFor(5) { WatchSteps.processes(marked: steps.mark).isEmpty }
            try expect(left, "still running: \(WatchSteps.processes(marked: steps.mark))")
        }
    }

    /// The processes whose environment holds the mark.
    static func processes(marked mark: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { entry in
            guard Int(entry) != nil, let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ") else {
                return false
            }
            return String(decoding: environment, as: UTF8.self).contains("STORYRUN_WATCH_MARK=" + mark)
        }
    }
}

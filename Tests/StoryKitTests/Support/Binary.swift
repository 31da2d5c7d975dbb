import Foundation
import Testing

/// The built `storyrun` executable, run as a user runs it, always within a
/// time limit and in a temporary folder of its own.
enum Binary {
    /// What a run of the executable did.
    struct Outcome {
        /// The exit status, or the signal number when `isSignaled`.
        var status: Int32
        var isSignaled: Bool
        var isTimedOut: Bool
        var output: String
        var errorOutput: String
        var seconds: Double
    }

    /// The path of `.build/debug/storyrun` (`swift build` makes it), or
    /// the executable `STORYRUN_TEST_BINARY` names: an earlier build, to see
    /// a test fail on the code before a fix.
    static var path: String? {
        if let other = ProcessInfo.processInfo.environment["STORYRUN_TEST_BINARY"] { return other }
        let candidates = [Golden.root + "/.build/debug/storyrun"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A fresh temporary folder; remove it with `FileManager.removeItem`.
    static func temporaryFolder(_ name: String = "storyrun-test") throws -> String {
        let folder = NSTemporaryDirectory() + name + "-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs the executable (or another program) in a folder, killing it
    /// after `timeout` seconds.
    ///
    /// It blocks the calling thread (a thread of the cooperative pool, in a
    /// test) until the program ends, `timeout` seconds at most.
    static func run(
        _ arguments: [String], in folder: String, executable: String? = nil, timeout: Double = 30,
        environment: [String: String] = [:]
    ) throws -> Outcome {
        let executable = try #require(executable ?? path, "build storyrun first: swift build")
        return try run(executable, arguments, in: folder, outputIn: folder, timeout: timeout, environment: environment)
    }

    /// ``run(_:in:executable:timeout:environment:)`` waited for on a thread
    /// of its own, not the cooperative pool's: a test awaiting a child holds
    /// no pool thread, so two slow children cannot starve every other async
    /// test on a two-core machine. A child still running after `timeout`
    /// seconds is killed and the test fails, naming the command.
    static func run(
        _ arguments: [String], in folder: String, executable: String? = nil, timeout: Double = 30,
        environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Outcome {
        let executable = try #require(executable ?? path, "build storyrun first: swift build")
        await children.acquire()
        let outcome: Outcome
        do {
            outcome = try await offThePool {
                try run(executable, arguments, in: folder, outputIn: folder, timeout: timeout, environment: environment)
            }
        } catch {
            await children.release()
            throw error
        }
        await children.release()
        if outcome.isTimedOut {
            let command = ([executable] + arguments).joined(separator: " ")
            Issue.record("\(command) did not finish within \(timeout) s and was killed", sourceLocation: sourceLocation)
        }
        return outcome
    }

    /// Runs another program (a tool a test checks storyrun against) in
    /// `folder` (by default a temporary one), killing it after `timeout`
    /// seconds. Blocks the calling thread that long at most; in an `async`
    /// function the `async` form below is chosen, which does not.
    static func tool(_ executable: String, _ arguments: [String], in folder: String? = nil, timeout: Double = 60) throws -> Outcome {
        let scratch = try temporaryFolder("storyrun-tool")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        return try run(executable, arguments, in: folder ?? scratch, outputIn: scratch, timeout: timeout, environment: [:])
    }

    /// ``tool(_:_:in:timeout:)`` waited for on a thread of its own, not the
    /// cooperative pool's, so a slow or hung tool holds up no other test.
    static func tool(_ executable: String, _ arguments: [String], in folder: String? = nil, timeout: Double = 60) async throws -> Outcome {
        try await offThePool { try tool(executable, arguments, in: folder, timeout: timeout) }
    }

    /// Runs `work`, which blocks, on a thread of its own and awaits its result.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    private static func run(
        _ executable: String, _ arguments: [String], in folder: String, outputIn outputFolder: String, timeout: Double,
        environment: [String: String]
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let outPath = outputFolder + "/.stdout", errPath = outputFolder + "/.stderr"
        FileManager.default.createFile(atPath: outPath, contents: nil)
        FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        var isTimedOut = false
        while process.isRunning {
            if Date().timeIntervalSince(start) > timeout {
                isTimedOut = true
                process.terminate()
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        return Outcome(
            status: process.terminationStatus, isSignaled: process.terminationReason == .uncaughtSignal,
            isTimedOut: isTimedOut,
            output: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            errorOutput: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
            seconds: Date().timeIntervalSince(start))
    }
}

/// How many children async tests run at once: as many as the cooperative
/// pool has threads, as when each held one, so timing-sensitive tests see
/// the load they saw; a test waiting for its turn holds no thread.
let children = ChildLimit(max(2, ProcessInfo.processInfo.activeProcessorCount))

/// A counting semaphore awaited without blocking a thread.
actor ChildLimit {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = count }

    /// Waits (suspended, no thread held) until a child may start.
    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Lets the next waiting child start.
    func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}

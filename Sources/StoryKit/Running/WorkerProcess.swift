import Foundation

/// One worker process, with the story it is running.
final class WorkerProcess {
    let id: Int
    private let process = Process()
    private let input = Pipe()
    private let outputPipe = Pipe()
    private let errorPipe = Pipe()
    /// The story the worker is running, if any.
    var current: Story?
    /// The last step the worker started in the current story.
    var currentStep: Step?
    private(set) var storyStart: UInt64 = 0
    private(set) var didTimeOut = false
    private var lastHeard = Date()

    /// Starts the worker; nil when the process cannot be started.
    init?(id: Int, arguments: [String], messages: AsyncStream<WorkerMessage>.Continuation) {
        self.id = id
        process.executableURL = URL(fileURLWithPath: Self.executablePath)
        process.arguments = ["--worker"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardInput = input
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        let handle = outputPipe.fileHandleForReading
        let errors = errorPipe.fileHandleForReading
        let process = self.process
        process.terminationHandler = nil
        do {
            try process.run()
        } catch {
            return nil
        }
        let errorText = ErrorText()
        Thread.detachNewThread {
            while true {
                let chunk = errors.availableData
                if chunk.isEmpty { break }
                errorText.append(chunk)
            }
        }
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    messages.yield(.line(id, line))
                }
            }
            process.waitUntilExit()
            let detail = errorText.lastMessage
            let reason: WorkerFailure.Reason =
                process.terminationReason == .uncaughtSignal
                ? .signal(process.terminationStatus, detail) : .exit(process.terminationStatus, detail)
            messages.yield(.exited(id, reason))
        }
    }

    /// Asks the worker to run a story.
    func send(_ story: Story) {
        current = story
        currentStep = nil
        storyStart = DispatchTime.now().uptimeNanoseconds
        lastHeard = Date()
        input.fileHandleForWriting.write(Data("\(story.location.file)\t\(story.location.line)\n".utf8))
    }

    /// Tells the worker no more stories are coming.
    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Notes that the worker said something.
    func heard() { lastHeard = Date() }

    /// Whether the worker has run a story without a word for this long.
    func isSilent(for seconds: Double) -> Bool {
        current != nil && Date().timeIntervalSince(lastHeard) > seconds
    }

    /// Stops the worker at once.
    func kill(timedOut: Bool) {
        didTimeOut = didTimeOut || timedOut
        Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// This executable's path.
    static let executablePath: String = {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return CommandLine.arguments[0]
    }()
}

/// The end of what a worker wrote to standard error, for crash reports.
private final class ErrorText: @unchecked Sendable {
    // Unchecked: `data` is read and written only under `lock`.
    private let lock = NSLock()
    private var data = Data()

    func append(_ chunk: Data) {
        lock.lock()
        data.append(chunk)
        if data.count > 16_384 { data = data.suffix(8_192) }
        lock.unlock()
    }

    /// The line that says why the process stopped (a Swift runtime error),
    /// or nil.
    var lastMessage: String? {
        lock.lock()
        defer { lock.unlock() }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        return lines.last { $0.contains("Fatal error") || $0.contains("Precondition failed") || $0.contains("Assertion failed") }
            .map(String.init)
    }
}

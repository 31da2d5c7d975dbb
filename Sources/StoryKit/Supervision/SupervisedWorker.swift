#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The parent's side of one worker process: its channels, the stories sent
/// to it and not yet answered, and what it is doing.
final class SupervisedWorker {
    let process: ChildProcess
    /// Where the parent writes requests; -1 once closed.
    private(set) var requests: Int32
    /// Where the worker's messages arrive.
    let messages: Int32
    let position: SharedPosition
    /// The file the worker's standard output and standard error go to.
    let output: Int32
    /// Stories sent and not yet answered, oldest first.
    var dispatched = SentStories()
    /// The stories it was asked to give back, until each is given back or
    /// answered.
    var givingBack: ClosedRange<UInt64>?
    /// The last story the worker had started when it was asked (read
    /// after the ask was written): it gives back only stories after it.
    var givingBackAfter: UInt64?
    /// Whether its before-run hooks are done.
    var isReady = false
    /// Whether it said it is done (after its after-run hooks).
    var hasEnded = false
    /// Whether it said it could open no more story files, and takes no
    /// more stories (see ``WorkerWire/Message/stopped(sequence:_:)``).
    var hasStopped = false
    /// Why the parent ended it, if it did.
    var killReason: WorkerFailure.Reason?
    /// The latest story it answered: a worker answers its stories in the
    /// order they were sent, each once.
    var lastAnswered: UInt64?
    /// The parent's own clock on the test step it is in (see ``StepClock``).
    var stepClock: StepClock?
    /// The parts of a long story's answer read so far (see
    /// `WorkerWire+Parts.swift`).
    var partial: PartialAnswer?
    /// The parts of a long story's answer read so far, taken.
    func takePartial() -> PartialAnswer? {
        defer { partial = nil }
        return partial
    }
    private var pending: [UInt8] = []
    /// The longest line a worker may send (a story's whole result, with
    /// what its steps attached): a longer one is not the worker's.
    static let lineLimit = 1 << 30
    /// Where reads land, kept from one read to the next.
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    /// Requests not yet written.
    private var outbox: [UInt8] = []
    /// Where the outbox's unwritten bytes start: written bytes are dropped
    /// only once they are half of it (dropped at each write, a long story's
    /// request of 60 MB, written 64 KiB at a time, was moved a thousand
    /// times: time growing with its square).
    private var outboxStart = 0

    private init(
        process: ChildProcess, requests: Int32, messages: Int32, position: SharedPosition, output: Int32
    ) {
        self.process = process
        self.requests = requests
        self.messages = messages
        self.position = position
        self.output = output
    }

    /// Starts a worker: this executable with `--worker` and `arguments`.
    static func start(arguments: [String]) throws(ChildProcess.StartError) -> SupervisedWorker {
        guard case .parent(let worker) = try start(arguments: arguments, forking: false) else {
            fatalError("a worker started without forking is never this process")
        }
        return worker
    }

    /// What ``start(arguments:forking:)`` made of this process.
    enum Started {
        /// This process is the parent, and this its new worker.
        case parent(SupervisedWorker)
        /// This process is the new worker, forked: it runs as `--worker`
        /// with the arguments it was started for.
        case worker
    }

    /// Starts a worker; with `forking`, by forking this process when that
    /// is safe (see ``ChildProcess/forkIfAlone(descriptors:closing:)``),
    /// else by starting this executable again.
    static func start(arguments: [String], forking: Bool) throws(ChildProcess.StartError) -> Started {
        guard let requests = Descriptors.pipe(), let messages = Descriptors.pipe() else {
            throw ChildProcess.StartError(description: "cannot make pipes for a worker process: \(String(cString: strerror(errno)))")
        }
        let output = OutputCapture.makeFile()
        let page = Descriptors.sealedMemory("position", size: SharedPosition.size) ?? Descriptors.temporaryFile("position")
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let all = [requests.read, requests.write, messages.read, messages.write, output ?? -1, page ?? -1, null]
        func closeAll() {
            for descriptor in all where descriptor >= 0 { close(descriptor) }
        }
        guard let output, let page, null >= 0, let position = SharedPosition.map(fileDescriptor: page) else {
            closeAll()
            let reason = String(cString: strerror(errno))
            let folder = Descriptors.temporaryFolder
            // TMPDIR unset or empty: /tmp, named alone.
            let fromEnvironment = getenv("TMPDIR").map { $0.pointee != 0 } ?? false
            let named = fromEnvironment ? "\(folder) (TMPDIR)" : folder
            throw ChildProcess.StartError(
                description: "cannot make files for a worker process in the temporary folder \(named): \(reason); "
                    + "set TMPDIR to a folder storyrun may write to")
        }
        let descriptors: [Int32: Int32] = [0: null, 1: output, 2: output, 3: requests.read, 4: messages.write, 5: page]
        let process: ChildProcess
        switch forking ? ChildProcess.forkIfAlone(descriptors: descriptors, closing: all) : nil {
        case .child?:
            // The worker maps descriptor 5 itself (the parent's mapping goes
            // with `position`). What its steps start sees the environment
            // of a worker started again.
            setenv("SWIFT_BACKTRACE", "enable=no", 1)
            CrashTrace.install()
            return .worker
        case .parent(let child)?:
            process = child
        case nil:
            var environment = ProcessInfo.processInfo.environment
            // A crashing step should end its worker at once, not after a backtrace.
            environment["SWIFT_BACKTRACE"] = "enable=no"
            do {
                process = try ChildProcess.spawn(
                    executablePath, arguments: ["--worker"] + arguments, environment: environment, descriptors: descriptors,
                    ownSession: true)
            } catch {
                closeAll()
                throw error
            }
        }
        close(requests.read)
        close(messages.write)
        close(page)
        close(null)
        Descriptors.nonBlocking(messages.read)
        Descriptors.nonBlocking(requests.write)
        Descriptors.widen(requests.write)
        return .parent(SupervisedWorker(
            process: process, requests: requests.write, messages: messages.read, position: position, output: output))
    }

    /// Queues requests and writes what the pipe takes now; the rest goes
    /// out with ``flush()``, so the parent never blocks on a worker that is
    /// busy (and so never stops reading its results).
    func send(_ bytes: [UInt8]) {
        guard requests >= 0 else { return }
        outbox += bytes
        flush()
    }

    /// Writes queued requests, as many as the pipe takes without waiting;
    /// returns how many bytes went.
    @discardableResult
    func flush() -> Int {
        guard requests >= 0, outboxStart < outbox.count else { return 0 }
        let start = outboxStart
        let written = outbox.withUnsafeBytes { write(requests, $0.baseAddress! + start, $0.count - start) }
        if written > 0 {
            outboxStart += written
            if outboxStart == outbox.count {
                outbox.removeAll(keepingCapacity: outbox.count <= 1 << 20)
                outboxStart = 0
            } else if outboxStart > outbox.count / 2 {
                outbox.removeFirst(outboxStart)
                outboxStart = 0
            }
        } else if written < 0 && errno != EAGAIN && errno != EINTR {
            // The worker is gone: what it did not take goes to another.
            outbox = []
            outboxStart = 0
        }
        return max(0, written)
    }

    /// Whether the parent has told the worker no more stories are coming
    /// (after which it runs its after-run hooks and ends).
    var requestsAreClosed: Bool { requests < 0 }

    /// Whether requests are waiting to be written.
    var hasUnsent: Bool { outboxStart < outbox.count }

    /// Tells the worker no more stories are coming, once it has every request.
    func closeRequests() {
        guard requests >= 0 else { return }
        close(requests)
        requests = -1
    }

    /// Reads what has arrived; returns its whole lines' messages, and
    /// whether the channel has ended.
    func readMessages() -> (messages: [WorkerWire.Message], ended: Bool) {
        var ended = false
        // What was pending holds no line end: only what arrives now is
        // searched for one (searched whole each time, a long line read
        // 64 KiB at a time took time growing with its square).
        let searchedUpTo = pending.count
        while true {
            let count = chunk.withUnsafeMutableBytes { read(messages, $0.baseAddress, $0.count) }
            if count > 0 {
                pending += chunk[..<count]
                continue
            }
            if count < 0 && errno == EINTR { continue }
            ended = count == 0
            break
        }
        guard let last = pending[searchedUpTo...].lastIndex(of: 0x0A) else {
            guard pending.count > Self.lineLimit else { return ([], ended) }
            pending = []
            return ([.invalid("a line longer than \(Self.lineLimit >> 20) MiB")], ended)
        }
        let lines = Array(pending[...last])
        pending.removeSubrange(...last)
        return (Self.messages(in: lines), ended)
    }

    /// The messages a worker that is gone left in its outbox (what was cut
    /// off in the pipe is dropped: the outbox has it whole). A message read
    /// from the pipe too (the worker died as it wrote them) is a story
    /// already answered, which the parent ignores.
    func unsentMessages() -> [WorkerWire.Message] {
        pending = []
        return Self.messages(in: position.unsentBytes)
    }

    /// The messages of the whole lines in `bytes`, read as bytes (no
    /// String per line).
    private static func messages(in bytes: [UInt8]) -> [WorkerWire.Message] {
        bytes.withUnsafeBufferPointer { buffer in
            var messages: [WorkerWire.Message] = []
            var start = 0
            while let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = UnsafeBufferPointer(rebasing: buffer[start..<newline])
                messages.append(WorkerWire.parse(bytes: line) ?? .invalid(WorkerWire.describe(line)))
                start = newline + 1
            }
            return messages
        }
    }

    /// What the worker printed since the test step it was in began, and a
    /// note when the disk that holds its output is full (``CaptureSpace``).
    func printed(since snapshot: SharedPosition.Snapshot) -> [Attachment] {
        let printed = OutputCapture.read(output, from: snapshot.outputOffset).map {
            [Attachment(body: $0, encoding: .identity, mediaType: Attachment.logMediaType, name: "output")]
        } ?? []
        return printed + [CaptureSpace.note(forCaptureFile: output)].compactMap { $0 }
    }

    /// Ends the worker and everything it started.
    func kill(_ reason: WorkerFailure.Reason) {
        if killReason == nil { killReason = reason }
        process.killGroup()
    }

    /// Closes the parent's descriptors once the worker is gone.
    func release() {
        closeRequests()
        close(messages)
        close(output)
    }

    /// The executable workers run: this one, or `STORYRUN_WORKER_EXECUTABLE`
    /// (a copy of it elsewhere, say).
    static let executablePath: String = {
        if let path = getenv("STORYRUN_WORKER_EXECUTABLE").map({ String(cString: $0) }), !path.isEmpty { return path }
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return CommandLine.arguments[0]
    }()
}

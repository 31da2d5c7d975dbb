import Foundation
import StepLibrarySupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A command started with `posix_spawn` in a process group of its own, so
/// that it and every child it starts can be stopped together.
final class RunningCommand: Sendable {
    /// The command line as the story wrote it, for messages.
    let commandLine: String
    /// The process id, which is also the id of its process group.
    let pid: pid_t
    /// What it writes to standard output and standard error.
    let stdout: OutputCollector
    let stderr: OutputCollector
    /// When it started.
    let started = Date()

    private struct State {
        var input: Int32 = -1
        var termination: Termination?
    }

    private let state = Mutex(State())

    /// Starts a command.
    /// - Parameters:
    ///   - executable: The resolved path of the program.
    ///   - arguments: Its arguments, the program's name first.
    ///   - directory: The directory it runs in.
    ///   - environment: Its whole environment.
    ///   - input: Text for its standard input, which is then closed; nil for
    ///     none (`/dev/null`), unless `keepsInputOpen` is set.
    ///   - keepsInputOpen: Whether its standard input stays open for ``type(_:)``.
    /// - Throws: ``CommandError`` when it cannot be started.
    init(
        commandLine: String, executable: String, arguments: [String], directory: String,
        environment: [String: String], input: String?, keepsInputOpen: Bool
    ) throws {
        self.commandLine = commandLine
        // Writing to a command that closed its input must fail, not end the worker.
        signal(SIGPIPE, SIG_IGN)
        Self.allowWaiting()
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], inPipe: [Int32] = [-1, -1]
        guard Self.makePipe(&outPipe), Self.makePipe(&errPipe) else {
            throw CommandError("cannot make pipes for `\(commandLine)`: \(String(cString: strerror(errno)))")
        }
        let usesInputPipe = input != nil || keepsInputOpen
        if usesInputPipe, !Self.makePipe(&inPipe) {
            throw CommandError("cannot make a pipe for `\(commandLine)`: \(String(cString: strerror(errno)))")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if usesInputPipe {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        guard Self.addChangeDirectory(&actions, directory) == 0 else {
            throw CommandError("cannot run `\(commandLine)` in \(directory): this C library cannot change directory in posix_spawn")
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnAttributes.setOwnGroupAndDefaultSignals(&attributes)

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        if usesInputPipe { close(inPipe[0]) }
        guard result == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            if usesInputPipe { close(inPipe[1]) }
            throw CommandError("cannot run `\(commandLine)`: \(String(cString: strerror(result)))")
        }
        pid = child
        stdout = OutputCollector(reading: outPipe[0])
        stderr = OutputCollector(reading: errPipe[0])
        if let input {
            Self.feed(input, to: inPipe[1])
        } else if keepsInputOpen {
            state.withLock { $0.input = inPipe[1] }
        }
    }

    /// Writes `input` to a command's standard input, then closes it, on a
    /// thread of its own: a command that never reads must not block the story.
    private static func feed(_ input: String, to descriptor: Int32) {
        Thread {
            var bytes = Array(input.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { break }
                offset += written
            }
            close(descriptor)
        }.start()
    }

    /// Makes sure the commands this process starts can be waited for: a
    /// step that set SIGCHLD to ignored (or `SA_NOCLDWAIT`) has the kernel
    /// reap every child at once, and `waitpid` never saw one end (every
    /// later command "did not finish within 10 s"). SIGCHLD's action goes
    /// back to the default then; a handler the step set stays.
    static func allowWaiting() {
        var current = sigaction()
        guard sigaction(SIGCHLD, nil, &current) == 0 else { return }
        let ignore = unsafeBitCast(SIG_IGN, to: Int.self)
        let isIgnored = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == ignore
        guard isIgnored || current.sa_flags & SA_NOCLDWAIT != 0 else { return }
        var fixed = current
        if isIgnored { fixed.__sigaction_handler.sa_handler = SIG_DFL }
        fixed.sa_flags &= ~SA_NOCLDWAIT
        _ = sigaction(SIGCHLD, &fixed, nil)
    }

    /// Makes a pipe whose ends are closed in the programs started (`pipe2`
    /// is not imported into Swift).
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29), which Swift does not import.
    private static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t, _ path: String) -> Int32 {
        typealias AddChangeDirectory = @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
        ) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else { return -1 }
        let function = unsafeBitCast(symbol, to: AddChangeDirectory.self)
        return withUnsafeMutablePointer(to: &actions) { function($0, path) }
    }

    /// How it ended, once it has; reaps it when it just did.
    var termination: Termination? {
        state.withLock { state in
            if state.termination == nil {
                var status: Int32 = 0
                var result: pid_t
                repeat { result = waitpid(pid, &status, WNOHANG) } while result < 0 && errno == EINTR
                if result == pid { state.termination = Termination(waitStatus: status) }
            }
            return state.termination
        }
    }

    /// Waits until it ends, for at most `timeout` seconds; with
    /// `untilCancelled`, no longer than the step's task is not cancelled
    /// (past `--step-timeout`).
    /// - Returns: How it ended, or nil when it is still running.
    func wait(timeout: Double, untilCancelled: Bool = false) async -> Termination? {
        let deadline = Date().addingTimeInterval(timeout)
        var pause: UInt64 = 1_000_000
        while true {
            if let termination { return termination }
            if Date() >= deadline || untilCancelled && Task.isCancelled { return nil }
            await Self.pause(nanoseconds: pause)
            pause = min(pause * 2, 20_000_000)
        }
    }

    /// Waits until both output pipes are closed, for at most `timeout` seconds.
    func waitForOutput(timeout: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !(stdout.isClosed && stderr.isClosed) {
            if Date() >= deadline { return false }
            await Self.pause(nanoseconds: 5_000_000)
        }
        return true
    }

    /// Sleeps between two looks, also in a cancelled task, where
    /// `Task.sleep` returns at once: a wait there spun a core (1.6 s of CPU
    /// in 2 s) until its own deadline.
    private static func pause(nanoseconds: UInt64) async {
        if Task.isCancelled {
            usleep(UInt32(nanoseconds / 1_000))
        } else {
            try? await Task.sleep(nanoseconds: nanoseconds)
        }
    }

    /// Whether any process is left in its process group.
    var groupIsAlive: Bool { kill(-pid, 0) == 0 }

    /// Sends a signal to its whole process group.
    func signalGroup(_ signal: Int32) {
        kill(-pid, signal)
    }

    /// Writes text to its standard input.
    /// - Throws: ``CommandError`` when its input is closed or it stopped reading.
    func type(_ text: String) throws {
        let descriptor = state.withLock { $0.input }
        guard descriptor >= 0 else { throw CommandError("the input of `\(commandLine)` is closed") }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                // MSG_NOSIGNAL is for sockets; a closed pipe gives EPIPE once SIGPIPE is ignored.
                write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                throw CommandError("`\(commandLine)` does not read its input any more (\(String(cString: strerror(errno))))")
            }
            offset += written
        }
    }

    /// Closes its standard input, as Ctrl-D at a terminal does.
    func closeInput() {
        state.withLock { state in
            if state.input >= 0 { close(state.input) }
            state.input = -1
        }
    }

    /// Stops it and every process of its group: SIGTERM, then SIGKILL after
    /// `grace` seconds; always reaps it.
    @discardableResult
    func stop(grace: Double) async -> Termination {
        closeInput()
        if termination == nil {
            signalGroup(SIGTERM)
            if await wait(timeout: grace) == nil { signalGroup(SIGKILL) }
        }
        signalGroup(SIGKILL)
        return await wait(timeout: 10) ?? .signalled(SIGKILL)
    }
}

/// A command that could not be run or checked, with a message for the report.
public struct CommandError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

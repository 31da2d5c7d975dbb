#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The working directory and file mode mask a run started with, put back
/// after every story and run hook: what a step changes stays in its story,
/// and neither later stories' relative paths nor the reports (written in
/// process with `--in-process`) land elsewhere or unreadable.
final class ProcessState: @unchecked Sendable {
    // Unchecked: immutable after init.
    private let directory: Int32
    private let mask: mode_t

    init() {
        directory = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        let mask = umask(0o022)
        umask(mask)
        self.mask = mask
    }

    /// Puts the working directory and the mask back.
    func restore() {
        if directory >= 0 { _ = fchdir(directory) }
        umask(mask)
    }

    deinit {
        if directory >= 0 { close(directory) }
    }
}

/// A signal user code raised on a thread that blocks it (as the threads
/// that run steps do): in process (`--in-process`) it would wait unseen and
/// the step pass, so it is taken and the step fails with it.
enum PendingSignals {
    /// Takes one pending signal whose default action ends the process; nil
    /// when there is none. A SIGINT or SIGTERM from outside (a Ctrl-C, a
    /// `kill` from another process) that no thread took, because the
    /// step's thread blocks it, is not the step's: it goes to
    /// ``Interrupts``, which stops the run as its handler would, and fails
    /// no step. One the step raised on its own thread (`raise`) fails the
    /// step, as any other. (A step's `kill` of its own process is most
    /// often taken at once by the run's handler, on a thread that does not
    /// block it, and stops the run like one from outside.)
    static func take() -> Int32? {
        if let raised = Interrupts.takeRaised() { return raised }
        var pending = sigset_t()
        guard sigpending(&pending) == 0, !isEmpty(&pending) else { return nil }
        for signal in Int32(1)..<65 where !isHarmless(signal) && sigismember(&pending, signal) == 1 {
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, signal)
            var none = timespec(tv_sec: 0, tv_nsec: 0)
            // Only a signal this thread blocks can be taken this way; one
            // it does not block has been handled already.
            var info = siginfo_t()
            guard sigtimedwait(&only, &info, &none) == signal else { continue }
            if Interrupts.stopsRun(signal), !isFromThisProcess(info) {
                Interrupts.note(signal)
                continue
            }
            return signal
        }
        return nil
    }

    /// Whether this process sent the signal: `raise` (or `pthread_kill`),
    /// or `kill`/`sigqueue` with its own process id; not a terminal's
    /// Ctrl-C or another process's `kill`.
    static func isFromThisProcess(_ info: siginfo_t) -> Bool {
        switch Int(info.si_code) {
        case Int(SI_TKILL): true
        case Int(SI_USER), Int(SI_QUEUE): info._sifields._kill.si_pid == getpid()
        default: false
        }
    }

    /// Whether no signal is in the set: the answer after almost every step,
    /// found without asking about each signal.
    static func isEmpty(_ set: inout sigset_t) -> Bool {
        withUnsafeBytes(of: &set) { bytes in bytes.allSatisfy { $0 == 0 } }
    }

    /// Signals whose default action does not end a process, or that cannot be caught.
    static func isHarmless(_ signal: Int32) -> Bool {
        switch signal {
        case SIGCHLD, SIGURG, SIGWINCH, SIGCONT, SIGTSTP, SIGTTIN, SIGTTOU, SIGSTOP, SIGKILL: true
        default: false
        }
    }
}

/// A step or hook raised a signal that, in a process of its own, would have
/// ended it.
struct RaisedSignalError: LocatedError, CustomStringConvertible {
    var location: SourceLocation? { nil }
    var signal: Int32

    var description: String {
        "the code raised signal \(signal) (\(WorkerFailure.name(of: signal))), which would have ended its process; in process (--in-process) it was caught and failed the step"
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// SIGINT, SIGTERM, SIGHUP (a terminal or ssh session that went away) and
/// every other signal whose default is to end the process (``stopping``),
/// noted rather than obeyed at once, so a run that is stopped still writes
/// every report for what ran; and SIGPIPE ignored, so
/// a closed standard output (`storyrun … | head -1`) never stops the run.
/// A signal the run was started with ignored stays ignored: `nohup`'s
/// SIGHUP, the SIGINT a shell script's background job ignores.
enum Interrupts {
    private static let signal = Atomic<Int32>(0)
    /// A handled signal that code raised on its own thread, until taken.
    private static let raised = Atomic<Int32>(0)

    /// Takes the signal code raised on its own thread, if it did.
    static func takeRaised() -> Int32? {
        let number = raised.exchange(0, ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// Installs the handlers; only the process's own entry point calls this.
    static func install() {
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        // With no terminal to share, a stop signal would stop the run for
        // ever (nothing would send SIGCONT): ignored.
        if !hasTerminal {
            for number in [SIGTTIN, SIGTTOU, SIGTSTP] { _ = Glibc.signal(number, SIG_IGN) }
        }
        for number in stopping {
            if isIgnored(number) { continue }
            var action = sigaction()
            // No SA_RESTART: a wait in poll(2) ends at once.
            action.__sigaction_handler.sa_sigaction = { number, info, _ in
                // Raised by code on its own thread (a step's `raise`, in
                // process): that code's failure, not a stop (see
                // ``UserCodeSignals``).
                if let info, info.pointee.si_code == SI_TKILL {
                    Interrupts.raised.store(number, ordering: .relaxed)
                    return
                }
                // A second signal ends the run at once, as shells expect.
                if Interrupts.signal.exchange(number, ordering: .relaxed) != 0 {
                    Glibc.signal(number, SIG_DFL)
                    raise(number)
                }
            }
            action.sa_flags = SA_SIGINFO
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// Every signal whose default action ends the process, and that no
    /// fault of this process raises (SIGSEGV, SIGBUS, SIGILL, SIGFPE,
    /// SIGTRAP and SIGABRT are its own crash; SIGPIPE is ignored): each
    /// stops the run as SIGTERM does (every report written, exit 128 + its
    /// number), never ends it at once with nothing written.
    static let stopping: [Int32] =
        [SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGTERM, SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSYS]
        + Array(Int32(34)...Int32(64))

    /// Whether `signal` stops the run (see ``stopping``).
    static func stopsRun(_ signal: Int32) -> Bool {
        stopping.contains(signal)
    }

    /// Whether this process has a controlling terminal.
    private static var hasTerminal: Bool {
        let descriptor = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// Whether `signal`'s action is now SIG_IGN (a handler pointer of 1).
    static func isIgnored(_ signal: Int32) -> Bool {
        var action = sigaction()
        guard sigaction(signal, nil, &action) == 0, let handler = action.__sigaction_handler.sa_handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == 1
    }

    /// Notes a SIGINT or SIGTERM that a thread took instead of the handler
    /// (see ``PendingSignals/take()``): the run stops as if the handler had
    /// run; a second one ends the process at once.
    static func note(_ number: Int32) {
        if signal.exchange(number, ordering: .relaxed) != 0 {
            Glibc.signal(number, SIG_DFL)
            // To the process: this thread blocks it.
            kill(getpid(), number)
        }
    }

    /// The signal that asked the run to stop, if one did.
    static var received: Int32? {
        let number = signal.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// The exit status for a run stopped by `signal`: 128 + its number.
    static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The signal mask user code (a step, a hook) runs with: the one a plain
/// program has, not the one of the thread it happens to run on. Dispatch's
/// threads, which run async code, block almost every signal, and every
/// process a step starts (Foundation's `Process`, `posix_spawn`, `fork`)
/// inherits the mask of the thread that starts it: a `sleep 60` started
/// there ignored the SIGTERM of `terminate()`, and the after hook that then
/// waited for it never returned.
///
/// In a worker every signal is unblocked while user code runs (a signal it
/// raises ends the worker, whose parent reports it). In process
/// (`--in-process`) only SIGHUP, SIGINT and SIGTERM are: the run handles
/// them (one the code raises on its own thread fails its step, see
/// ``Interrupts``), and the others stay blocked so that one the code raises
/// is taken afterwards and fails its step (see ``PendingSignals``) rather
/// than ending the run, or meeting a crash handler, with no report.
enum UserCodeSignals {
    /// Sets the calling thread's mask for user code; returns the mask to
    /// give back to ``leave(_:)`` when the code returns.
    static func enter(isWorker: Bool) -> sigset_t {
        var previous = sigset_t()
        var unblocked = sigset_t()
        if isWorker {
            sigfillset(&unblocked)
        } else {
            sigemptyset(&unblocked)
            for signal in [SIGHUP, SIGINT, SIGTERM] { sigaddset(&unblocked, signal) }
        }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, &previous)
        return previous
    }

    /// Puts back the mask ``enter(isWorker:)`` returned (on whichever
    /// thread the code ended: all of Dispatch's share one mask).
    static func leave(_ previous: sigset_t) {
        var previous = previous
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Timestamps of a run's phases, for `Benchmarks/profile.py`: with
/// `STORYRUN_PHASES=FILE`, each process of a run (the parent and its
/// workers) appends `PID ROLE PHASE NANOSECONDS` lines (monotonic clock) to
/// FILE as it reaches each phase. Off, a mark costs one load and a branch.
enum PhaseTimer {
    nonisolated(unsafe) private static var opened = open()

    /// The file's descriptor, and the process that opened it.
    private static func open() -> (descriptor: Int32, by: pid_t) {
        guard let path = getenv("STORYRUN_PHASES") else { return (-1, 0) }
        return (Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644), getpid())
    }
    nonisolated(unsafe) private static var role = "parent"

    /// Notes that this process is a worker (its marks say so).
    static func isWorker() {
        role = "worker"
        // Opened anew in a worker forked from its parent: another file has
        // the parent's number there (its channels take descriptors 0 to 5).
        if opened.descriptor >= 0 && opened.by != getpid() { opened = open() }
    }

    /// Appends a line for `phase`, when the environment asks for them.
    static func mark(_ phase: StaticString) {
        let descriptor = opened.descriptor
        guard descriptor >= 0 else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let line = "\(getpid()) \(role) \(phase) \(UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec))\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
    }
}

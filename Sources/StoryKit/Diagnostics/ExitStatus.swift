#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The exit status of a run of `storyrun`.
public enum ExitStatus: Int32, Sendable, Comparable {
    /// Every story passed.
    case success = 0
    /// A story failed (or was undefined or ambiguous under `--strict`).
    case storyFailed = 1
    /// The command line or some input was rejected.
    case inputError = 2
    /// SIGHUP stopped the run (its terminal went away; every report was
    /// written for what ran).
    case hungUp = 129
    /// SIGINT stopped the run (every report was written for what ran).
    case interrupted = 130
    /// SIGTERM stopped the run (every report was written for what ran).
    case terminated = 143

    /// The status of a run that `signal` (SIGINT, SIGTERM or SIGHUP) stopped.
    static func stopped(by signal: Int32) -> ExitStatus {
        switch signal {
        case SIGTERM: .terminated
        case SIGHUP: .hungUp
        default: .interrupted
        }
    }

    /// Whether a signal stopped the run.
    var isStoppedBySignal: Bool { self == .interrupted || self == .terminated || self == .hungUp }

    public static func < (lhs: ExitStatus, rhs: ExitStatus) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

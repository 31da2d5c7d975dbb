/// The exit status of a run of `storyrun`.
public enum ExitStatus: Int32, Sendable, Comparable {
    /// Every story passed.
    case success = 0
    /// A story failed (or was undefined or ambiguous under `--strict`).
    case storyFailed = 1
    /// The command line or some input was rejected.
    case inputError = 2
    /// SIGINT stopped the run (every report was written for what ran).
    case interrupted = 130
    /// SIGTERM stopped the run (every report was written for what ran).
    case terminated = 143

    public static func < (lhs: ExitStatus, rhs: ExitStatus) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

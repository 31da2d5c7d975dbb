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
    /// Another signal whose default is to end a process stopped the run
    /// as SIGTERM does (every report written): 128 + its number.
    case quit = 131, userSignal1 = 138, userSignal2 = 140, alarm = 142, stackFault = 144, cpuTimeLimit = 152, fileSizeLimit = 153
    case virtualAlarm = 154, profilingAlarm = 155, inputOutput = 157, powerFailure = 158, badSystemCall = 159
    /// A real-time signal (34 to 64) stopped the run: 128 + its number.
    case realTime34 = 162, realTime35, realTime36, realTime37, realTime38, realTime39, realTime40, realTime41, realTime42
    case realTime43, realTime44, realTime45, realTime46, realTime47, realTime48, realTime49, realTime50, realTime51, realTime52
    case realTime53, realTime54, realTime55, realTime56, realTime57, realTime58, realTime59, realTime60, realTime61, realTime62
    case realTime63, realTime64

    /// The status of a run that `signal` stopped: 128 + its number.
    static func stopped(by signal: Int32) -> ExitStatus {
        ExitStatus(rawValue: 128 + signal) ?? .interrupted
    }

    /// Whether a signal stopped the run.
    var isStoppedBySignal: Bool { rawValue > 128 }

    public static func < (lhs: ExitStatus, rhs: ExitStatus) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

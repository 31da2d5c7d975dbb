#if canImport(Glibc)
    import Glibc
#endif

/// How a command ended: with an exit status or stopped by a signal.
public enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// The command exited with this status.
    case exited(Int32)
    /// A signal stopped the command.
    case signalled(Int32)

    /// Decodes a status from `waitpid`.
    init(waitStatus status: Int32) {
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
        if status & 0x7f == 0 {
            self = .exited((status >> 8) & 0xff)
        } else {
            self = .signalled(status & 0x7f)
        }
    }

    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "was stopped by signal \(signal) (\(Self.name(of: signal)))"
        }
    }

    /// A signal's name, such as `SIGSEGV`.
    static func name(of signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
            SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
        ]
        return names[signal] ?? "signal \(signal)"
    }

    /// The number of a signal name such as `SIGTERM` or `TERM`.
    static func number(of name: String) -> Int32? {
        let wanted = name.uppercased().hasPrefix("SIG") ? name.uppercased() : "SIG" + name.uppercased()
        return (1...31).first { Self.name(of: Int32($0)) == wanted }.map { Int32($0) }
    }
}

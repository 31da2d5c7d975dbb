#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The stack trace a forked worker prints when a step traps (`fatalError`,
/// a failed precondition, a nil force-unwrapped, an index out of range).
///
/// A worker started again has the Swift runtime's backtracer off
/// (`SWIFT_BACKTRACE=enable=no`), and the runtime then prints the stack
/// under the fatal error's message itself. A forked worker has its
/// parent's runtime, started with the backtracer on (the default): that
/// runtime leaves the stack to the backtracer's signal handler, which the
/// fork resets (the backtracer would take seconds), so without this the
/// message came alone and a user could not see where in their code it was.
enum CrashTrace {
    @_silgen_name("backtrace")
    private static func backtrace(_ buffer: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ size: Int32) -> Int32
    @_silgen_name("backtrace_symbols_fd")
    private static func backtraceSymbols(_ buffer: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ size: Int32, _ descriptor: Int32)

    /// Made before any crash: nothing is allocated in the handler.
    nonisolated(unsafe) private static let frames = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: Int(depth))
    private static let depth: Int32 = 64

    /// Prints the stack to standard error (the worker's capture) on a trap,
    /// then ends the process with that signal, as before.
    static func install() {
        #if os(Linux)
        // The first call loads libgcc's unwinder, which a signal handler
        // must not do.
        _ = backtrace(frames, 1)
        for signal in [SIGILL, SIGTRAP] {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { signal, _, context in CrashTrace.handle(signal, context) }
            // The default action again once it has run: the re-raise ends
            // the process.
            action.sa_flags = Int32(bitPattern: UInt32(SA_SIGINFO) | UInt32(SA_RESETHAND) | UInt32(SA_NODEFER))
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
        #endif
    }

    /// Prints the stack from the instruction that trapped: the frames of
    /// this handler and of the kernel's return from it are left out, so
    /// the first frame is where the crash was (and is no return address,
    /// which the parent's `StackTrace` counts on).
    private static func handle(_ signal: Int32, _ context: UnsafeMutableRawPointer?) {
        let header: StaticString = "Current stack trace:\n"
        _ = write(STDERR_FILENO, header.utf8Start, header.utf8CodeUnitCount)
        let count = backtrace(frames, depth)
        var first: Int32 = 0
        #if os(Linux) && arch(x86_64)
        if let context {
            let trapped = UInt(bitPattern: Int(context.assumingMemoryBound(to: ucontext_t.self).pointee.uc_mcontext.gregs.16))  // REG_RIP
            first = (0..<count).first { UInt(bitPattern: frames[Int($0)]) == trapped } ?? 0
        }
        #endif
        backtraceSymbols(frames + Int(first), count - first, STDERR_FILENO)
        raise(signal)
    }
}

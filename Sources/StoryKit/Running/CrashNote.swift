#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Leaves a last word on standard error when a step or hook crashes the
/// process (a `fatalError`, a trap, a bad access) in a run without worker
/// processes: where the step or hook is, which story it belongs to, and
/// that a supervised run (without `--in-process`) keeps the run going. When user code calls
/// `exit()` while the stories run, it says so too and makes the exit status
/// 1: a run that did not reach its end never exits 0.
///
/// The story's part of the note is copied into fixed buffers when the story
/// starts (a hook's when the hook starts) and only the step's line number
/// is stored per step, so the signal handler just formats a number and
/// calls `write(2)`, which is safe there;
/// it then hands the signal on to the handler that was there before.
enum CrashNote {
    private static let capacity = 2048
    /// The story's file and a colon.
    nonisolated(unsafe) private static let place = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    /// ` (story "NAME")`.
    nonisolated(unsafe) private static let storyName = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    /// `KIND hook at FILE:LINE` while a hook runs.
    nonisolated(unsafe) private static let hookPlace = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var placeLength = 0
    nonisolated(unsafe) private static var storyNameLength = 0
    /// 0 when no hook runs.
    nonisolated(unsafe) private static var hookPlaceLength = 0
    /// Whether the running hook belongs to a story (not a run hook).
    nonisolated(unsafe) private static var isHookInStory = false
    /// The line of the running step; 0 between steps.
    nonisolated(unsafe) private static var stepLine = 0
    nonisolated(unsafe) private static var isInstalled = false
    /// Whether the stories (and run hooks) are running in this process.
    nonisolated(unsafe) private static var isRunningStories = false
    /// Whether the `atexit` handler is in place (it cannot be taken out).
    nonisolated(unsafe) private static var isExitHandlerInstalled = false
    /// The handlers that were there before, by signal number (below 32).
    nonisolated(unsafe) private static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 32)
    private static let signals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    /// Installs the handlers; only the process's own entry point calls this.
    static func install() {
        #if os(Linux)
        guard !isInstalled else { return }
        isInstalled = true
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in CrashNote.handle(signal) }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, previous + Int(signal))
        }
        #endif
    }

    /// Notes the story that starts.
    static func set(_ story: Story) {
        guard isInstalled else { return }
        stepLine = 0
        // Copied piece by piece: no string is built per story.
        placeLength = copy([story.location.file, ":"], into: place)
        storyNameLength = copy([" (story \"", story.name, "\")"], into: storyName)
    }

    /// Notes that user code runs in this process from now on (the stories
    /// and the run hooks, until storyrun itself exits: a thread the code
    /// left running may call `exit()` while the reports are written), or
    /// no more: an `exit()` meanwhile ends the run with status 1 (or 130/143
    /// after a Ctrl-C or SIGTERM) and a note, never 0.
    static func runsStories(_ running: Bool) {
        guard isInstalled else { return }
        if running && !isExitHandlerInstalled {
            isExitHandlerInstalled = true
            atexit { CrashNote.exitedEarly() }
        }
        isRunningStories = running
    }

    private static func exitedEarly() {
        guard isRunningStories else { return }
        write("\nstoryrun: the process exited before the run's end (did the code call exit()?)")
        if stepLine > 0 {
            write(", in the step at ")
            writeStep()
        } else if hookPlaceLength > 0 {
            write(", in the ")
            writeHook()
        }
        write("; what had not run or been written by then is lost. Run without --in-process to report it as a failed story and go on\n")
        // What the code printed last still goes out, as exit() would have it.
        fflush(nil)
        _exit(Interrupts.received.map(Interrupts.exitStatus(for:)) ?? 1)
    }

    /// Notes the hook about to run (in the story last set, unless it is a
    /// run hook), or that it has ended (nil).
    static func setHook(_ hook: Hook?) {
        guard isInstalled else { return }
        guard let hook else {
            hookPlaceLength = 0
            return
        }
        isHookInStory = hook.kind != .beforeRun && hook.kind != .afterRun
        hookPlaceLength = copy([hook.kind.rawValue, " hook at ", hook.location.displayFileAndLine], into: hookPlace)
    }

    /// Notes the line of the step about to run, or 0 when none runs.
    static func setStep(line: Int) {
        stepLine = line
    }

    /// Copies the texts one after another, as much as fits; returns the length.
    private static func copy(_ texts: [String], into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        var length = 0
        for text in texts {
            var text = text
            text.withUTF8 { bytes in
                let count = min(bytes.count, capacity - length)
                guard count > 0 else { return }
                (buffer + length).update(from: bytes.baseAddress!, count: count)
                length += count
            }
        }
        return length
    }

    private static func handle(_ signal: Int32) {
        // Only async-signal-safe work here: arithmetic, write, sigaction, raise.
        if isInstalled && stepLine > 0 {
            write("\nstoryrun: the process crashed in the step at ")
            writeStep()
            write("; run without --in-process to report the crash as a failed story and go on\n")
        } else if isInstalled && hookPlaceLength > 0 {
            write("\nstoryrun: the process crashed in the ")
            writeHook()
            // A run hook is no story.
            if isHookInStory {
                write("; run without --in-process to report the crash as a failed story and go on\n")
            } else {
                write("; run without --in-process to report the crash and go on\n")
            }
        }
        sigaction(signal, previous + Int(signal), nil)
        raise(signal)
    }

    /// `FILE:LINE (story "NAME")` of the running step, to standard error.
    private static func writeStep() {
        _ = Glibc.write(2, place, placeLength)
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            var value = stepLine
            var start = raw.count
            repeat {
                start -= 1
                raw[start] = UInt8(48 + value % 10)
                value /= 10
            } while value > 0 && start > 0
            _ = Glibc.write(2, raw.baseAddress! + start, raw.count - start)
        }
        _ = Glibc.write(2, storyName, storyNameLength)
    }

    /// `KIND hook at FILE:LINE`, with ` (story "NAME")` for a story's hook,
    /// to standard error.
    private static func writeHook() {
        _ = Glibc.write(2, hookPlace, hookPlaceLength)
        if isHookInStory { _ = Glibc.write(2, storyName, storyNameLength) }
    }

    private static func write(_ text: StaticString) {
        _ = Glibc.write(2, text.utf8Start, text.utf8CodeUnitCount)
    }
}

import Foundation
import Testing
@testable import StoryKit

/// Whose is a signal that waits on the thread that runs the steps: the
/// step's (it fails the step) or the run's (a Ctrl-C: it stops the run).
@Suite(.timeLimit(.minutes(10))) struct PendingSignalsTests {
    static func info(code: Int, pid: pid_t = 0) -> siginfo_t {
        var info = siginfo_t()
        info.si_code = Int32(code)
        info._sifields._kill.si_pid = pid
        return info
    }

    @Test("raise, and kill of its own process, are the step's")
    func fromThisProcess() {
        #expect(PendingSignals.isFromThisProcess(Self.info(code: SI_TKILL, pid: getpid())))
        #expect(PendingSignals.isFromThisProcess(Self.info(code: SI_USER, pid: getpid())))
        #expect(PendingSignals.isFromThisProcess(Self.info(code: SI_QUEUE, pid: getpid())))
    }

    @Test("A terminal's Ctrl-C and another process's kill are the run's")
    func fromOutside() {
        #expect(!PendingSignals.isFromThisProcess(Self.info(code: SI_USER, pid: getpid() + 1)))
        #expect(!PendingSignals.isFromThisProcess(Self.info(code: SI_QUEUE, pid: 1)))
        #expect(!PendingSignals.isFromThisProcess(Self.info(code: SI_KERNEL)))
    }
}

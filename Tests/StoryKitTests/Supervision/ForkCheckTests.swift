#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Testing
@testable import StoryKit

/// When a run may fork its first worker instead of starting the executable
/// again (see ``ForkCheck``).
@Suite(.timeLimit(.minutes(10))) struct ForkCheckTests {
    @Test("A process that has started threads is never forked for a worker")
    func threadsMeanNoFork() {
        let hold = DispatchSemaphore(value: 0)
        // One more thread for certain, whatever the test runner has.
        #expect(Threads.start { hold.wait() })
        #expect(!ForkCheck.isSafe)
        hold.signal()
    }
}

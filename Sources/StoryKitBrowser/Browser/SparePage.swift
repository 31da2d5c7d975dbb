import Dispatch
import Foundation
import Synchronization

/// A story's page made ahead on a thread of its own, taken by the next story.
/// A browser that is stopped or dies fails its making; the story then makes
/// its page itself (and so reports the real error). A page never taken dies
/// with its browser.
final class SparePage: Sendable {
    let connection: CDPConnection
    private let made = DispatchSemaphore(value: 0)
    private let page = Mutex<BrowserPage?>(nil)

    init(connection: CDPConnection) {
        self.connection = connection
        let thread = Thread { [self, connection] in
            // A longer time limit than a story's own calls: a browser that
            // stops answering fails the story's step, not this thread.
            let made = try? BrowserPage(connection: connection, timeLimit: connection.timeLimit * 3)
            page.withLock { $0 = made }
            self.made.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
    }

    /// The page, once made; nil when making it failed.
    func take() -> BrowserPage? {
        made.wait()
        made.signal()
        return page.withLock { $0 }
    }
}

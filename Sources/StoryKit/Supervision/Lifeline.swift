#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Ends a worker, and everything its steps started, when its parent dies
/// (the parent's pipe would tell only a worker that reads it, and a worker
/// stuck in a step reads nothing); meanwhile, sends on the answers that
/// wait in the outbox while a long story runs.
enum Lifeline {
    /// Starts the thread; `every` runs each time it wakes.
    static func start(outbox: WorkerOutbox, every: @escaping @Sendable () -> Void) {
        let parent = getppid()
        // Without a thread (a process limit), the worker still ends when it
        // next writes to its parent, and its answers go when it next waits.
        _ = Threads.start {
            while getppid() == parent {
                usleep(50_000)
                outbox.flushIfStale()
                every()
            }
            Orphans.endDescendants()
            _ = kill(0, SIGKILL)
        }
    }
}

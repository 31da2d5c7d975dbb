import Foundation

/// Where watch mode learns that files changed: inotify on Linux
/// (``InotifyWatcher``), or a scan every 0.5 s (``PollingWatcher``).
protocol ChangeWatcher: AnyObject {
    /// How it watches, for the first status line.
    var method: String { get }

    /// Waits until files of the tree change and returns their canonical
    /// paths (changed, added or removed), a burst of changes together; nil
    /// as soon as `isStopped` says so (it is asked every 100 ms at most).
    func nextChanges(isStopped: () -> Bool) -> Set<String>?
}

extension WatchedTree {
    /// A watcher for the tree: inotify where there is one, unless
    /// `isPolling`; else a scan every 0.5 s. The note says why it polls when
    /// inotify was wanted and could not be used.
    func makeWatcher(isPolling: Bool) -> (watcher: any ChangeWatcher, note: String?) {
        #if os(Linux)
        if !isPolling {
            switch InotifyWatcher.make(tree: self) {
            case .success(let watcher): return (watcher, nil)
            case .failure(let problem):
                return (PollingWatcher(tree: self), "inotify cannot watch these folders (\(problem.reason)); polling every 0.5 s instead")
            }
        }
        #endif
        return (PollingWatcher(tree: self), nil)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Finds changes by scanning the watched files every 0.5 s and comparing
/// their modification times and sizes: for systems without inotify, for
/// folders inotify cannot watch, and for tests (`--watch-poll`).
final class PollingWatcher: ChangeWatcher {
    let tree: WatchedTree
    /// How long between two scans, in milliseconds.
    let interval: Int
    private var stamps: [String: WatchedTree.Stamp]

    /// Makes a watcher, taking the first scan now: a change after this
    /// (during the first run, say) is seen.
    init(tree: WatchedTree, interval: Int = 500) {
        self.tree = tree
        self.interval = interval
        stamps = tree.scan()
    }

    var method: String { "polling every \(Double(interval) / 1000) s" }

    func nextChanges(isStopped: () -> Bool) -> Set<String>? {
        while true {
            var waited = 0
            while waited < interval {
                if isStopped() { return nil }
                let slice = min(50, interval - waited)
                usleep(UInt32(slice) * 1000)
                waited += slice
            }
            let now = tree.scan()
            var changes: Set<String> = []
            for (path, stamp) in now where stamps[path] != stamp { changes.insert(path) }
            for path in stamps.keys where now[path] == nil { changes.insert(path) }
            stamps = now
            if !changes.isEmpty { return changes }
        }
    }
}

#if os(Linux)
import Glibc
import Foundation

/// Finds changes with Linux's inotify: a watch on every watched folder
/// (recursively, through symlinks, hidden ones too; folders created later
/// are added as they appear), events
/// read from one descriptor, and a burst of them (an editor writes a
/// temporary file and renames it) taken together until 50 ms pass quietly.
final class InotifyWatcher: ChangeWatcher {
    let tree: WatchedTree
    private let descriptor: Int32
    /// The folder of each watch.
    private var folders: [Int32: String] = [:]
    /// The folders that keep the roots in sight (``WatchedTree/rootFolders()``).
    private let rootFolders: Set<String>
    /// The root folders with no watch now (removed, moved away, not made
    /// yet): each is looked for every 100 ms and watched again when back.
    private var missing: Set<String> = []
    /// How long a burst of events must be quiet before it is handed on, in
    /// milliseconds.
    static let quietTime: Int32 = 50
    /// The longest a burst is gathered, in milliseconds, so a file written
    /// without end still runs.
    static let longestBurst: UInt64 = 1000

    /// Why inotify cannot be used.
    struct Problem: Error {
        var reason: String
    }

    private static let events = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_MODIFY)
        | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR)

    private init(tree: WatchedTree, descriptor: Int32) {
        self.tree = tree
        self.descriptor = descriptor
        rootFolders = Set(tree.rootFolders())
    }

    deinit { close(descriptor) }

    /// Makes a watcher with a watch on every folder of the tree.
    static func make(tree: WatchedTree) -> Result<InotifyWatcher, Problem> {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return .failure(Problem(reason: "inotify_init1: \(String(cString: strerror(errno)))")) }
        let watcher = InotifyWatcher(tree: tree, descriptor: descriptor)
        for folder in tree.folders() {
            if let problem = watcher.add(folder) { return .failure(problem) }
        }
        let watched = Set(watcher.folders.values)
        watcher.missing = watcher.rootFolders.filter { !watched.contains($0) }
        return .success(watcher)
    }

    var method: String { "inotify" }

    /// Watches a folder; a problem when the system will not (too many
    /// watches: `fs.inotify.max_user_watches`).
    private func add(_ folder: String) -> Problem? {
        let watch = inotify_add_watch(descriptor, WatchedTree.fileSystemPath(folder), Self.events)
        guard watch >= 0 else {
            // A folder gone since it was listed is no problem.
            if errno == ENOENT || errno == ENOTDIR { return nil }
            let reason = errno == ENOSPC ? "no more inotify watches (fs.inotify.max_user_watches)" : String(cString: strerror(errno))
            return Problem(reason: "\(folder.isEmpty ? "." : folder): \(reason)")
        }
        folders[watch] = folder
        return nil
    }

    func nextChanges(isStopped: () -> Bool) -> Set<String>? {
        var changes: Set<String> = []
        while changes.isEmpty {
            if isStopped() { return nil }
            changes.formUnion(lookForMissing())
            if wait(milliseconds: 100) { changes.formUnion(readEvents()) }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        while DispatchTime.now().uptimeNanoseconds - start < Self.longestBurst * 1_000_000,
            wait(milliseconds: Self.quietTime)
        {
            changes.formUnion(readEvents())
        }
        return changes
    }

    /// Watches the missing root folders that are back, and returns them and
    /// the files in them.
    private func lookForMissing() -> Set<String> {
        var changes: Set<String> = []
        for root in missing where WatchedTree.isFolder(root) {
            WatchedTree.walk(root, folder: { _ = add($0) }, file: { file in
                if tree.kind(of: file) != nil { changes.insert(file) }
            })
            if folders.values.contains(root) {
                missing.remove(root)
                changes.insert(root)
            }
        }
        return changes
    }

    /// Ends the watches of a folder and the folders under it (moved away:
    /// a watch follows the folder, not its path).
    private func forget(_ folder: String) {
        for (watch, path) in folders where WatchedTree.isPath(path, under: folder) {
            inotify_rm_watch(descriptor, watch)
            folders[watch] = nil
        }
    }

    /// Whether events are there to read within the time.
    private func wait(milliseconds: Int32) -> Bool {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        return poll(&descriptors, 1, milliseconds) > 0
    }

    /// Reads the events waiting; returns the watched files they name. A
    /// folder that appears is watched, and its files count as changed.
    private func readEvents() -> Set<String> {
        var changes: Set<String> = []
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, size)
            guard count > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let watch = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = UnsafeRawBufferPointer(start: buffer + offset + header, count: min(length, count - offset - header))
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                offset += header + length
                guard let folder = folders[watch] else { continue }
                if mask & (UInt32(IN_IGNORED) | UInt32(IN_MOVE_SELF)) != 0 {
                    // A root folder gone (removed, moved away) is looked
                    // for until it is back; the change wakes watch mode.
                    if mask & UInt32(IN_MOVE_SELF) != 0 { forget(folder) } else { folders[watch] = nil }
                    if rootFolders.contains(folder) {
                        missing.insert(folder)
                        changes.insert(folder)
                    }
                    continue
                }
                guard !name.isEmpty else { continue }
                let path = folder.isEmpty ? name : folder + "/" + name
                // A folder, or a symlink to one, that appears is walked as
                // the run walks it.
                let isArriving = mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0
                if mask & UInt32(IN_ISDIR) != 0 || (isArriving && WatchedTree.isFolder(path)) {
                    if mask & UInt32(IN_MOVED_FROM) != 0 { forget(path) }
                    if isArriving, WatchedTree.isWatchedFolderName(name) {
                        WatchedTree.walk(path, folder: { _ = add($0) }, file: { file in
                            if tree.kind(of: file) != nil { changes.insert(file) }
                        })
                    }
                    continue
                }
                if tree.kind(of: path) != nil { changes.insert(path) }
            }
        }
        return changes
    }
}
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// What a story file was (device, inode, size, modification time) when the
/// run read it for its stories, so the reports, which read the file again
/// when they are written (``StoryFileInfo``), can tell that it changed in
/// between: an editor's save, a checkout, a step that edits it.
///
/// Before, they took the new text: a `.feature` file edited during the run
/// was reported with pickles, Messages `source` and syntax tree of text
/// that never ran, beside the results of the text that did. A changed file
/// is now reported as one that can no longer be read: from the stories the
/// run has.
enum FileStamps {
    struct Stamp: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
    }

    private static let stamps = Mutex<[String: Stamp]>([:])

    /// The file's stamp now; nil when it cannot be looked at.
    static func stamp(of path: String) -> Stamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Stamp(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            seconds: Int(status.st_mtim.tv_sec), nanoseconds: Int(status.st_mtim.tv_nsec))
    }

    /// Notes a file's stamp, taken just before it is read for its stories
    /// (a change while it is read then shows as a change).
    static func note(_ stamp: Stamp?, for path: String) {
        guard let stamp else { return }
        stamps.withLock { $0[path] = stamp }
    }

    /// Whether the file changed since it was last read for its stories;
    /// false for a file never read so.
    static func isChanged(_ path: String) -> Bool {
        guard let noted = stamps.withLock({ $0[path] }) else { return false }
        return stamp(of: path) != noted
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What makes two paths one file, however each is spelled (`./a.json` and
/// `a.json`, a link and its target): the device and inode of the file a
/// path names, links followed.
enum FileIdentity {
    /// The identity of the file at a path, as text; nil when nothing is
    /// there (or it cannot be looked at).
    static func of(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return "\(status.st_dev):\(status.st_ino)"
    }
}

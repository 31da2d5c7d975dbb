#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A report path resolved once, when the run starts, with the folder its
/// file goes in held open: what a step does to the path or its folders
/// afterwards (a symlink planted where the report goes, the folder moved
/// away and a symlink to another put in its place) cannot redirect the
/// report. Its temporary file is created in that open folder
/// (`openat`, `O_NOFOLLOW`) and renamed within it (`renameat`), so a
/// symlink planted at the path is replaced, never followed.
///
/// A path that is a symlink when the run starts is followed then, to the
/// file that is replaced at the end (the link stays a link).
///
/// ```swift
/// let target = try ReportTarget(path: "out/report.xml")
/// let file = try ReportFile(path: "out/report.xml", target: target)
/// ```
final class ReportTarget: Sendable {
    /// Where a resolved report path leads.
    enum Kind: Sendable {
        /// One of this process's file descriptors (`/dev/stdout`, `/dev/fd/N`).
        case descriptor(Int32)
        /// An existing file that is not regular (a device, a FIFO): opened
        /// and written as it is when the report is written.
        case direct
        /// A regular file, or none yet: the entry `name` of the folder open
        /// as `folder`, replaced by a temporary file renamed over it.
        case replacing(folder: Int32, name: String)
    }

    /// The path as the user gave it.
    let path: String
    /// Where it leads.
    let kind: Kind
    /// The folder the report goes in, as messages name it.
    let folderPath: String

    /// Resolves a report path now and opens the folder its file goes in.
    /// - Parameter opening: The path to resolve, when it differs from the
    ///   one the user gave (``EarlierReport/anchored(_:)``: a relative
    ///   path with the folder the run started in before it).
    /// - Throws: A ``Diagnostic`` naming the path, the reason and what to
    ///   do: a folder, a symlink loop, a folder that is not there.
    init(path: String, opening: String? = nil) throws(Diagnostic) {
        self.path = path
        let opened = opening ?? path
        switch try ReportDestination(path: opened) {
        case .descriptor(let number):
            kind = .descriptor(number)
            folderPath = "."
        case .direct:
            kind = .direct
            folderPath = ReportDestination.folder(of: path)
        case .replacing(let target):
            let folder = ReportDestination.folder(of: target)
            folderPath = Self.shown(folder, given: path, opened: opened)
            let descriptor = Self.openFolder(folder)
            guard descriptor >= 0 else { throw ReportFile.failure(path, errno, folder: folderPath) }
            kind = .replacing(folder: descriptor, name: Self.lastComponent(of: target))
        }
    }

    deinit {
        if case .replacing(let folder, _) = kind { close(folder) }
    }

    /// Resolves each report path as the run starts (see ``ReportTarget``),
    /// by the path as the user gave it; a path that cannot be resolved
    /// keeps its failure, which writing the report throws at the end.
    static func resolve(_ paths: [(given: String, anchored: String)]) -> [String: Result<ReportTarget, Diagnostic>] {
        var targets: [String: Result<ReportTarget, Diagnostic>] = [:]
        for (given, anchored) in paths where targets[given] == nil {
            do {
                targets[given] = .success(try ReportTarget(path: given, opening: anchored))
            } catch {
                targets[given] = .failure(error)
            }
        }
        return targets
    }

    /// Opens a folder for `openat` and `fsync`; a folder this user may
    /// write in but not read is opened for paths only (`O_PATH`: it is
    /// then not synced).
    private static func openFolder(_ folder: String) -> Int32 {
        var descriptor: Int32
        repeat {
            descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        #if os(Linux)
        if descriptor < 0 && errno == EACCES { descriptor = open(folder, pathOnly | O_DIRECTORY | O_CLOEXEC) }
        #endif
        return descriptor
    }

    /// Linux's `O_PATH`, which Glibc's module does not export.
    private static let pathOnly: Int32 = 0o10_000_000

    /// The folder as messages name it: without the folder the run started
    /// in, when only the anchoring put it there.
    private static func shown(_ folder: String, given: String, opened: String) -> String {
        guard opened != given, opened.hasSuffix(given) else { return folder }
        let start = String(opened.dropLast(given.count))
        guard (folder + "/").hasPrefix(start) else { return folder }
        let rest = String((folder + "/").dropFirst(start.count).dropLast())
        return rest.isEmpty ? "." : rest
    }

    /// The last component of a path: what follows its last slash.
    private static func lastComponent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The files watch mode looks at: the story files under the paths of the
/// run, and the Swift sources it rebuilds on.
///
/// Every path it holds or gives is canonical (``StoryPath/canonical(_:)``):
/// relative to the current folder, `""` for the current folder itself.
struct WatchedTree: Sendable {
    /// The story paths of the run (files or folders).
    let storyRoots: [String]
    /// The folder of Swift sources; nil when none is watched.
    let sourcesRoot: String?

    /// What a changed file is to watch mode.
    enum Kind: Equatable {
        /// A `.stories` or `.feature` file under a story path.
        case story
        /// A `.swift` file under the sources folder.
        case swiftSource
    }

    /// A file's last modification, to compare scans.
    struct Stamp: Equatable {
        var modified: timespec
        var size: Int

        static func == (a: Stamp, b: Stamp) -> Bool {
            a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec && a.size == b.size
        }
    }

    /// Makes the tree for the run's story paths (`PATH:LINE` counts as
    /// `PATH`) and a folder of Swift sources.
    init(storyPaths: [String], sourcesFolder: String?) {
        let (paths, _, _) = StoryFilter.splitLines(storyPaths)
        storyRoots = paths.map(Self.canonicalRoot)
        sourcesRoot = sourcesFolder.map(Self.canonicalRoot)
    }

    /// The canonical path of a root; `""` for the current folder, which
    /// ``StoryPath/canonical(_:)`` leaves absolute.
    static func canonicalRoot(_ path: String) -> String {
        let canonical = StoryPath.canonical(path)
        return canonical == FileManager.default.currentDirectoryPath ? "" : canonical
    }

    /// What the file at a canonical path is to watch mode; nil when it is
    /// nothing to it.
    func kind(of path: String) -> Kind? {
        if path.hasSuffix(".stories") || path.hasSuffix(".feature") {
            if storyRoots.contains(where: { Self.isPath(path, under: $0) }) { return .story }
        } else if path.hasSuffix(".swift"), let sourcesRoot, Self.isPath(path, under: sourcesRoot) {
            return .swiftSource
        }
        return nil
    }

    /// Whether `path` is `root` or inside it.
    static func isPath(_ path: String, under root: String) -> Bool {
        if root.isEmpty { return !path.hasPrefix("/") }
        return path == root || path.hasPrefix(root + "/")
    }

    /// The path to hand to the file system for a canonical path.
    static func fileSystemPath(_ path: String) -> String { path.isEmpty ? "." : path }

    /// The folders to watch: every folder under the roots (symlinks
    /// followed, hidden ones too) but `.build` and `.git`, and the folder
    /// of each root that is a file.
    func folders() -> [String] {
        var folders: [String] = []
        var seen: Set<String> = []
        func add(_ folder: String) {
            if seen.insert(folder).inserted { folders.append(folder) }
        }
        for root in storyRoots + (sourcesRoot.map { [$0] } ?? []) {
            if Self.isFolder(root) {
                Self.walk(root, folder: add, file: { _ in })
            } else {
                let parent = (root as NSString).deletingLastPathComponent
                add(Self.canonicalRoot(parent.isEmpty ? "." : parent))
            }
        }
        return folders
    }

    /// The folders that keep the roots in sight: each root that is a
    /// folder (or is not there and is no story file), and the folder of
    /// each root that is a file. When one goes, a watcher looks for it to
    /// come back.
    func rootFolders() -> [String] {
        var folders: [String] = []
        for root in storyRoots + (sourcesRoot.map { [$0] } ?? []) {
            let folder: String
            if Self.isFolder(root) || (Self.stamp(root) == nil && kind(of: root) == nil) {
                folder = root
            } else {
                let parent = (root as NSString).deletingLastPathComponent
                folder = Self.canonicalRoot(parent.isEmpty ? "." : parent)
            }
            if !folders.contains(folder) { folders.append(folder) }
        }
        return folders
    }

    /// The story paths and sources folder that are not there now (removed
    /// or moved away while watching), for the status line.
    func missingRoots() -> [String] {
        (storyRoots + (sourcesRoot.map { [$0] } ?? [])).filter { root in
            var status = stat()
            return !root.isEmpty && stat(Self.fileSystemPath(root), &status) != 0
        }
    }

    /// Every watched file, with its stamp.
    func scan() -> [String: Stamp] {
        var stamps: [String: Stamp] = [:]
        func note(_ path: String) {
            guard kind(of: path) != nil, let stamp = Self.stamp(path) else { return }
            stamps[path] = stamp
        }
        for root in storyRoots + (sourcesRoot.map { [$0] } ?? []) {
            if Self.isFolder(root) {
                Self.walk(root, folder: { _ in }, file: note)
            } else {
                note(root)
            }
        }
        return stamps
    }

    /// The stamp of a file; nil when there is no regular file there.
    static func stamp(_ path: String) -> Stamp? {
        var status = stat()
        guard stat(fileSystemPath(path), &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        return Stamp(modified: status.st_mtimespec, size: Int(status.st_size))
        #else
        return Stamp(modified: status.st_mtim, size: Int(status.st_size))
        #endif
    }

    /// The warning for a story path that is there but is not a regular
    /// file (a FIFO, a socket, a device), which watch mode never opens (a
    /// FIFO would block it); nil for a regular file or nothing.
    static func notRegularWarning(_ path: String) -> String? {
        var status = stat()
        guard stat(fileSystemPath(path), &status) == 0 else { return nil }
        let type = status.st_mode & S_IFMT
        guard type != S_IFREG, type != S_IFDIR else { return nil }
        return "storyrun: warning: \(path) is not a regular file (\(RegularFile.kind(status.st_mode))); it is not watched"
    }

    static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(fileSystemPath(path), &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Calls `folder` for `root` and each folder below it, and `file` for
    /// each other entry, as a run finds story files: symlinks are followed
    /// (each real folder once, so a symlink loop ends) and hidden files and
    /// folders are walked, but for `.git` and `.build`, which hold no
    /// stories of the user's and would cost thousands of watches.
    static func walk(_ root: String, folder: (String) -> Void, file: (String) -> Void) {
        var seen: Set<[UInt64]> = []
        var pending = [root]
        while let current = pending.popLast() {
            var status = stat()
            if stat(fileSystemPath(current), &status) == 0,
                !seen.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted
            {
                continue
            }
            folder(current)
            guard let directory = opendir(fileSystemPath(current)) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard name != ".", name != ".." else { continue }
                let path = current.isEmpty ? name : current + "/" + name
                let type = entry.pointee.d_type
                if type == UInt8(DT_DIR) || ((type == UInt8(DT_UNKNOWN) || type == UInt8(DT_LNK)) && isFolder(path)) {
                    if isWatchedFolderName(name) { pending.append(path) }
                } else {
                    file(path)
                }
            }
        }
    }

    /// Whether a folder of this name is walked and watched: any but `.git`
    /// and `.build`.
    static func isWatchedFolderName(_ name: String) -> Bool {
        name != ".git" && name != ".build"
    }
}

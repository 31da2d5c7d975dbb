import Foundation

/// Paths as a run names them.
enum StoryPath {
    /// Whether something (a file, a folder) is at the path.
    static func exists(_ path: String) -> Bool {
        guard !path.isEmpty else { return false }
        var status = stat()
        return stat(path, &status) == 0
    }

    /// The current folder, read once: a run does not change it.
    private static let currentFolder = FileManager.default.currentDirectoryPath

    /// The path relative to the current folder, with `.`, `..` and doubled
    /// slashes resolved: `stories/a.stories`, `./stories/a.stories` and
    /// `/work/project/stories/a.stories` (run in /work/project) are the same.
    /// A path outside the current folder stays absolute.
    static func canonical(_ path: String) -> String {
        let current = currentFolder
        let absolute = path.hasPrefix("/") ? path : current + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        let resolved = "/" + parts.joined(separator: "/")
        let base = current.hasSuffix("/") ? current : current + "/"
        return resolved.hasPrefix(base) ? String(resolved.dropFirst(base.count)) : resolved
    }
}
